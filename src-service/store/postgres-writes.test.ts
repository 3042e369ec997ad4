// Two instances on one PostgreSQL database: what one writes makes the other's cached renderings stale at once.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openStore, type Store } from '.'
import { RenderCache } from '../routes/render-cache'
import { createTestDatabase, type TestDatabase } from '../testing/postgres'

describe('writes counted in PostgreSQL', () => {
  let database: TestDatabase
  let dataDirs: string[]
  let stores: Store[]
  beforeEach(async () => {
    database = await createTestDatabase({ migrated: true })
    dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'blogdesk-writes-')))
    stores = await Promise.all(dataDirs.map((dir) => openStore(dir, { database: database.url })))
  })
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()))
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
    await database.drop()
  })

  it("makes one instance's cached rendering stale when another writes, and only then", async () => {
    const [one, other] = stores as [Store, Store]
    const cache = new RenderCache(one)
    const render = vi.fn(async () => (await one.users.find('ana'))?.displayName ?? 'nobody')
    expect(await cache.document('page', render)).toBe('nobody')
    expect(await cache.document('page', render)).toBe('nobody')
    expect(render).toHaveBeenCalledTimes(1)

    await other.users.add({ username: 'ana', displayName: 'Ana', loginPassword: 'login-pw-ana', apiPassword: 'api-pw-ana' })
    expect(await cache.document('page', render)).toBe('Ana')
    await other.transaction(async () => {
      const ana = (await other.users.find('ana'))!
      await other.weblogs.add({ ownerId: ana.id, title: 'Ana writes', slug: 'ana-writes' })
    })
    expect(await cache.document('page', render)).toBe('Ana')
    expect(render).toHaveBeenCalledTimes(3)
  })

  it('counts a transaction once, when it commits: a reader never sees the new count before the data', async () => {
    const [one, other] = stores as [Store, Store]
    const before = await one.writes()
    let during = -1
    await other.transaction(async () => {
      await other.users.add({ username: 'ben', displayName: 'Ben', loginPassword: 'login-pw-ben', apiPassword: 'api-pw-ben' })
      await other.users.add({ username: 'cy', displayName: 'Cy', loginPassword: 'login-pw-cy', apiPassword: 'api-pw-cy' })
      during = await one.writes()
    })
    expect(during).toBe(before)
    expect(await one.writes()).toBe(before + 1)
    // Reading alone counts nothing.
    await one.users.find('ben')
    expect(await other.writes()).toBe(before + 1)
  })

  it("lets one actor's events be recorded by two transactions at once: neither waits for the other to commit", async () => {
    const [one, other] = stores as [Store, Store]
    const ana = await one.users.add({ username: 'ana', displayName: 'Ana', loginPassword: 'login-pw-ana', apiPassword: 'api-pw-ana' })
    const event = { actorId: ana.id, verb: 'NewAsset', objectType: 'Photo' } as const
    let finishFirst!: () => void
    const firstMayFinish = new Promise<void>((resolve) => (finishFirst = resolve))
    let firstRecorded!: () => void
    const recordedByFirst = new Promise<void>((resolve) => (firstRecorded = resolve))
    const first = one.transaction(async () => {
      await one.events.record({ ...event, objectId: 1 })
      firstRecorded()
      await firstMayFinish
    })
    await recordedByFirst
    const waited = Symbol('waited')
    const second = other.transaction(() => other.events.record({ ...event, objectId: 2 }))
    const outcome = await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 5000, waited))])
    finishFirst()
    await first
    expect(outcome, 'the second transaction waited for the first to commit').not.toBe(waited)
    await second
    expect(await one.events.totalBy(ana.id)).toBe(2)
  })
})
