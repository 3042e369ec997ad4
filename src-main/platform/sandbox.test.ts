// The sandbox launcher with Electron's utilityProcess played by a Node child process that, like a utility process,
// does not end by itself (testing/fake-electron.ts), running the real service from its sources: what it reads is the
// real sandbox.json of a real service on loopback.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { readSandboxFile, signedGet } from '../../src-service/testing/service-fixture'
import { SANDBOX_STOP_MESSAGE } from '../../src-protocol'
import { fake as electron } from './testing/fake-electron'
import { SandboxLauncher } from '.'

vi.mock('electron', () => import('./testing/fake-electron'))

const repoRoot = join(import.meta.dirname, '..', '..')
const serviceEntry = join(repoRoot, 'src-service', 'server.ts')
const resourcesDir = join(repoRoot, 'resources')

let dataDir: string
let launchers: SandboxLauncher[]

beforeEach(() => {
  dataDir = join(mkdtempSync(join(tmpdir(), 'blogdesk-userdata-')), 'sandbox')
  electron.reset()
  launchers = []
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
})

afterEach(async () => {
  for (const launcher of launchers) await launcher.stop()
  rmSync(join(dataDir, '..'), { recursive: true, force: true })
  vi.restoreAllMocks()
})

function launcher(options: { resources?: string } = {}): SandboxLauncher {
  const created = new SandboxLauncher({ serviceEntry, dataDir, resourcesDir: options.resources ?? resourcesDir })
  launchers.push(created)
  return created
}

async function weblogStatus(details: { atomBase: string; username: string; apiPassword: string }): Promise<number> {
  const response = await signedGet(`${details.atomBase}/t/atom/weblog`, { username: details.username, password: details.apiPassword })
  return response.status
}

function occupy(port: number): Promise<Server> {
  const server = createServer()
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

describe('the built-in sandbox', () => {
  it('runs the service with its demo data on loopback, in its own folder, and hands core its sandbox.json', async () => {
    const sandbox = launcher()
    expect(sandbox.previous()).toBeNull()
    const details = await sandbox.start()

    const { loginPassword: _kept, ...written } = readSandboxFile(dataDir)
    expect(details).toEqual(written)
    expect(details.atomBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await weblogStatus(details)).toBe(200)
    expect(electron.forks).toEqual([
      {
        modulePath: serviceEntry,
        args: ['--port', '0', '--data-dir', dataDir, '--demo', '--resources', resourcesDir],
        options: expect.objectContaining({ stdio: 'pipe' }),
        pid: expect.any(Number),
        exited: expect.any(Promise),
        messages: [],
      },
    ])
    expect(sandbox.previous()).toEqual(details)
  })

  it('is started once, however often it is asked for', async () => {
    const sandbox = launcher()
    const [first, second] = await Promise.all([sandbox.start(), sandbox.start()])
    expect(second).toEqual(first)
    expect(await sandbox.start()).toEqual(first)
    expect(electron.forks).toHaveLength(1)
  })

  it('stops when asked, and starts again on the same port, so stored addresses keep working', async () => {
    const sandbox = launcher()
    const first = await sandbox.start()
    await sandbox.stop()
    await expect(fetch(`${first.atomBase}/t/atom/weblog`)).rejects.toThrow()

    const again = await launcher().start()
    expect(again).toEqual(first)
    expect(electron.forks[1]?.args.slice(0, 2)).toEqual(['--port', new URL(first.atomBase).port])
    expect(await weblogStatus(again)).toBe(200)
  })

  it('takes any free port when its old one is taken', async () => {
    const first = await launcher().start()
    await launchers[0]!.stop()
    const squatter = await occupy(Number(new URL(first.atomBase).port))
    try {
      const again = await launcher().start()
      expect(again.atomBase).not.toBe(first.atomBase)
      expect({ ...again, atomBase: '', jsonBase: '' }).toEqual({ ...first, atomBase: '', jsonBase: '' })
      expect(await weblogStatus(again)).toBe(200)
    } finally {
      squatter.close()
    }
  }, 60_000)

  it('starts afresh when asked after it stopped on its own', async () => {
    const sandbox = launcher()
    await sandbox.start()
    process.kill(electron.forks[0]!.pid, 'SIGKILL')
    await electron.forks[0]!.exited
    const details = await sandbox.start()
    expect(electron.forks).toHaveLength(2)
    expect(await weblogStatus(details)).toBe(200)
  })

  it('asks the service to stop over its message port, and it ends its process, having closed its store', async () => {
    const sandbox = launcher()
    await sandbox.start()
    await sandbox.stop()
    const [fork] = electron.forks
    expect(fork?.messages).toEqual([SANDBOX_STOP_MESSAGE])
    expect(await Promise.race([fork!.exited, 'still running'])).toBe(0)
  })

  it('says why it could not start, in the words of the service', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'blogdesk-no-resources-'))
    try {
      await expect(launcher({ resources: empty }).start()).rejects.toThrow(
        /^The built-in sandbox did not start: .*The ISBN catalogue .* could not be read.*Try again; if it keeps failing, please report it\.$/s,
      )
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})
