// --simulate: the demo friends act while the service runs, each act an event a polling feed sees arrive; they stop
// with the service, and never act after it has closed.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseArguments, startService } from '../server'
import { DEMO_FRIENDS } from './social'
import { openTestStore, testDatabaseOption } from '../testing/postgres'

const repoRoot = join(import.meta.dirname, '..', '..')

interface Stream {
  totalResults: number
  entries: { verb: string; published: string; actor: { preferredUsername: string }; object: { objectType: string } }[]
}

async function friendsActivity(origin: string): Promise<Stream[]> {
  return Promise.all(
    DEMO_FRIENDS.map(async ({ username }) => (await (await fetch(`${origin}/users/${username}/events.json?max-results=5`)).json()) as Stream),
  )
}

const totalOf = (streams: Stream[]) => streams.reduce((sum, stream) => sum + stream.totalResults, 0)

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('the simulated friends', () => {
  let dataDir: string
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-simulate-'))
  })
  afterEach(() => {
    vi.restoreAllMocks()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('act every interval while the service runs, each act a new event, and stop when it closes', async () => {
    const failures = vi.spyOn(console, 'error')
    const running = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, simulate: 0.05, lookup: { offline: true } })
    try {
      const before = totalOf(await friendsActivity(running.origin))
      const started = Date.now()
      const later = await until(() => friendsActivity(running.origin), (streams) => totalOf(streams) >= before + 5)
      expect(totalOf(later)).toBeGreaterThanOrEqual(before + 5)
      const fresh = later.flatMap((stream) => stream.entries).filter((event) => Date.parse(event.published) >= started - 1000)
      expect(fresh.length).toBeGreaterThan(0)
      for (const event of fresh) {
        expect(['NewAsset', 'AddedFavorite', 'AddedNeighbor']).toContain(event.verb)
        expect(DEMO_FRIENDS.map((friend) => friend.username)).toContain(event.actor.preferredUsername)
      }
    } finally {
      await running.close()
    }
    const countEvents = async () => {
      const store = await openTestStore(dataDir)
      try {
        let sum = 0
        for (const { username } of DEMO_FRIENDS) sum += await store.events.totalBy((await store.users.find(username))!.id)
        return sum
      } finally {
        await store.close()
      }
    }
    const afterClose = await countEvents()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await countEvents()).toBe(afterClose)
    expect(failures).not.toHaveBeenCalled()
  })

  it('runs from the command line and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src-service/server.ts', '--port', '0', '--data-dir', dataDir, '--demo', '--offline', '--simulate', '0.1'],
      { cwd: repoRoot },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
    try {
      const origin = await until(
        async () => /^listening on (\S+)$/m.exec(stdout)?.[1],
        (found) => found !== undefined,
        30_000,
      )
      expect(origin, stderr).toBeDefined()
      const before = totalOf(await friendsActivity(origin!))
      const later = await until(() => friendsActivity(origin!), (streams) => totalOf(streams) > before)
      expect(totalOf(later)).toBeGreaterThan(before)
    } finally {
      child.kill('SIGTERM')
    }
    const [code] = await exited
    expect(code, stderr).toBe(0)
    expect(stderr).not.toMatch(/simulation could not act/)
  })

  it('needs the demo data, and a positive interval', async () => {
    await expect(startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), simulate: 1 })).rejects.toThrow(/--simulate .* needs the demo data: add --demo/)
    expect(parseArguments(['--port', '0', '--data-dir', dataDir, '--demo', '--simulate', '2.5'])).toMatchObject({ simulate: 2.5 })
    expect(() => parseArguments(['--port', '0', '--data-dir', dataDir, '--simulate', '0'])).toThrow(/--simulate must be a number of seconds above 0, not "0"/)
    expect(() => parseArguments(['--port', '0', '--data-dir', dataDir, '--simulate', 'often'])).toThrow(/not "often"/)
    expect(parseArguments(['--port', '0', '--data-dir', dataDir, '--rate-limit=120'])).toMatchObject({ rateLimit: 120 })
    expect(() => parseArguments(['--port', '0', '--data-dir', dataDir, '--rate-limit', '1.5'])).toThrow(
      /--rate-limit must be a whole number of requests a minute above 0/,
    )
  })
})
