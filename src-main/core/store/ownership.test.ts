import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import sqlite from 'node-sqlite3-wasm'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { seededRandom } from '../../../src-protocol/seeded-random'
import { LocalStore } from './database'
import { DataInUseError } from './ownership'

const repoRoot = join(import.meta.dirname, '..', '..', '..')
const BATCH_SIZE = 20

/** The crash writer as a child process, with the batches it said it committed. */
interface Writer {
  child: ChildProcess
  committed(): number
}

async function startWriter(file: string): Promise<Writer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/core/store/testing/crash-writer.ts', file, String(BATCH_SIZE)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let errors = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk))
  let committed = 0
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`the writer exited (${signal ?? code}) before it was ready:\n${errors}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'ready') resolve()
      const match = /^committed (\d+)$/.exec(line)
      if (match) committed = Number(match[1])
    })
  })
  child.removeAllListeners('exit')
  return { child, committed: () => committed }
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGKILL')
  await exited
}

/** A pid no process has: one that just exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await once(child, 'exit')
  return child.pid!
}

describe('one Blogdesk per data dir', () => {
  let dir: string
  let file: string
  const writers: ChildProcess[] = []
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-ownership-'))
    file = join(dir, 'blogdesk.sqlite')
  })
  afterEach(async () => {
    for (const child of writers.splice(0)) await kill(child)
    rmSync(dir, { recursive: true, force: true })
  })

  it('opens data whose owner died holding the SQLite lock, which would otherwise read "database is locked"', async () => {
    LocalStore.open(file).close()
    // What a killed app leaves: its pid file, and node-sqlite3-wasm's lock directory.
    writeFileSync(`${file}.pid`, `${await deadPid()}\n`)
    mkdirSync(`${file}.lock`)
    const bare = new sqlite.Database(file)
    expect(() => bare.all('SELECT * FROM sqlite_master')).toThrow('database is locked')
    bare.close()

    const store = LocalStore.open(file)
    expect(store.get('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' })
    store.close()
    expect(existsSync(`${file}.pid`)).toBe(false)
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('refuses, in words, data another running Blogdesk has open, and leaves that one undisturbed', async () => {
    const writer = await startWriter(file)
    writers.push(writer.child)

    let refusal: unknown
    try {
      LocalStore.open(file).close()
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(DataInUseError)
    expect((refusal as DataInUseError).message).toMatch(
      new RegExp(`^Blogdesk is already running \\(process ${writer.child.pid}\\) with the data in .+\\. Switch to that window, or quit it`),
    )
    expect(existsSync(`${file}.pid`)).toBe(true)
    const before = writer.committed()
    await vi.waitFor(() => expect(writer.committed()).toBeGreaterThan(before), { timeout: 10_000 })
  })

  it('takes over a pid file naming this very process, left by an app that had the same process number before a restart', () => {
    writeFileSync(`${file}.pid`, `${process.pid}\n`)
    mkdirSync(`${file}.lock`)
    LocalStore.open(file).close()
  })

  it('refuses a second open in the same app until the first is closed', () => {
    const store = LocalStore.open(file)
    expect(() => LocalStore.open(file)).toThrow(/This Blogdesk already has the data in .+ open; close it before opening it again\./)
    store.close()
    LocalStore.open(file).close()
  })

  it('keeps whole transactions only, and every acknowledged one, when the app is killed mid-write 20 times', async () => {
    const random = seededRandom(20_260_101)
    let kept = 0
    for (let round = 1; round <= 20; round++) {
      const writer = await startWriter(file)
      writers.push(writer.child)
      await new Promise((resolve) => setTimeout(resolve, 20 + random() * 150))
      await kill(writer.child)
      expect(existsSync(`${file}.lock`), 'the killed writer left its lock behind').toBe(true)

      const store = LocalStore.open(file)
      try {
        expect(store.get('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' })
        const batches = store.all(
          `SELECT weblog_post_uri, COUNT(DISTINCT d.id) AS drafts, COUNT(r.id) AS revisions
           FROM drafts d LEFT JOIN draft_revisions r ON r.draft_id = d.id GROUP BY weblog_post_uri`,
        )
        for (const batch of batches) expect(batch, `round ${round}`).toMatchObject({ drafts: BATCH_SIZE, revisions: BATCH_SIZE })
        // Batches are numbered on from those kept before; the one being written at the kill may or may not be kept.
        const acknowledged = Math.max(kept, writer.committed())
        expect(batches.length, `round ${round}: every batch reported committed is kept`).toBeGreaterThanOrEqual(acknowledged)
        expect(batches.length, `round ${round}: nothing beyond the batch being written`).toBeLessThanOrEqual(acknowledged + 1)
        kept = batches.length
      } finally {
        store.close()
      }
    }
  }, 180_000)
})
