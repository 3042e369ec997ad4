// The Perl scripts of this folder drive Debian's XML::Atom::Client, a real third-party client, against a demo
// sandbox started for the calling test file, the way its users would: through the root listing, signed with WSSE.
// Each script prints what it saw as lines of tab-separated fields.
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll } from 'vitest'
import type { WsseCredentials } from '../../src-protocol'
import { startService, type RunningService } from '../server'
import { dropTestDatabase, testDatabaseOption } from '../testing/postgres'
import { readSandboxFile } from '../testing/service-fixture'

export interface PerlPeer {
  /** The sandbox service's origin. */
  readonly origin: string
  /** Runs the script on the root listing, as the demo account unless `credentials` say otherwise: its lines' fields. */
  run(credentials?: WsseCredentials): Promise<string[][]>
}

/** Starts the sandbox before the file's tests and removes it after them; fails first when a Perl module is missing. */
export function perlPeer(scriptName: string, modules: readonly string[]): PerlPeer {
  const script = join(import.meta.dirname, scriptName)
  let dataDir: string
  let service: RunningService | undefined
  beforeAll(async () => {
    if (spawnSync('perl', [...modules.map((module) => `-M${module}`), '-e1']).status !== 0) {
      throw new Error('Perl XML::Atom::Client is missing: run `sudo apt-get install libxml-atom-perl`.')
    }
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-peer-'))
    service = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true })
  })
  afterAll(async () => {
    await service?.close()
    rmSync(dataDir, { recursive: true, force: true })
    await dropTestDatabase(dataDir)
  })
  return {
    get origin() {
      return service!.origin
    },
    async run(credentials) {
      const sandbox = readSandboxFile(dataDir)
      const { username, password } = credentials ?? { username: sandbox.username, password: sandbox.apiPassword }
      const { stdout } = await promisify(execFile)('perl', [script, `${sandbox.atomBase}/t/atom/weblog`], {
        env: { ...process.env, ATOM_USERNAME: username, ATOM_PASSWORD: password },
      })
      return stdout.trimEnd().split('\n').map((line) => line.split('\t'))
    },
  }
}
