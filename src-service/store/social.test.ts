// The social graph's store: url ids made for every object by the database itself, events that go with their
// object, kept totals, and the repositories' rules.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type EventRecord, type Post, type Store } from '.'
import { openTestStore } from '../testing/postgres'

describe('social graph store', () => {
  let dataDir: string
  let store: Store
  let ana: number
  let ben: number
  let post: Post
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-social-'))
    store = await openTestStore(dataDir)
    const add = async (username: string) =>
      (await store.users.add({ username, displayName: username.toUpperCase(), loginPassword: 'login-pw', apiPassword: 'api-pw' })).id
    ana = await add('ana')
    ben = await add('ben')
    const weblog = await store.weblogs.add({ ownerId: ana, title: 'Ana writes', slug: 'ana-writes' })
    post = await store.posts.create(
      weblog.id,
      ana,
      { title: 'Hello', content: '<p>Hi</p>', contentKind: 'xhtml', summary: null, issued: '2026-01-01T10:00:00Z', categories: [] },
      '2026-01-01T10:00:00Z',
    )
  })
  afterEach(async () => {
    await store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('gives every new object an opaque url id that resolves back to it', async () => {
    const userUrlId = await store.directory.urlIdOf('User', ana)
    const postUrlId = await store.directory.urlIdOf('Post', post.id)
    expect(userUrlId).toMatch(/^6p[0-9a-f]{16}$/)
    expect(postUrlId).toMatch(/^6a[0-9a-f]{32}$/)
    expect(await store.directory.resolve(postUrlId)).toEqual({ kind: 'Post', id: post.id })
    expect(await store.directory.idOf('User', userUrlId)).toBe(ana)
    expect(await store.directory.idOf('Post', userUrlId)).toBeNull()
    expect(await store.directory.resolve('6pnothing')).toBeNull()
    expect((await store.profiles.findByUrlId(userUrlId))?.username).toBe('ana')
  })

  it('forgets a deleted post: its url id, comments, favourites, and every event about them', async () => {
    const comment = await store.comments.add({
      postId: post.id,
      authorId: ben,
      inReplyTo: null,
      content: 'Nice',
      textFormat: 'html_convert_linebreaks',
      published: '2026-01-01T11:00:00Z',
    })
    await store.favorites.add(ben, post.id, '2026-01-01T12:00:00Z')
    await store.events.record({ actorId: ben, verb: 'NewAsset', objectType: 'Comment', objectId: comment.id })
    await store.events.record({ actorId: ben, verb: 'AddedFavorite', objectType: 'Post', objectId: post.id })
    const kept = await store.events.record({ actorId: ben, verb: 'AddedNeighbor', objectType: 'User', objectId: ana })
    const postUrlId = await store.directory.urlIdOf('Post', post.id)
    expect(await store.events.totalBy(ben)).toBe(3)

    await store.posts.delete(post.id)

    expect(await store.directory.resolve(postUrlId)).toBeNull()
    expect(await store.comments.find(comment.id)).toBeNull()
    expect(await store.favorites.has(ben, post.id)).toBe(false)
    expect(await store.events.streamPage(ben, null, 10)).toEqual([kept])
    expect(await store.events.totalBy(ben)).toBe(1)
  })

  it('keeps each actor’s total as events come and go, and pages by (published, id) through ties', async () => {
    const published = '2026-02-01T00:00:00Z'
    const events: EventRecord[] = []
    for (let n = 0; n < 5; n++) {
      events.push(await store.events.record({ actorId: ana, verb: 'NewAsset', objectType: 'Post', objectId: post.id, published }))
    }
    expect(await store.events.totalBy(ana)).toBe(5)
    expect(await store.events.totalBy(ben)).toBe(0)
    const first = await store.events.streamPage(ana, null, 2)
    expect(first.map((event) => event.id)).toEqual([events[4]!.id, events[3]!.id])
    const rest = await store.events.streamPage(ana, { published, id: events[3]!.id }, 10)
    expect(rest.map((event) => event.id)).toEqual([events[2]!.id, events[1]!.id, events[0]!.id])
  })

  it('lists an actor’s events in one group, and knows the group an asset was published in', async () => {
    const group = await store.groups.add({ displayName: 'Club', tagline: null, siteUrl: null })
    await store.groups.join(group.id, ana, 'Admin', '2026-01-01T00:00:00Z')
    await store.events.record({ actorId: ana, verb: 'NewAsset', objectType: 'Post', objectId: post.id, groupId: group.id })
    await store.events.record({ actorId: ana, verb: 'AddedNeighbor', objectType: 'User', objectId: ben })
    expect(await store.events.countInGroup(ana, group.id)).toBe(1)
    expect((await store.events.inGroupPage(ana, group.id, 0, 10)).map((event) => event.verb)).toEqual(['NewAsset'])
    expect(await store.events.groupsOfObjects('Post', [post.id])).toEqual(new Map([[post.id, group.id]]))
    expect(await store.groups.groupsOf(ana)).toEqual([group])
    expect(await store.groups.findByUrlId(group.urlId)).toEqual(group)
    expect(group.urlId).toMatch(/^6p[0-9a-f]{16}$/)
  })

  it('keeps relationships directional, favourites and memberships once each', async () => {
    expect(await store.relationships.add(ana, ben, 'neighbor', '2026-01-01T00:00:00Z')).toBe(true)
    expect(await store.relationships.add(ana, ben, 'neighbor', '2026-01-02T00:00:00Z')).toBe(false)
    expect(await store.relationships.has(ben, ana, 'neighbor')).toBe(false)
    expect(await store.relationships.has(ana, ben, 'friend')).toBe(false)
    expect(await store.relationships.targetsOf(ana, 'neighbor')).toEqual([ben])
    await expect(store.relationships.add(ana, ana, 'friend', '2026-01-01T00:00:00Z')).rejects.toThrow(/CHECK|violates check constraint/)
    expect(await store.favorites.add(ben, post.id, '2026-01-01T00:00:00Z')).toBe(true)
    expect(await store.favorites.add(ben, post.id, '2026-01-01T00:00:00Z')).toBe(false)
    expect(await store.favorites.countsFor([post.id])).toEqual(new Map([[post.id, 1]]))
  })

  it('threads comments only within their post', async () => {
    const comment = (inReplyTo: number | null) =>
      store.comments.add({ postId: post.id, authorId: ben, inReplyTo, content: 'x', textFormat: 'html', published: '2026-01-02T00:00:00Z' })
    const first = await comment(null)
    const reply = await comment(first.id)
    expect(await store.comments.countsForPosts([post.id])).toEqual(new Map([[post.id, 2]]))
    expect(await store.comments.replyCounts([first.id, reply.id])).toEqual(new Map([[first.id, 1]]))
    await expect(comment(9999)).rejects.toThrow(/not on post/)
  })

  it('stores a profile and reads people many at once, by url id or by username in any case', async () => {
    await store.profiles.set(ana, { aboutMe: 'Writer', location: 'Oslo', interests: ['maps'], avatarColor: '#112233' })
    const people = await store.profiles.people([ana, ben, 999])
    expect([...people.keys()].sort()).toEqual([ana, ben].sort())
    expect(people.get(ana)).toMatchObject({ displayName: 'ANA', aboutMe: 'Writer', location: 'Oslo', interests: ['maps'] })
    expect(people.get(ben)).toMatchObject({ aboutMe: null, location: null, interests: [], avatarColor: null })
    expect((await store.profiles.findByUsername('ANA'))?.id).toBe(ana)
    await expect(store.profiles.set(ben, { aboutMe: null, location: null, interests: [], avatarColor: 'red' })).rejects.toThrow(/#rrggbb/)
  })
})
