import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type PostFields, type Store, type Weblog } from '.'
import { openTestStore } from '../testing/postgres'

describe('posts, categories and idempotency records', () => {
  let dataDir: string
  let store: Store
  let authorId: number
  let weblog: Weblog
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-posts-'))
    store = await openTestStore(dataDir)
    authorId = (await store.users.add({ username: 'ana', displayName: 'Ana', loginPassword: 'login-pw', apiPassword: 'api-pw' })).id
    weblog = await store.weblogs.add({ ownerId: authorId, title: 'Notebook', slug: 'notebook' })
  })
  afterEach(async () => {
    await store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const fields = (overrides: Partial<PostFields> = {}): PostFields => ({
    title: 'A post',
    content: '<p>Hello</p>',
    contentKind: 'xhtml',
    summary: null,
    issued: '2026-03-01T10:00:00Z',
    categories: [],
    ...overrides,
  })

  it('matches category names whatever their case, once each, and reports the unknown ones as asked', async () => {
    const music = await store.categories.add(weblog.id, 'Music')
    const travel = await store.categories.add(weblog.id, ' Travel ')
    expect(travel.name).toBe('Travel')
    expect(await store.categories.match(weblog.id, ['music', 'TRAVEL', 'Music', ' ', 'Cats', 'cats', 'Cats'])).toEqual({
      found: [music, travel],
      unknown: ['Cats', 'cats'],
    })
    await expect(store.categories.add(weblog.id, 'MUSIC')).rejects.toThrow(/UNIQUE|duplicate key/)
    expect((await store.categories.of(weblog.id)).map((category) => category.name)).toEqual(['Music', 'Travel'])
  })

  it('keeps each weblog’s categories to itself', async () => {
    const other = await store.weblogs.add({ ownerId: authorId, title: 'Other', slug: 'other' })
    await store.categories.add(other.id, 'Music')
    expect((await store.categories.match(weblog.id, ['Music'])).unknown).toEqual(['Music'])
  })

  it('stores, files, updates and deletes a post', async () => {
    const music = await store.categories.add(weblog.id, 'Music')
    const notes = await store.categories.add(weblog.id, 'notes')
    const post = await store.posts.create(weblog.id, authorId, fields({ categories: [notes, music] }), '2026-03-02T08:00:00Z')
    expect(post).toEqual({
      id: post.id,
      weblogId: weblog.id,
      authorId,
      title: 'A post',
      content: '<p>Hello</p>',
      contentKind: 'xhtml',
      summary: null,
      issued: '2026-03-01T10:00:00Z',
      scheduled: false,
      modified: '2026-03-02T08:00:00Z',
      created: '2026-03-02T08:00:00Z',
      categories: ['Music', 'notes'],
    })

    const updated = await store.posts.update(post.id, fields({ title: 'Renamed', contentKind: 'text', categories: [notes] }), '2026-03-03T08:00:00Z')
    expect(updated).toMatchObject({ title: 'Renamed', contentKind: 'text', categories: ['notes'], created: post.created, modified: '2026-03-03T08:00:00Z' })

    await store.posts.delete(post.id)
    expect(await store.posts.find(post.id)).toBeNull()
    expect(await store.posts.countIn(weblog.id)).toBe(0)
  })

  it('tells a read in one look how many writes it sees and whether a scheduled post’s date has come', async () => {
    const before = await store.readState('2026-03-01T12:00:00Z')
    expect(before).toEqual({ writes: await store.writes(), scheduledDue: false })
    await store.posts.create(weblog.id, authorId, fields({ issued: '2026-03-05T09:00:00Z' }), '2026-03-01T12:00:00Z')
    const after = await store.readState('2026-03-05T08:59:59Z')
    expect(after.writes).toBeGreaterThan(before.writes)
    expect(after.scheduledDue).toBe(false)
    expect((await store.readState('2026-03-05T09:00:00Z')).scheduledDue).toBe(true)
    expect(await store.posts.hasScheduledDue('2026-03-05T09:00:00Z')).toBe(true)
  })

  it('pages a weblog newest first by issued date, then by the order posts were stored', async () => {
    const ids: number[] = []
    for (const issued of ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z', '2025-12-31T23:59:59Z']) {
      ids.push((await store.posts.create(weblog.id, authorId, fields({ issued }), issued)).id)
    }
    expect((await store.posts.page(weblog.id, 0, 10)).map((post) => post.id)).toEqual([ids[1], ids[2], ids[0], ids[3]])
    expect((await store.posts.page(weblog.id, 1, 2)).map((post) => post.id)).toEqual([ids[2], ids[0]])
    expect(await store.posts.page(weblog.id, 4, 2)).toEqual([])
    expect(await store.posts.countIn(weblog.id)).toBe(4)
  })

  it('remembers a response under a key for 24 hours, then forgets it', async () => {
    const response = { status: 201, headers: { Location: 'http://x/1' }, body: '<entry/>' }
    const record = { request: 'POST /t/atom/weblog/blog_id=1', fingerprint: 'abc', response }
    const then = new Date('2026-03-01T10:00:00Z')
    await store.idempotency.save(authorId, 'key-1', record, then)

    expect(await store.idempotency.find(authorId, 'key-1', new Date('2026-03-02T09:59:59Z'))).toEqual({ ...record, created: then.toISOString() })
    expect(await store.idempotency.find(authorId + 1, 'key-1', then)).toBeNull()
    expect(await store.idempotency.find(authorId, 'key-1', new Date('2026-03-02T10:00:00Z'))).toBeNull()
    // Pruned, not only hidden: the key can be used again.
    await store.idempotency.save(authorId, 'key-1', record, new Date('2026-03-02T10:00:01Z'))
  })

  it('lets one of two transactions that look up the same key at once record it, and the other find that record', async () => {
    const record = { request: 'POST /x', fingerprint: 'f', response: { status: 201, headers: {}, body: '' } }
    const attempt = () =>
      store.transaction(async () => {
        if (await store.idempotency.find(authorId, 'raced')) return 'replayed'
        // Long enough for the other transaction to look up the key too, were it not made to wait.
        await new Promise((resolve) => setTimeout(resolve, 50))
        await store.idempotency.save(authorId, 'raced', record)
        return 'recorded'
      })
    expect((await Promise.all([attempt(), attempt()])).sort()).toEqual(['recorded', 'replayed'])
  })

  it('keeps no post, filing or event when the creating transaction fails at its last step', async () => {
    const music = await store.categories.add(weblog.id, 'Music')
    const record = { request: 'POST /x', fingerprint: 'f', response: { status: 201, headers: {}, body: '' } }
    await store.idempotency.save(authorId, 'taken', record)

    await expect(
      store.transaction(async () => {
        const post = await store.posts.create(weblog.id, authorId, fields({ categories: [music] }), '2026-03-02T08:00:00Z')
        await store.events.record({ actorId: authorId, verb: 'NewAsset', objectType: 'Post', objectId: post.id })
        await store.idempotency.save(authorId, 'taken', record)
      }),
    ).rejects.toThrow(/UNIQUE|PRIMARY KEY|duplicate key/)
    expect(await store.posts.countIn(weblog.id)).toBe(0)
    expect(await store.events.streamPage(authorId, null, 10)).toEqual([])
  })
})
