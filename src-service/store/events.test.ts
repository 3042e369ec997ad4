import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Store } from '.'
import { openTestStore } from '../testing/postgres'

describe('events', () => {
  let dataDir: string
  let store: Store
  let actorId: number
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-events-'))
    store = await openTestStore(dataDir)
    actorId = (await store.users.add({ username: 'ana', displayName: 'Ana', loginPassword: 'login-pw-ana', apiPassword: 'api-pw-ana' })).id
  })
  afterEach(async () => {
    await store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('records events with opaque url ids and W3CDTF times, newest first', async () => {
    const older = await store.events.record({ actorId, verb: 'NewAsset', objectType: 'Post', objectId: 42, published: '2026-01-01T10:00:00Z' })
    const newer = await store.events.record({ actorId, verb: 'AddedFavorite', objectType: 'Post', objectId: 7 })
    expect(newer.urlId).toMatch(/^6e[0-9a-f]{30}$/)
    expect(newer.urlId).not.toBe(older.urlId)
    expect(newer.published).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(await store.events.streamPage(actorId, null, 10)).toEqual([newer, older])
  })

  it('forgets the events of a post when the post is deleted', async () => {
    const weblog = await store.weblogs.add({ ownerId: actorId, title: 'Notes', slug: 'notes' })
    const post = await store.posts.create(weblog.id, actorId, { title: 'Gone soon', content: '<p>x</p>', contentKind: 'xhtml', summary: null, issued: '2026-01-01T10:00:00Z', categories: [] }, '2026-01-01T10:00:00Z')
    await store.events.record({ actorId, verb: 'NewAsset', objectType: 'Post', objectId: post.id })
    const kept = await store.events.record({ actorId, verb: 'NewAsset', objectType: 'Photo', objectId: post.id })
    await store.posts.delete(post.id)
    expect(await store.events.streamPage(actorId, null, 10)).toEqual([kept])
  })

  it('tells listeners once the recording transaction has committed, so what they read holds the event, and never of a rolled back one', async () => {
    const heard: number[] = []
    let reads = Promise.resolve()
    store.events.onRecorded(() => (reads = store.events.totalBy(actorId).then((total) => void heard.push(total))))
    await store.transaction(async () => {
      await store.events.record({ actorId, verb: 'NewAsset', objectType: 'Photo', objectId: 1 })
      // Time enough for a listener told at once to read before the commit.
      await new Promise((resolve) => setTimeout(resolve, 30))
    })
    await expect(
      store.transaction(async () => {
        await store.events.record({ actorId, verb: 'NewAsset', objectType: 'Photo', objectId: 2 })
        throw new Error('the photo could not be stored')
      }),
    ).rejects.toThrow('could not be stored')
    await new Promise((resolve) => setTimeout(resolve, 30))
    await reads
    expect(heard).toEqual([1])
  })

  it('keeps no event when the transaction that creates its object fails', async () => {
    await expect(
      store.transaction(async () => {
        await store.events.record({ actorId, verb: 'NewAsset', objectType: 'Photo', objectId: 1 })
        throw new Error('the photo could not be stored')
      }),
    ).rejects.toThrow('could not be stored')
    expect(await store.events.streamPage(actorId, null, 10)).toEqual([])
  })

  it('refuses a verb or object type the spec does not know', async () => {
    await expect(store.events.record({ actorId, verb: 'Deleted' as never, objectType: 'Post', objectId: 1 })).rejects.toThrow(/CHECK|violates check constraint/)
    expect(await store.events.streamPage(actorId, null, 10)).toEqual([])
  })
})
