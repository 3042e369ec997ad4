// A real third-party client, not ours: Debian's Perl XML::Atom::Client must be able to read the root listing.
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE } from '../../src-protocol'
import { startService, type RunningService } from '../server'
import { readSandboxFile } from '../testing/service-fixture'

const script = join(import.meta.dirname, 'xml-atom-root.pl')

describe('XML::Atom::Client (libxml-atom-perl)', () => {
  let dataDir: string
  let service: RunningService
  beforeAll(async () => {
    if (spawnSync('perl', ['-MXML::Atom::Client', '-e1']).status !== 0) {
      throw new Error('Perl XML::Atom::Client is missing: run `sudo apt-get install libxml-atom-perl`.')
    }
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-peer-'))
    service = await startService({ port: 0, dataDir, demo: true })
  })
  afterAll(async () => {
    await service?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('reads the demo account’s weblogs from the root listing', async () => {
    const sandbox = readSandboxFile(dataDir)
    const { stdout } = await promisify(execFile)('perl', [script, `${sandbox.atomBase}/t/atom/weblog`], {
      env: { ...process.env, ATOM_USERNAME: sandbox.username, ATOM_PASSWORD: sandbox.apiPassword },
    })

    const links = stdout.trimEnd().split('\n').map((line) => line.split('\t'))
    const blog = `${service.origin}/t/atom/weblog/blog_id=1`
    expect(links.slice(0, 5)).toEqual([
      ['service.post', blog, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['service.feed', blog, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['service.upload', `${blog}/svc=upload`, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['service.categories', `${blog}/svc=categories`, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['alternate', `${service.origin}/blogs/valse-de-melody/`, 'text/html', 'Valse de Melody'],
    ])
    expect(links.slice(5).map(([rel, , , title]) => `${rel} ${title}`)).toEqual([
      "service.post L'hôtel particulier",
      "service.feed L'hôtel particulier",
      "service.upload L'hôtel particulier",
      "service.categories L'hôtel particulier",
      "alternate L'hôtel particulier",
    ])
  })

  it('fails, and says why, with a wrong password', async () => {
    const run = promisify(execFile)('perl', [script, `${service.origin}/t/atom/weblog`], {
      env: { ...process.env, ATOM_USERNAME: 'melody', ATOM_PASSWORD: 'wrong' },
    })
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('401') })
  })
})
