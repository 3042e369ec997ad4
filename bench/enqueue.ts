// Enqueue: how long a person waits for "queued" — one insert into the outbox (migration 3), target p99 ≤ 1 ms.
// Measured through LocalStore with the journal settings it runs with, and against the same table and statement in
// the other journal settings, opened directly, to show what the choice is worth (src-shared/sqlite/database.ts
// documents it). The settings take turns, a round of inserts each, so a busy moment of the machine falls on all alike.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sqlite from 'node-sqlite3-wasm'
import { LocalStore } from '../src-main/core/index'
import type { BenchRow } from './table'
import { percentile } from './stats'

const INSERTS = 3_000
const ROUND = 100
const WARM_UP_INSERTS = 3_000
const ACCOUNT_ID = 'bench-account'
const QUEUE = 'http://127.0.0.1:4567/t/atom/weblog/blog_id=1'

const INSERT_OPERATION = `INSERT INTO outbox (account_id, queue_key, kind, draft_id, payload, idempotency_key, state, enqueued_at, updated_at)
  VALUES (:accountId, :queueKey, 'post.create', NULL, :payload, :key, 'queued', :now, :now)`

/** A post as the outbox keeps it: title, two categories and a couple of KB of HTML. */
const PAYLOAD = JSON.stringify({
  title: 'Tram 28, up to Graça',
  content: `<p>${'The yellow tram climbs the hill, bell ringing, past the washing lines of Alfama. '.repeat(28)}</p>`,
  categories: ['Lisbon', 'Trams'],
  issued: null,
})

interface Contender {
  name: string
  /** One insert, timed from the call to when the caller may say "queued". */
  insert(index: number): unknown
  close(): void
  times: number[]
}

interface JournalSetting {
  label: string
  pragmas: string[]
  journalMode: 'delete' | 'wal'
}

const ALTERNATIVES: JournalSetting[] = [
  { label: 'journal_mode=DELETE, synchronous=FULL (SQLite default)', pragmas: ['PRAGMA synchronous = FULL'], journalMode: 'delete' },
  { label: 'journal_mode=DELETE, synchronous=NORMAL', pragmas: ['PRAGMA synchronous = NORMAL'], journalMode: 'delete' },
  {
    label: 'journal_mode=WAL, locking_mode=EXCLUSIVE, synchronous=FULL',
    pragmas: ['PRAGMA locking_mode = EXCLUSIVE', 'PRAGMA journal_mode = WAL', 'PRAGMA synchronous = FULL'],
    journalMode: 'wal',
  },
]

export async function runEnqueueBench(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-enqueue-'))
  const contenders: Contender[] = []
  try {
    // The first thousands of statements of a process run while V8 is still compiling SQLite's WebAssembly: the
    // figures are for a running app, so a throwaway run comes first.
    const warmUp = openWithAccount(join(dir, 'warm-up.sqlite'))
    for (let index = 0; index < WARM_UP_INSERTS; index++) warmUp.run(INSERT_OPERATION, operation(index))
    warmUp.close()

    const chosen = openWithAccount(join(dir, 'chosen.sqlite'))
    const durable = openWithAccount(join(dir, 'durable.sqlite'))
    contenders.push(
      { name: 'chosen', insert: (index) => chosen.run(INSERT_OPERATION, operation(index)), close: () => chosen.close(), times: [] },
      {
        name: 'durable',
        insert: async (index) => {
          durable.run(INSERT_OPERATION, operation(index))
          await durable.syncToDisk()
        },
        close: () => durable.close(),
        times: [],
      },
      ...ALTERNATIVES.map((setting, index) => openDirect(join(dir, `alternative-${index}.sqlite`), setting)),
    )
    for (let start = 0; start < INSERTS; start += ROUND) {
      for (const contender of contenders) {
        for (let index = start; index < start + ROUND; index++) {
          const began = performance.now()
          await contender.insert(index)
          contender.times.push(performance.now() - began)
        }
      }
    }

    const [ours, flushed, ...others] = contenders.map(({ times }) => ({ p50: percentile(times, 0.5), p99: percentile(times, 0.99) }))
    const rows: BenchRow[] = [
      { name: 'enqueue: outbox insert p50 (WAL, exclusive, synchronous=NORMAL)', value: ours!.p50, unit: 'ms' },
      { name: 'enqueue: outbox insert p99 (WAL, exclusive, synchronous=NORMAL)', value: ours!.p99, unit: 'ms', target: '≤ 1 ms' },
      { name: 'enqueue + syncToDisk (survives a power cut) p50', value: flushed!.p50, unit: 'ms', ratio: flushed!.p50 / ours!.p50 },
      { name: 'enqueue + syncToDisk (survives a power cut) p99', value: flushed!.p99, unit: 'ms', ratio: flushed!.p99 / ours!.p99 },
    ]
    ALTERNATIVES.forEach((setting, index) => {
      const other = others[index]!
      rows.push(
        { name: `outbox insert p50, ${setting.label}`, value: other.p50, unit: 'ms', ratio: other.p50 / ours!.p50 },
        { name: `outbox insert p99, ${setting.label}`, value: other.p99, unit: 'ms', ratio: other.p99 / ours!.p99 },
      )
    })
    return rows
  } finally {
    for (const contender of contenders) contender.close()
    await rm(dir, { recursive: true, force: true })
  }
}

/** The same schema and statement on a connection opened directly with other journal settings. */
function openDirect(file: string, setting: JournalSetting): Contender {
  openWithAccount(file).close()
  // The file says WAL now, which this file layer can only open exclusively: turn it back to a rollback journal first.
  const converting = new sqlite.Database(file)
  converting.exec('PRAGMA locking_mode = EXCLUSIVE')
  converting.exec('PRAGMA journal_mode = DELETE')
  converting.close()

  const db = new sqlite.Database(file)
  for (const pragma of setting.pragmas) db.exec(pragma)
  const mode = (db.get('PRAGMA journal_mode') as { journal_mode: string }).journal_mode
  if (mode !== setting.journalMode) {
    db.close()
    throw new Error(`Asked for ${setting.label}, SQLite gave journal_mode=${mode}.`)
  }
  const statement = db.prepare(INSERT_OPERATION)
  return {
    name: setting.label,
    insert: (index) => statement.run(Object.fromEntries(Object.entries(operation(index)).map(([name, value]) => [`:${name}`, value]))),
    close: () => {
      statement.finalize()
      db.close()
    },
    times: [],
  }
}

function openWithAccount(file: string): LocalStore {
  const store = LocalStore.open(file)
  store.run(
    `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
     VALUES (:id, 'http://127.0.0.1:4567', 'http://127.0.0.1:4567/t/atom/weblog', 'melody', '2026-01-01T00:00:00.000Z')`,
    { id: ACCOUNT_ID },
  )
  return store
}

function operation(index: number): Record<string, string> {
  return { accountId: ACCOUNT_ID, queueKey: QUEUE, payload: PAYLOAD, key: `bench-${index}`, now: new Date().toISOString() }
}
