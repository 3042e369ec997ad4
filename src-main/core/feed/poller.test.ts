// The feed poller against the real service, whose demo friends act on their own (--simulate), on a real SQLite
// file, with a clock the test moves: the first look fills the cache, later looks count exactly what is new and
// merge it by urlId, older pages follow moreResultsToken, and with the service away the reader gets the cache,
// flagged offline, while the poller waits longer each time, and comes back to its interval once the service does.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Accounts, FileVault } from '../accounts'
import type { JsonEvent } from '../json'
import { LocalStore } from '../store'
import { testCipher } from '../testing/core-fixture'
import { ManualClock } from '../testing/manual-clock'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'
import { FeedPoller, type FeedStatus, type Friend, type FriendUpdate } from './poller'

const INTERVAL_MS = 60_000
const PAGE_SIZE = 5

describe('FeedPoller against the service', () => {
  let service: SandboxService
  let dataDir: string
  let store: LocalStore
  let clock: ManualClock
  let poller: FeedPoller
  let accountId: string
  let friend: Friend
  const updates: FriendUpdate[] = []

  beforeAll(async () => {
    // Without live streams: this is the poller on its own, as with a server that offers none.
    service = await startSandboxService({ simulateSeconds: 0.2, noLiveStreams: true })
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-feed-'))
    store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
    const accounts = new Accounts({ store, vault: new FileVault(join(dataDir, 'secrets.bin'), testCipher), fetch: globalThis.fetch, onChanged: () => undefined })
    const { sandbox } = service
    accountId = (await accounts.add({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })).id
    await accounts.attachJson(accountId, { ...sandbox, authToken: sandbox.authToken, authTokenSecret: sandbox.authTokenSecret })
    clock = new ManualClock()
    poller = new FeedPoller({
      store,
      clientOf: (id) => accounts.jsonClient(id),
      clock,
      intervalMs: INTERVAL_MS,
      initialBackoffMs: 15_000,
      maxBackoffMs: 120_000,
      pageSize: PAGE_SIZE,
    })
    poller.on('friend-updated', (update) => updates.push(update))
    poller.start()
  })
  afterAll(async () => {
    await poller.stop()
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
    await service.dispose()
  })

  /** Moves the clock on and lets the looks that fall due finish. */
  async function advance(ms: number): Promise<void> {
    clock.advance(ms)
    await poller.whenIdle()
  }

  const untilNext = () => Date.parse(poller.friends(accountId)[0]!.nextPollAt!) - clock.now()
  const urlIds = (events: JsonEvent[]) => events.map((event) => event.urlId)

  /** The friend's whole stream as the service has it now, newest first. */
  async function wholeStream(): Promise<JsonEvent[]> {
    const client = service.jsonClient()
    const events: JsonEvent[] = []
    let startToken: string | null = null
    do {
      const page = await client.userEvents(friend.urlId, { limit: 200, startToken })
      events.push(...page.entries)
      startToken = page.moreResultsToken
    } while (startToken !== null)
    return events
  }

  it('follows a friend by username, and fills the cache with their newest events on the first look, none of them new', async () => {
    friend = await poller.addFriend(accountId, 'jane')
    expect(friend).toMatchObject({ username: 'jane', displayName: 'Jane Mallory', newCount: 0, lastPolledAt: null })
    expect(friend.urlId).not.toBe('jane')

    await advance(0)
    const feed = poller.cached(friend.id)
    expect(feed).toMatchObject({ newCount: 0, hasOlder: true, offline: false, problem: null })
    expect(feed.events).toHaveLength(PAGE_SIZE)
    expect(new Set(urlIds(feed.events)).size).toBe(PAGE_SIZE)
    expect(feed.events.every((event) => event.actor.urlId === friend.urlId)).toBe(true)
    expect(poller.status(friend.id)).toMatchObject({ total: PAGE_SIZE, newCount: 0, hasOlder: true })
    expect(urlIds(poller.events(friend.id, 1, 2))).toEqual(urlIds(feed.events).slice(1, 3))
    expect(updates.at(-1)).toEqual({ friendId: friend.id, accountId, newCount: 0, offline: false })
    expect(untilNext()).toBe(INTERVAL_MS)
  })

  it('counts exactly the events that arrived since, and merges them above the cache by urlId', async () => {
    const before = poller.cached(friend.id)
    const totalBefore = before.friend.totalResults!
    // Jane acts now and then; wait until she has done at least two things, then stop the story so it holds still.
    const client = service.jsonClient()
    await expect
      .poll(async () => (await client.userEvents(friend.urlId, { limit: 0 })).totalResults, { timeout: 30_000, interval: 200 })
      .toBeGreaterThanOrEqual(totalBefore + 2)
    await service.restart({ noLiveStreams: true })
    const stream = await wholeStream()
    const arrived = stream.length - totalBefore

    await advance(INTERVAL_MS)
    const after = poller.cached(friend.id)
    expect(after.newCount).toBe(arrived)
    expect(updates.at(-1)).toEqual({ friendId: friend.id, accountId, newCount: arrived, offline: false })
    expect(urlIds(after.events)).toEqual(urlIds(stream).slice(0, arrived + PAGE_SIZE))
    expect(urlIds(after.events).slice(arrived)).toEqual(urlIds(before.events))

    // Nothing new since: the next look counts nothing more, and caches nothing twice.
    expect(poller.markSeen(friend.id).newCount).toBe(0)
    await advance(INTERVAL_MS)
    expect(poller.cached(friend.id)).toMatchObject({ newCount: 0 })
    expect(urlIds(poller.cached(friend.id).events)).toEqual(urlIds(after.events))
  })

  it('reads older pages with moreResultsToken down to the first event, each event once, past a refused token', async () => {
    let feed: FeedStatus = poller.status(friend.id)
    expect(feed.hasOlder).toBe(true)
    // A token the service no longer takes (it refuses them after a day): paging starts again from the newest events.
    store.run(`UPDATE friends SET older_token = 'made.elsewhere' WHERE id = :id`, { id: friend.id })
    while (feed.hasOlder) feed = await poller.loadOlder(friend.id)
    const stream = urlIds(await wholeStream())
    expect(urlIds(poller.cached(friend.id).events)).toEqual(stream)
    expect(feed).toMatchObject({ total: stream.length, friend: { totalResults: stream.length } })
  })

  it('reads the cache, flagged offline, while the service is away, waits longer each time, and recovers', async () => {
    const cachedEvents = urlIds(poller.cached(friend.id).events)
    await service.stop()

    const offline = await poller.read(friend.id)
    expect(offline).toMatchObject({ offline: true, problem: expect.stringMatching(/^Could not reach 127\.0\.0\.1:\d+/) })
    expect(offline.total).toBe(cachedEvents.length)
    expect(urlIds(poller.cached(friend.id).events)).toEqual(cachedEvents)
    expect(updates.at(-1)).toMatchObject({ friendId: friend.id, offline: true })

    const waits = [untilNext()]
    for (let attempt = 0; attempt < 4; attempt++) {
      await advance(untilNext())
      expect(poller.cached(friend.id).offline).toBe(true)
      waits.push(untilNext())
    }
    expect(waits).toEqual([15_000, 30_000, 60_000, 120_000, 120_000])

    await service.restart({ noLiveStreams: true })
    await advance(untilNext())
    expect(poller.cached(friend.id)).toMatchObject({ offline: false, problem: null })
    expect(urlIds(poller.cached(friend.id).events)).toEqual(cachedEvents)
    expect(untilNext()).toBe(INTERVAL_MS)
    expect(updates.at(-1)).toMatchObject({ friendId: friend.id, offline: false })
  })

  it('refreshes on demand, and stops following a friend when asked', async () => {
    const feed = await poller.refresh(friend.id)
    expect(feed).toMatchObject({ offline: false, newCount: 0 })
    poller.removeFriend(friend.id)
    expect(poller.friends(accountId)).toEqual([])
    await expect(poller.read(friend.id)).rejects.toMatchObject({ code: 'not-found' })
  })
})
