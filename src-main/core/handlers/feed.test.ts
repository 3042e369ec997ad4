// Friends and their feed as the renderer asks for them, against the sandbox service (its demo friends and weeks of
// events) over HTTP, on a real core: neighbours come from the user's own AddedNeighbor events, events read in slices
// newest first in words the feed can say, news is announced, and the cache answers when the service is away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActivityEvent, Event, Events, FriendSummary } from '../../../src-shared/contract'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'

const DEMO_FRIENDS = ['brigitte', 'chet', 'francoise', 'jane', 'nick']

describe('friends and feed handlers', () => {
  let service: SandboxService
  let fixture: CoreFixture
  let accountId: string
  let jane: FriendSummary
  const updates: Events['friends:updated'][] = []

  beforeAll(async () => {
    service = await startSandboxService()
    fixture = await openTestCore()
    const { sandbox } = service
    accountId = (await fixture.core.accounts.add({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })).id
    fixture.core.onEvent((event: Event, payload) => {
      if (event === 'friends:updated') updates.push(payload as Events['friends:updated'])
    })
  })
  afterAll(async () => {
    await fixture.dispose()
    await service.dispose()
  })

  const handlers = () => fixture.core.handlers

  it('says in words that following friends needs the account’s JSON side', async () => {
    await expect(handlers()['friends:add']({ accountId, username: 'jane' })).rejects.toMatchObject({ code: 'auth', message: /not connected to a JSON service/ })
    await expect(handlers()['friends:neighbours']({ accountId })).rejects.toMatchObject({ code: 'auth' })
    expect(await handlers()['friends:list']({ accountId })).toEqual([])
  })

  it('offers the people the user added as neighbours, read from their own AddedNeighbor events', async () => {
    const { sandbox } = service
    await fixture.core.accounts.attachJson(accountId, sandbox)
    const neighbours = await handlers()['friends:neighbours']({ accountId })
    expect(neighbours.map((person) => person.username).sort()).toEqual(DEMO_FRIENDS)
    const janeAsNeighbour = neighbours.find((person) => person.username === 'jane')!
    expect(janeAsNeighbour).toMatchObject({ displayName: 'Jane Mallory', avatarTemplate: expect.stringContaining('{spec}') })
    expect(janeAsNeighbour.profilePageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
  })

  it('follows a friend by username, fills the feed on the poller’s first look, and announces it', async () => {
    jane = await handlers()['friends:add']({ accountId, username: 'jane' })
    expect(jane).toMatchObject({ accountId, username: 'jane', displayName: 'Jane Mallory', newCount: 0, offline: false, problem: null })
    expect(jane.loadRemoteImages).toBe(false)
    expect(jane.avatarTemplate).toContain('{spec}')
    expect(await handlers()['friends:list']({ accountId })).toEqual([jane])

    const state = await handlers()['feed:refresh']({ friendId: jane.id })
    expect(state).toMatchObject({ friend: { id: jane.id }, newCount: 0, offline: false, problem: null, newestUrlId: expect.any(String) })
    expect(state.total).toBeGreaterThan(0)
    expect(updates.at(-1)).toMatchObject({ id: jane.id, username: 'jane', newCount: 0, offline: false })
    expect(await handlers()['feed:open']({ friendId: jane.id })).toEqual(state)
  })

  it('reads the cached events in slices, newest first, as actor, verb and object', async () => {
    const { total } = await handlers()['feed:open']({ friendId: jane.id })
    const all = await handlers()['feed:events']({ friendId: jane.id, offset: 0, limit: 500 })
    expect(all).toHaveLength(total)
    const published = all.map((event) => Date.parse(event.published))
    expect(published).toEqual([...published].sort((a, b) => b - a))
    expect(all[0]!.urlId).toBe((await handlers()['feed:open']({ friendId: jane.id })).newestUrlId)
    expect(await handlers()['feed:events']({ friendId: jane.id, offset: 2, limit: 3 })).toEqual(all.slice(2, 5))
    expect(await handlers()['feed:events']({ friendId: jane.id, offset: total, limit: 10 })).toEqual([])

    expect(all.every((event) => event.actor.username === 'jane')).toBe(true)
    const post = all.find((event) => event.verb === 'NewAsset' && event.object.kind === 'Post')!
    expect(post.object).toMatchObject({ title: expect.any(String), permalink: expect.stringMatching(/^http:/), person: null })
    expect(post.object.html).toContain('<p>')
    const neighbour = all.find((event) => event.verb === 'AddedNeighbor')!
    expect(neighbour.object).toMatchObject({ kind: 'User', person: { username: expect.any(String), avatarTemplate: expect.stringContaining('{spec}') } })
    expect(neighbour.object.title).toBe(neighbour.object.person!.displayName)
    const comment = all.find((event: ActivityEvent) => event.object.kind === 'Comment')
    if (comment) expect(comment.object).toMatchObject({ title: expect.any(String), excerpt: expect.any(String), html: expect.any(String) })
  })

  it('pages older events below the cached ones until the stream’s first, each once', async () => {
    let state = await handlers()['feed:open']({ friendId: jane.id })
    while (state.hasOlder) state = await handlers()['feed:older']({ friendId: jane.id })
    const all = await handlers()['feed:events']({ friendId: jane.id, offset: 0, limit: 500 })
    expect(all).toHaveLength(state.total)
    expect(new Set(all.map((event) => event.urlId)).size).toBe(state.total)
    expect(state.friend).toMatchObject({ id: jane.id })
  })

  it('answers with the cache, flagged offline, when the service is away, and clears the flag once it is back', async () => {
    const before = await handlers()['feed:events']({ friendId: jane.id, offset: 0, limit: 500 })
    await service.stop()
    const offline = await handlers()['feed:refresh']({ friendId: jane.id })
    expect(offline).toMatchObject({ offline: true, total: before.length, problem: expect.stringMatching(/^Could not reach 127\.0\.0\.1:\d+/) })
    expect(updates.at(-1)).toMatchObject({ id: jane.id, offline: true })
    expect(await handlers()['feed:events']({ friendId: jane.id, offset: 0, limit: 500 })).toEqual(before)
    await expect(handlers()['friends:neighbours']({ accountId })).rejects.toMatchObject({ code: 'offline' })

    await service.restart()
    expect(await handlers()['feed:refresh']({ friendId: jane.id })).toMatchObject({ offline: false, problem: null })
  })

  it('counts news as it arrives and forgets the count once the reader has seen it', async () => {
    await service.restart({ simulateSeconds: 0.2 })
    let state = await handlers()['feed:refresh']({ friendId: jane.id })
    for (let look = 0; state.newCount === 0 && look < 150; look++) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      state = await handlers()['feed:refresh']({ friendId: jane.id })
    }
    // Once the simulation has stopped, nothing more can arrive (the live stream may have brought more meanwhile).
    await service.restart()
    state = await handlers()['feed:refresh']({ friendId: jane.id })
    expect(state.newCount).toBeGreaterThan(0)
    expect(updates.at(-1)).toMatchObject({ id: jane.id, newCount: state.newCount })
    const [newest] = await handlers()['feed:events']({ friendId: jane.id, offset: 0, limit: 1 })
    expect(newest!.actor.username).toBe('jane')

    // Seen up to the second newest: the newest stays new.
    const [, second] = await handlers()['feed:events']({ friendId: jane.id, offset: 0, limit: 2 })
    expect(await handlers()['feed:markSeen']({ friendId: jane.id, upTo: second!.urlId })).toMatchObject({ id: jane.id, newCount: 1 })
    expect(await handlers()['feed:markSeen']({ friendId: jane.id })).toMatchObject({ id: jane.id, newCount: 0 })
    expect(updates.at(-1)).toMatchObject({ id: jane.id, newCount: 0 })
  })

  it('loads a friend’s remote images only once the reader says so, and remembers the choice', async () => {
    const allowed = await handlers()['friends:setRemoteImages']({ friendId: jane.id, load: true })
    expect(allowed).toMatchObject({ id: jane.id, loadRemoteImages: true })
    expect(await handlers()['friends:list']({ accountId })).toEqual([allowed])
    expect(await handlers()['friends:setRemoteImages']({ friendId: jane.id, load: false })).toMatchObject({ loadRemoteImages: false })
    expect((await handlers()['feed:open']({ friendId: jane.id })).friend.loadRemoteImages).toBe(false)
    await expect(handlers()['friends:setRemoteImages']({ friendId: 'no-such-friend', load: true })).rejects.toMatchObject({ code: 'not-found' })
  })

  it('stops following a friend, whose feed is then gone', async () => {
    expect(await handlers()['friends:remove']({ friendId: jane.id })).toBeNull()
    expect(await handlers()['friends:list']({ accountId })).toEqual([])
    await expect(handlers()['feed:open']({ friendId: jane.id })).rejects.toMatchObject({ code: 'not-found' })
    await expect(handlers()['feed:events']({ friendId: jane.id, offset: 0, limit: 10 })).rejects.toMatchObject({ code: 'not-found' })
  })
})
