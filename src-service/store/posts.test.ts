import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type PostFields, type Store, type Weblog } from '.'

describe('posts, categories and idempotency records', () => {
  let dataDir: string
  let store: Store
  let authorId: number
  let weblog: Weblog
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-posts-'))
    store = openStore(dataDir)
    authorId = store.users.add({ username: 'ana', displayName: 'Ana', loginPassword: 'login-pw', apiPassword: 'api-pw' }).id
    weblog = store.weblogs.add({ ownerId: authorId, title: 'Notebook', slug: 'notebook' })
  })
  afterEach(() => {
    store.close()
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

  it('matches category names whatever their case, once each, and reports the unknown ones as asked', () => {
    const music = store.categories.add(weblog.id, 'Music')
    const travel = store.categories.add(weblog.id, ' Travel ')
    expect(travel.name).toBe('Travel')
    expect(store.categories.match(weblog.id, ['music', 'TRAVEL', 'Music', ' ', 'Cats', 'cats', 'Cats'])).toEqual({
      found: [music, travel],
      unknown: ['Cats', 'cats'],
    })
    expect(() => store.categories.add(weblog.id, 'MUSIC')).toThrow(/UNIQUE/)
    expect(store.categories.of(weblog.id).map((category) => category.name)).toEqual(['Music', 'Travel'])
  })

  it('keeps each weblog’s categories to itself', () => {
    const other = store.weblogs.add({ ownerId: authorId, title: 'Other', slug: 'other' })
    store.categories.add(other.id, 'Music')
    expect(store.categories.match(weblog.id, ['Music']).unknown).toEqual(['Music'])
  })

  it('stores, files, updates and deletes a post', () => {
    const music = store.categories.add(weblog.id, 'Music')
    const notes = store.categories.add(weblog.id, 'notes')
    const post = store.posts.create(weblog.id, authorId, fields({ categories: [notes, music] }), '2026-03-02T08:00:00Z')
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

    const updated = store.posts.update(post.id, fields({ title: 'Renamed', contentKind: 'text', categories: [notes] }), '2026-03-03T08:00:00Z')
    expect(updated).toMatchObject({ title: 'Renamed', contentKind: 'text', categories: ['notes'], created: post.created, modified: '2026-03-03T08:00:00Z' })

    store.posts.delete(post.id)
    expect(store.posts.find(post.id)).toBeNull()
    expect(store.posts.countIn(weblog.id)).toBe(0)
  })

  it('pages a weblog newest first by issued date, then by the order posts were stored', () => {
    const ids = ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z', '2025-12-31T23:59:59Z'].map(
      (issued) => store.posts.create(weblog.id, authorId, fields({ issued }), issued).id,
    )
    expect(store.posts.page(weblog.id, 0, 10).map((post) => post.id)).toEqual([ids[1], ids[2], ids[0], ids[3]])
    expect(store.posts.page(weblog.id, 1, 2).map((post) => post.id)).toEqual([ids[2], ids[0]])
    expect(store.posts.page(weblog.id, 4, 2)).toEqual([])
    expect(store.posts.countIn(weblog.id)).toBe(4)
  })

  it('remembers a response under a key for 24 hours, then forgets it', () => {
    const response = { status: 201, headers: { Location: 'http://x/1' }, body: '<entry/>' }
    const record = { request: 'POST /t/atom/weblog/blog_id=1', fingerprint: 'abc', response }
    const then = new Date('2026-03-01T10:00:00Z')
    store.idempotency.save(authorId, 'key-1', record, then)

    expect(store.idempotency.find(authorId, 'key-1', new Date('2026-03-02T09:59:59Z'))).toEqual({ ...record, created: then.toISOString() })
    expect(store.idempotency.find(authorId + 1, 'key-1', then)).toBeNull()
    expect(store.idempotency.find(authorId, 'key-1', new Date('2026-03-02T10:00:00Z'))).toBeNull()
    // Pruned, not only hidden: the key can be used again.
    store.idempotency.save(authorId, 'key-1', record, new Date('2026-03-02T10:00:01Z'))
  })

  it('keeps no post, filing or event when the creating transaction fails at its last step', () => {
    const music = store.categories.add(weblog.id, 'Music')
    const record = { request: 'POST /x', fingerprint: 'f', response: { status: 201, headers: {}, body: '' } }
    store.idempotency.save(authorId, 'taken', record)

    expect(() =>
      store.transaction(() => {
        const post = store.posts.create(weblog.id, authorId, fields({ categories: [music] }), '2026-03-02T08:00:00Z')
        store.events.record({ actorId: authorId, verb: 'NewAsset', objectType: 'Post', objectId: post.id })
        store.idempotency.save(authorId, 'taken', record)
      }),
    ).toThrow(/UNIQUE|PRIMARY KEY/)
    expect(store.posts.countIn(weblog.id)).toBe(0)
    expect(store.events.streamPage(authorId, null, 10)).toEqual([])
  })
})
