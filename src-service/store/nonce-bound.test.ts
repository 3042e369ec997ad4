// The bound on the nonces one holder keeps, checked without counting them at every request (nonce-bound.ts): two
// instances on one PostgreSQL database (two stores, each with its own memory) answer one holder's nonces in turn;
// together they record exactly the capacity, then refuse as full, and a nonce seen before stays a replay either way.
// On SQLite, one store records OAuth nonces the same way.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '.'
import type { NonceLedger } from '../../src-protocol'
import { createTestDatabase, type TestDatabase } from '../testing/postgres'

const CAPACITY = 40
const WINDOW_MS = 300_000

describe('nonces kept per holder', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function storesOn(database: string | undefined, count: number): Promise<Store[]> {
    const stores: Store[] = []
    for (let i = 0; i < count; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'blogdesk-nonces-'))
      const store = await openStore(dir, database === undefined ? {} : { database })
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close())
      stores.push(store)
    }
    return stores
  }

  async function postgresStores(): Promise<Store[]> {
    const database: TestDatabase = await createTestDatabase({ migrated: true })
    cleanups.push(() => database.drop())
    return storesOn(database.url, 2)
  }

  /** Sends `total` fresh nonces through the instances in turn, then the first one again; what each was answered. */
  async function inTurn(instances: ((nonce: string) => { kind: string } | Promise<{ kind: string }>)[], total: number) {
    const kinds: string[] = []
    for (let n = 0; n < total; n++) kinds.push((await instances[n % instances.length]!(`nonce-${n}`)).kind)
    const replay = await Promise.all(instances.map(async (record) => record('nonce-0')))
    return { recorded: kinds.filter((kind) => kind === 'recorded').length, after: kinds.slice(CAPACITY), replay: replay.map((r) => r.kind) }
  }

  it('WSSE: two instances together record exactly the capacity of one user, then refuse as full', async () => {
    const now = Date.now()
    const ledgers = (await postgresStores()).map((store) => store.wsseNonces(CAPACITY, 60_000))
    const answers = await inTurn(
      ledgers.map((ledger) => (nonce) => ledger.record('melody', nonce, now + WINDOW_MS, now)),
      3 * CAPACITY,
    )
    expect(answers.recorded).toBe(CAPACITY)
    expect(new Set(answers.after)).toEqual(new Set(['full']))
    expect(answers.replay).toEqual(['replayed', 'replayed'])
    // Another user has room of their own.
    expect((await ledgers[1]!.record('ana', 'nonce-0', now + WINDOW_MS, now)).kind).toBe('recorded')
  })

  it('WSSE: nonces presented at once (one statement records them) are each recorded once, by whichever instance', async () => {
    const now = Date.now()
    const [one, other] = (await postgresStores()).map((store) => store.wsseNonces(CAPACITY, 60_000)) as [NonceLedger, NonceLedger]
    const record = async (ledger: NonceLedger, user: string, nonce: string, expiresAt = now + WINDOW_MS, at = now) =>
      (await ledger.record(user, nonce, expiresAt, at)).kind
    const [first, again, elsewhere, fresh, otherUser, shortLived] = await Promise.all([
      record(one, 'melody', 'n1'),
      record(one, 'melody', 'n1'),
      record(other, 'melody', 'n1'),
      record(one, 'melody', 'n2'),
      record(one, 'ana', 'n1'),
      record(one, 'ana', 'n3', now + 5),
    ])
    expect([first, again, elsewhere].sort()).toEqual(['recorded', 'replayed', 'replayed'])
    expect([fresh, otherUser, shortLived]).toEqual(['recorded', 'recorded', 'recorded'])
    // Once its row has expired, a nonce may be presented again (its Created is then new enough to pass).
    expect(await record(one, 'ana', 'n3', now + 10 + WINDOW_MS, now + 10)).toBe('recorded')
    expect(await record(other, 'ana', 'n3', now + 10 + WINDOW_MS, now + 10)).toBe('replayed')
  })

  for (const engine of ['postgres', 'sqlite'] as const) {
    it(`OAuth on ${engine}: the instances together record exactly the capacity of one token, then refuse as full`, async () => {
      const now = Math.floor(Date.now() / 1000)
      const stores = engine === 'postgres' ? await postgresStores() : await storesOn(undefined, 1)
      const use = (store: Store, holder: string) => (nonce: string) =>
        store.oauth.useNonce('key', holder, nonce, { timestamp: now, now, windowSeconds: 300, capacity: CAPACITY })
      const answers = await inTurn(
        stores.map((store) => use(store, 'token A')),
        3 * CAPACITY,
      )
      expect(answers.recorded).toBe(CAPACITY)
      expect(new Set(answers.after)).toEqual(new Set(['full']))
      expect(new Set(answers.replay)).toEqual(new Set(['replayed']))
      expect((await use(stores.at(-1)!, 'token B')('nonce-fresh')).kind).toBe('recorded')
    })
  }
})
