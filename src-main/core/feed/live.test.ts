// The live feed against the real service, over HTTP, on a real SQLite file, through the fetch core is given: where
// events.json offers a live stream, a friend's new event reaches the cache and the "new" count with no poll at all (the
// test's clock never moves), merged as a look merges it; the stream reopens after Last-Event-ID when it breaks, and
// closes when the friend is unfollowed or the poller stops. Where no stream is offered, looks are conditional polls
// every 30 s, and a 304 changes nothing.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Accounts, FileVault } from '../accounts'
import type { JsonEvent } from '../json'
import { LocalStore } from '../store'
import { testCipher } from '../testing/core-fixture'
import { ManualClock } from '../testing/manual-clock'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'
import { DEFAULT_INTERVAL_MS, FeedPoller, type FriendUpdate } from './poller'

const PAGE_SIZE = 5

interface Sent {
  url: string
  headers: Record<string, string>
  signal: AbortSignal | null
  status: number | null
}

/** The platform's fetch, noting each request core sends and the status it gets. */
function watchedFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const record: Sent = {
      url: String(input),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      signal: init?.signal ?? null,
      status: null,
    }
    sent.push(record)
    const response = await fetch(input, init)
    record.status = response.status
    return response
  }
}

async function setUp(service: SandboxService, sent: Sent[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-live-'))
  const store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
  const fetch = watchedFetch(sent)
  const accounts = new Accounts({ store, vault: new FileVault(join(dataDir, 'secrets.bin'), testCipher), fetch, onChanged: () => undefined })
  const { sandbox } = service
  const accountId = (await accounts.add({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })).id
  await accounts.attachJson(accountId, { ...sandbox, authToken: sandbox.authToken, authTokenSecret: sandbox.authTokenSecret })
  const clock = new ManualClock()
  const poller = new FeedPoller({ store, clientOf: (id) => accounts.jsonClient(id), clock, pageSize: PAGE_SIZE })
  const updates: FriendUpdate[] = []
  poller.on('friend-updated', (update) => updates.push(update))
  return {
    accountId,
    clock,
    poller,
    updates,
    close: async () => {
      await poller.stop()
      store.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

const urlIds = (events: JsonEvent[]) => events.map((event) => event.urlId)
const isLive = (request: Sent) => request.url.endsWith('/events/live')
const isEvents = (request: Sent) => /\/events\.json(\?|$)/.test(request.url)

describe('the live feed where the service offers a stream', () => {
  const cleanUps: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp()
  })

  it('brings a friend’s new events into the cache and the new count without a poll, merged as a look would', async () => {
    const service = await startSandboxService({ simulateSeconds: 0.2 })
    cleanUps.push(() => service.dispose())
    const sent: Sent[] = []
    const { accountId, poller, updates, close } = await setUp(service, sent)
    cleanUps.push(close)
    poller.start()
    const friend = await poller.addFriend(accountId, 'jane')
    const firstLook = await poller.refresh(friend.id)
    const looked = urlIds(poller.events(friend.id, firstLook.newCount, firstLook.total))
    await expect.poll(() => sent.filter(isLive).map((request) => request.status)).toEqual([200])
    const looks = sent.filter(isEvents).length

    // The clock never moves, so no poll falls due: only the stream can bring news.
    await expect.poll(() => poller.status(friend.id).newCount, { timeout: 5_000, interval: 50 }).toBeGreaterThan(0)
    expect(sent.filter(isEvents)).toHaveLength(looks)
    const { newCount } = poller.status(friend.id)
    expect(updates.at(-1)).toMatchObject({ friendId: friend.id, newCount })

    // What the stream brought sits above what the look cached: the cache is a run of the service's stream as a look
    // would find it (she may have acted again since).
    const cached = urlIds(poller.cached(friend.id).events)
    const stream = urlIds((await service.jsonClient().userEvents(friend.urlId, { limit: 200 })).entries)
    const top = stream.indexOf(cached[0]!)
    expect(stream.slice(top, top + cached.length)).toEqual(cached)
    expect(cached.slice(newCount)).toEqual(looked)

    poller.removeFriend(friend.id)
    expect(sent.filter(isLive).every((request) => request.signal?.aborted)).toBe(true)
  })

  it('reopens a broken stream after the newest cached event, and closes it when the poller stops', async () => {
    const service = await startSandboxService()
    cleanUps.push(() => service.dispose())
    const sent: Sent[] = []
    const { accountId, clock, poller, close } = await setUp(service, sent)
    cleanUps.push(close)
    poller.start()
    const friend = await poller.addFriend(accountId, 'jane')
    await poller.refresh(friend.id)
    await expect.poll(() => sent.filter(isLive)).toHaveLength(1)

    await service.restart()
    // The stream's end schedules a look soon after; the look reopens the stream from the newest cached event.
    await expect.poll(() => {
      clock.advance(1_000)
      return sent.filter(isLive).length
    }).toBe(2)
    expect(sent.filter(isLive)[1]!.headers['last-event-id']).toBe(poller.status(friend.id).newestUrlId)
    await expect.poll(() => sent.filter(isLive)[1]!.status).toBe(200)

    await poller.stop()
    expect(sent.filter(isLive).at(-1)!.signal?.aborted).toBe(true)
  })
})

describe('the live feed where the service offers no stream', () => {
  let service: SandboxService
  afterEach(() => service.dispose())

  it('polls every 30 s with If-None-Match, and a 304 changes nothing', async () => {
    service = await startSandboxService({ noLiveStreams: true })
    const sent: Sent[] = []
    const { accountId, clock, poller, updates, close } = await setUp(service, sent)
    try {
      poller.start()
      const friend = await poller.addFriend(accountId, 'jane')
      await poller.refresh(friend.id)
      const before = poller.cached(friend.id)
      const announced = updates.length
      expect(Date.parse(poller.friend(friend.id).nextPollAt!) - clock.now()).toBe(DEFAULT_INTERVAL_MS)

      clock.advance(DEFAULT_INTERVAL_MS)
      await poller.whenIdle()
      const [first, second] = sent.filter(isEvents)
      expect(first).toMatchObject({ status: 200 })
      expect(second).toMatchObject({ status: 304, headers: { 'if-none-match': expect.stringMatching(/^W\/"/) } })
      expect(poller.cached(friend.id)).toMatchObject({ newCount: 0, total: before.total, events: before.events })
      expect(updates.slice(announced)).toEqual([{ friendId: friend.id, accountId, newCount: 0, offline: false }])
      expect(sent.filter(isLive)).toEqual([])
      expect(Date.parse(poller.friend(friend.id).nextPollAt!) - clock.now()).toBe(DEFAULT_INTERVAL_MS)
    } finally {
      await close()
    }
  })
})
