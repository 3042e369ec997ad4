// The live feed (ARCHITECTURE.md, "Friends' feed"): for each friend an account follows, look at the top of their event
// stream every so often and whenever the reader asks, merge what is there into the local cache by urlId, and count what
// is new since the reader last looked. The cache is what the reader sees, so a friend reads the same offline, with a
// flag saying so. When the service cannot be reached, that account's friends wait longer each time (doubling, up to a
// cap, and never less than a Retry-After), and go back to their interval after the first success.
// Looks are conditional (If-None-Match; a 304 changes nothing). Where a look finds the server offering the friend's
// live stream (docs/PROTOCOL.md, "Live events"), the stream replaces polling while it lasts: each event is merged as it
// comes; when it ends, a look soon after catches up on anything missed and opens it again from the newest cached event.
import { randomUUID } from 'node:crypto'
import { CoreError } from '../errors'
import { RequestFailure } from '../atom'
import type { JsonClient, JsonEvent } from '../json'
import type { LocalStore } from '../store'
import { systemClock, type Clock } from '../sync'
import { FeedStore, type FriendRecord, type HeadWindow } from './feed-store'

export interface FeedPollerOptions {
  store: LocalStore
  /** The JSON client of an account's JSON side (Accounts.jsonClient). */
  clientOf: (accountId: string) => JsonClient
  clock?: Clock
  /** How often to look for a friend's news unless the friend has an interval of its own. */
  intervalMs?: number
  /** The first wait after the service could not be reached; it doubles with each failure, up to `maxBackoffMs`. */
  initialBackoffMs?: number
  maxBackoffMs?: number
  /** Events asked for per page. */
  pageSize?: number
  /** Pages read to catch up with the cache before the cache is replaced by the newest events. */
  maxCatchUpPages?: number
  /** How long after a live stream ends the friend is looked at again (and the stream reopened). */
  reconnectMs?: number
  /** A live stream silent this long (no event, no heartbeat) is taken for lost. */
  streamIdleMs?: number
}

/** Conditional looks cost a server little (304), so friends without a live stream are looked at this often. */
export const DEFAULT_INTERVAL_MS = 30_000
export const DEFAULT_RECONNECT_MS = 2_000
export const DEFAULT_INITIAL_BACKOFF_MS = 15_000
export const DEFAULT_MAX_BACKOFF_MS = 10 * 60_000

export interface Friend {
  id: string
  accountId: string
  urlId: string
  username: string
  displayName: string
  avatarUrl: string
  /** The avatar's address with `{spec}` where the server scales it; null when it cannot. */
  avatarTemplate: string | null
  profilePageUrl: string
  intervalMs: number
  /** Events that arrived since the reader last looked (markSeen). */
  newCount: number
  totalResults: number | null
  lastPolledAt: string | null
  lastSuccessAt: string | null
  /** When the poller will look next; null while it is stopped. */
  nextPollAt: string | null
  /** The last look could not reach the service. */
  offline: boolean
  /** Why the last look failed, in words; null after a success. */
  problem: string | null
  /** Images in the friend's events may load from their servers. */
  loadRemoteImages: boolean
}

/** Where a friend's feed stands, without its events: read those in slices with `events`. */
export interface FeedStatus {
  friend: Friend
  /** How many events are cached. */
  total: number
  /** The newest `newCount` cached events arrived since the reader last looked. */
  newCount: number
  /** The newest cached event's urlId, or null when none is cached. */
  newestUrlId: string | null
  /** Older events can be read with loadOlder. */
  hasOlder: boolean
  /** What is shown is the cache, because the service could not be reached. */
  offline: boolean
  problem: string | null
}

export interface FriendFeed extends FeedStatus {
  /** Every cached event, newest first. */
  events: JsonEvent[]
}

export interface FriendUpdate {
  friendId: string
  accountId: string
  newCount: number
  offline: boolean
}

export interface FeedEvents {
  /** After every look at a friend's stream, and when the reader has seen the news. */
  'friend-updated': FriendUpdate
}

export class FeedPoller {
  readonly #feed: FeedStore
  readonly #clientOf: (accountId: string) => JsonClient
  readonly #clock: Clock
  readonly #intervalMs: number
  readonly #initialBackoffMs: number
  readonly #maxBackoffMs: number
  readonly #pageSize: number
  readonly #maxCatchUpPages: number
  readonly #listeners = new Set<(update: FriendUpdate) => void>()
  /** When each friend is due, in ms since the epoch; filled while running. */
  readonly #due = new Map<string, number>()
  /** Failures in a row to reach each account's service. */
  readonly #failures = new Map<string, number>()
  /** Each friend's work in progress: stream reads of one friend never overlap, so merges see what the last one left. */
  readonly #busy = new Map<string, Promise<unknown>>()
  /** A look at the top of a friend's stream in progress, shared by everyone who asks meanwhile. */
  readonly #looking = new Map<string, Promise<FeedStatus>>()
  /** The validator (ETag) of each friend's newest page as last merged, sent back as If-None-Match. */
  readonly #etags = new Map<string, string>()
  /** Each friend's live stream, where their server offers one. */
  readonly #liveUrls = new Map<string, string>()
  /** The live streams open, by friend: aborting one closes it. */
  readonly #streams = new Map<string, AbortController>()
  readonly #streamRuns = new Set<Promise<void>>()
  /** Friends whose stream the server refused, and until when polls alone carry their feed. */
  readonly #streamRefusedUntil = new Map<string, number>()
  readonly #reconnectMs: number
  readonly #streamIdleMs: number | undefined
  #running = false
  #cancelTimer: (() => void) | null = null
  #round: Promise<void> | null = null

  constructor(options: FeedPollerOptions) {
    this.#feed = new FeedStore(options.store)
    this.#clientOf = options.clientOf
    this.#clock = options.clock ?? systemClock
    this.#intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS
    this.#initialBackoffMs = options.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS
    this.#maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS
    this.#pageSize = options.pageSize ?? 50
    this.#maxCatchUpPages = options.maxCatchUpPages ?? 4
    this.#reconnectMs = options.reconnectMs ?? DEFAULT_RECONNECT_MS
    this.#streamIdleMs = options.streamIdleMs
  }

  on<E extends keyof FeedEvents>(_event: E, listener: (payload: FeedEvents[E]) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Starts looking for news: at once for friends not looked at within their interval, later for the others. */
  start(): void {
    if (this.#running) return
    this.#running = true
    const now = this.#clock.now()
    for (const friend of this.#feed.friends()) {
      this.#due.set(friend.id, friend.lastPolledAt === null ? now : friend.lastPolledAt + this.#interval(friend))
    }
    this.#arm()
  }

  /** Stops looking, closes the live streams, and waits for looks in progress to end. */
  async stop(): Promise<void> {
    this.#running = false
    this.#disarm()
    this.#due.clear()
    for (const stream of this.#streams.values()) stream.abort()
    await Promise.allSettled([...this.#streamRuns])
    await this.whenIdle()
  }

  /** Resolves once no look at any stream is in progress. */
  async whenIdle(): Promise<void> {
    while (this.#round || this.#busy.size > 0) {
      await Promise.allSettled([this.#round, ...this.#busy.values()])
    }
  }

  /**
   * Follows someone on the account's JSON service, by username or urlId (a username is resolved by the service's
   * redirect to the user's canonical address). Their stream is read at the next turn of the poller.
   */
  async addFriend(accountId: string, usernameOrUrlId: string): Promise<Friend> {
    const who = usernameOrUrlId.trim()
    if (who === '') throw new CoreError('invalid-argument', 'Give the username or the id of the person to follow.')
    const user = await this.#clientOf(accountId).user(who)
    const friend = this.#feed.addFriend(randomUUID(), accountId, user, this.#clock.now())
    if (this.#running && !this.#due.has(friend.id)) {
      this.#due.set(friend.id, this.#clock.now())
      this.#arm()
    }
    return this.#describe(friend)
  }

  removeFriend(friendId: string): void {
    this.#find(friendId)
    this.#feed.remove(friendId)
    this.#due.delete(friendId)
    this.#streams.get(friendId)?.abort()
    this.#etags.delete(friendId)
    this.#liveUrls.delete(friendId)
    this.#streamRefusedUntil.delete(friendId)
    this.#arm()
  }

  friends(accountId: string): Friend[] {
    return this.#feed.friends(accountId).map((friend) => this.#describe(friend))
  }

  friend(friendId: string): Friend {
    return this.#describe(this.#find(friendId))
  }

  /** Where the friend's cached feed stands, at once, without asking the service. */
  status(friendId: string): FeedStatus {
    const friend = this.#find(friendId)
    return {
      friend: this.#describe(friend),
      total: this.#feed.eventCount(friendId),
      newCount: friend.newCount,
      newestUrlId: this.#feed.newestUrlId(friendId),
      hasOlder: !friend.reachedEnd,
      offline: friend.offline,
      problem: friend.problem,
    }
  }

  /** `limit` cached events from the `offset`th newest on; as fast deep in a long cache as at its top. */
  events(friendId: string, offset: number, limit: number): JsonEvent[] {
    this.#find(friendId)
    return this.#feed.eventSlice(friendId, offset, limit)
  }

  /** Everything the cache holds for the friend, at once, without asking the service. */
  cached(friendId: string): FriendFeed {
    return { ...this.status(friendId), events: this.#feed.events(friendId) }
  }

  /**
   * Opening a friend: looks for news, and answers with the cache either way. When the service cannot be reached
   * (or refuses), the cache comes back with `offline` (or `problem`) saying so, instead of an error.
   */
  async read(friendId: string): Promise<FeedStatus> {
    try {
      return await this.refresh(friendId)
    } catch (error) {
      if (error instanceof CoreError && this.#feed.friend(friendId)) return this.status(friendId)
      throw error
    }
  }

  /** Looks for the friend's news now, whatever the schedule; throws a RequestFailure when the look fails. */
  refresh(friendId: string): Promise<FeedStatus> {
    this.#find(friendId)
    let look = this.#looking.get(friendId)
    if (!look) {
      look = this.#exclusive(friendId, () => this.#lookAtHead(friendId, false)).finally(() => this.#looking.delete(friendId))
      this.#looking.set(friendId, look)
    }
    return look
  }

  /** Reads the page of the friend's stream below the cached events, and keeps it with them. */
  loadOlder(friendId: string): Promise<FeedStatus> {
    this.#find(friendId)
    return this.#exclusive(friendId, () => this.#readOlder(friendId))
  }

  /** The reader has seen the friend's news, or (with `upToUrlId`) the events from that one down. */
  markSeen(friendId: string, upToUrlId?: string): Friend {
    this.#find(friendId)
    this.#feed.markSeen(friendId, upToUrlId)
    return this.#announce(friendId) ?? this.#describe(this.#find(friendId))
  }

  /** Whether images in the friend's events may load from their servers. */
  setLoadRemoteImages(friendId: string, load: boolean): Friend {
    this.#find(friendId)
    this.#feed.setLoadRemoteImages(friendId, load)
    return this.#describe(this.#find(friendId))
  }

  /** How often to look for the friend's news; null for the default. */
  setPollInterval(friendId: string, intervalMs: number | null): Friend {
    this.#find(friendId)
    if (intervalMs !== null && (!Number.isFinite(intervalMs) || intervalMs < 10_000)) {
      throw new CoreError('invalid-argument', 'Look for news at most every 10 seconds; a shorter interval would only load the service.')
    }
    this.#feed.setIntervalSeconds(friendId, intervalMs === null ? null : Math.round(intervalMs / 1000))
    const friend = this.#find(friendId)
    if (this.#running) {
      this.#due.set(friendId, (friend.lastPolledAt ?? this.#clock.now()) + this.#interval(friend))
      this.#arm()
    }
    return this.#describe(friend)
  }

  // ── Looking at a stream ──────────────────────────────────────────────────────────────────────────────────────

  async #lookAtHead(friendId: string, dropBelow: boolean): Promise<FeedStatus> {
    const friend = this.#find(friendId)
    try {
      const window = await this.#readHead(friend, dropBelow)
      if (window) this.#feed.applyHead(friendId, window, this.#clock.now())
      else this.#feed.recordUnchanged(friendId, this.#clock.now())
    } catch (error) {
      this.#failed(friend, error)
      throw error
    }
    this.#succeeded(friend, true)
    this.#listen(friendId)
    return this.status(friendId)
  }

  /**
   * Pages from the top of the stream until they reach a cached event, the stream's end, or the catch-up limit. A
   * first look, and one that starts the cache afresh, reads one page: older pages are read when the reader asks.
   * Null when the newest page is unchanged since it was last merged.
   */
  async #readHead(friend: FriendRecord, dropBelow: boolean): Promise<HeadWindow | null> {
    const client = this.#clientOf(friend.accountId)
    const events = new Map<string, JsonEvent>()
    let startToken: string | null = null
    for (let page = 1; ; page++) {
      let stream
      if (startToken === null) {
        const head = await client.userEventsHead(friend.urlId, {
          limit: this.#pageSize,
          etag: dropBelow ? null : (this.#etags.get(friend.id) ?? null),
        })
        if (head.etag === null) this.#etags.delete(friend.id)
        else this.#etags.set(friend.id, head.etag)
        if (head.liveUrl === null) this.#liveUrls.delete(friend.id)
        else this.#liveUrls.set(friend.id, head.liveUrl)
        if (head.page === null) return null
        stream = head.page
      } else {
        stream = await client.userEvents(friend.urlId, { limit: this.#pageSize, startToken })
      }
      for (const event of stream.entries) if (!events.has(event.urlId)) events.set(event.urlId, event)
      const connected = this.#feed.cachedAmong(friend.id, stream.entries.map((event) => event.urlId)).size > 0
      const reachedEnd = stream.moreResultsToken === null
      const firstLook = friend.lastSuccessAt === null || dropBelow
      if (connected || reachedEnd || firstLook || page >= this.#maxCatchUpPages) {
        return {
          events: [...events.values()],
          connected,
          reachedEnd,
          continuation: stream.moreResultsToken,
          totalResults: stream.totalResults,
          dropBelow,
        }
      }
      startToken = stream.moreResultsToken
    }
  }

  async #readOlder(friendId: string): Promise<FeedStatus> {
    let friend = this.#find(friendId)
    if (friend.reachedEnd) return this.status(friendId)
    if (friend.olderToken === null) {
      // Nothing read yet: the first look gives the token for what lies below.
      await this.#lookAtHead(friendId, false)
      friend = this.#find(friendId)
      if (friend.olderToken === null) return this.status(friendId)
    }
    const pageBelow = (below: FriendRecord) =>
      this.#clientOf(below.accountId).userEvents(below.urlId, { limit: this.#pageSize, startToken: below.olderToken })
    let page
    try {
      page = await pageBelow(friend)
    } catch (error) {
      // The service refuses a paging token after a while: page again from the newest events, and on from there.
      if (!(error instanceof RequestFailure && error.kind === 'refused' && error.status === 400)) {
        this.#failed(friend, error)
        throw error
      }
      await this.#lookAtHead(friendId, true)
      friend = this.#find(friendId)
      if (friend.olderToken === null) return this.status(friendId)
      try {
        page = await pageBelow(friend)
      } catch (again) {
        this.#failed(friend, again)
        throw again
      }
    }
    this.#feed.applyOlder(friendId, page.entries, page.moreResultsToken, this.#clock.now())
    this.#succeeded(friend, false)
    return this.status(friendId)
  }

  /** After a look at the top of the stream (`atHead`) or at an older page that reached the service. */
  #succeeded(friend: FriendRecord, atHead: boolean): void {
    const now = this.#clock.now()
    const recovered = (this.#failures.get(friend.accountId) ?? 0) > 0
    this.#failures.delete(friend.accountId)
    if (this.#running) {
      if (atHead) this.#due.set(friend.id, now + this.#interval(friend))
      // The service is back: the account's friends held back while it was away are looked at now.
      if (recovered) {
        for (const other of this.#feed.friends(friend.accountId)) if (!atHead || other.id !== friend.id) this.#due.set(other.id, now)
      }
      this.#arm()
    }
    this.#announce(friend.id)
  }

  #failed(friend: FriendRecord, error: unknown): void {
    if (!(error instanceof CoreError)) return
    const now = this.#clock.now()
    const offline = error.code === 'offline'
    this.#feed.recordFailure(friend.id, error.message, offline, now)
    if (this.#running) {
      if (offline) {
        const failures = (this.#failures.get(friend.accountId) ?? 0) + 1
        this.#failures.set(friend.accountId, failures)
        const backoff = Math.min(this.#initialBackoffMs * 2 ** (failures - 1), this.#maxBackoffMs)
        const wait = Math.max(backoff, error instanceof RequestFailure ? (error.retryAfterMs ?? 0) : 0)
        // The whole service is away, not one friend: the account's other friends wait at least as long.
        for (const other of this.#feed.friends(friend.accountId)) {
          this.#due.set(other.id, other.id === friend.id ? now + wait : Math.max(this.#due.get(other.id) ?? 0, now + wait))
        }
      } else {
        this.#due.set(friend.id, now + this.#interval(friend))
      }
      this.#arm()
    }
    this.#announce(friend.id)
  }

  // ── Live streams ─────────────────────────────────────────────────────────────────────────────────────────────

  /** Opens the friend's live stream where their server offers one and none is open: it replaces polling meanwhile. */
  #listen(friendId: string): void {
    const liveUrl = this.#liveUrls.get(friendId)
    const friend = this.#feed.friend(friendId)
    const refused = (this.#streamRefusedUntil.get(friendId) ?? 0) > this.#clock.now()
    if (!this.#running || !liveUrl || !friend || refused || this.#streams.has(friendId)) return
    const controller = new AbortController()
    this.#streams.set(friendId, controller)
    this.#due.delete(friendId)
    const run: Promise<void> = this.#stream(friend, liveUrl, controller.signal).finally(() => this.#streamRuns.delete(run))
    this.#streamRuns.add(run)
  }

  async #stream(friend: FriendRecord, liveUrl: string, signal: AbortSignal): Promise<void> {
    const events = this.#clientOf(friend.accountId).liveEvents(liveUrl, {
      lastEventId: this.#feed.newestUrlId(friend.id),
      signal,
      ...(this.#streamIdleMs === undefined ? {} : { idleMs: this.#streamIdleMs }),
    })
    try {
      for await (const event of events) {
        const added = await this.#exclusive(friend.id, () => Promise.resolve(this.#feed.applyLive(friend.id, event, this.#clock.now())))
        if (added === null) return
        if (added) this.#announce(friend.id)
      }
    } catch (error) {
      // Refused (too many streams, a Last-Event-ID the server no longer has): polls alone carry the feed for a while.
      if (error instanceof RequestFailure && error.status !== null) {
        this.#streamRefusedUntil.set(friend.id, this.#clock.now() + this.#interval(friend))
      } else if (!(error instanceof CoreError)) {
        console.error(`A friend's live stream failed:`, error)
      }
    } finally {
      this.#streams.delete(friend.id)
      // A look soon after catches up on what the stream missed and opens it again.
      if (this.#running && !signal.aborted && this.#feed.friend(friend.id)) {
        this.#due.set(friend.id, this.#clock.now() + this.#reconnectMs)
        this.#arm()
      }
    }
  }

  // ── Schedule ──────────────────────────────────────────────────────────────────────────────────────────────────

  #arm(): void {
    this.#disarm()
    if (!this.#running || this.#round) return
    const next = Math.min(...this.#due.values())
    if (!Number.isFinite(next)) return
    this.#cancelTimer = this.#clock.setTimer(() => {
      this.#cancelTimer = null
      this.#round = this.#pollDue().finally(() => {
        this.#round = null
        this.#arm()
      })
    }, Math.max(0, next - this.#clock.now()))
  }

  #disarm(): void {
    this.#cancelTimer?.()
    this.#cancelTimer = null
  }

  /** Looks at each friend that is due, one at a time, so a feed never floods the service. */
  async #pollDue(): Promise<void> {
    for (const friendId of [...this.#due.keys()]) {
      // Checked again before each: a failure just now may have held back the friends of the same service.
      const due = this.#due.get(friendId)
      if (!this.#running || due === undefined || due > this.#clock.now()) continue
      if (!this.#feed.friend(friendId) || this.#streams.has(friendId)) {
        this.#due.delete(friendId)
        continue
      }
      try {
        await this.refresh(friendId)
      } catch (error) {
        // Recorded with the friend and announced; a look that failed for a bug is reported and retried later.
        if (!(error instanceof CoreError)) {
          console.error(`Looking at a friend's events failed:`, error)
          const friend = this.#feed.friend(friendId)
          if (friend) this.#due.set(friendId, this.#clock.now() + this.#interval(friend))
        }
      }
    }
  }

  // ── Helpers ───────────────────────────────────────────────────────────────────────────────────────────────────

  #exclusive<T>(friendId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#busy.get(friendId) ?? Promise.resolve()
    const next = previous.then(work)
    // Tracks only that the work ended: its outcome belongs to the caller.
    const tracked: Promise<void> = next.then(
      () => this.#settle(friendId, tracked),
      () => this.#settle(friendId, tracked),
    )
    this.#busy.set(friendId, tracked)
    return next
  }

  #settle(friendId: string, work: Promise<void>): void {
    if (this.#busy.get(friendId) === work) this.#busy.delete(friendId)
  }

  #interval(friend: FriendRecord): number {
    return friend.intervalSeconds === null ? this.#intervalMs : friend.intervalSeconds * 1000
  }

  #find(friendId: string): FriendRecord {
    const friend = this.#feed.friend(friendId)
    if (!friend) throw new CoreError('not-found', 'That friend is no longer in your feed; they may have been removed.')
    return friend
  }

  /** Tells the listeners where the friend stands; null when the friend was removed meanwhile. */
  #announce(friendId: string): Friend | null {
    const friend = this.#feed.friend(friendId)
    if (!friend) return null
    const update: FriendUpdate = { friendId, accountId: friend.accountId, newCount: friend.newCount, offline: friend.offline }
    for (const listener of this.#listeners) listener(update)
    return this.#describe(friend)
  }

  #describe(friend: FriendRecord): Friend {
    const iso = (time: number | null | undefined) => (time === null || time === undefined ? null : new Date(time).toISOString())
    return {
      id: friend.id,
      accountId: friend.accountId,
      urlId: friend.urlId,
      username: friend.profile.preferredUsername,
      displayName: friend.profile.displayName,
      avatarUrl: friend.profile.avatarLink.url,
      avatarTemplate: friend.profile.avatarLink.urlTemplate,
      profilePageUrl: friend.profile.profilePageUrl,
      intervalMs: this.#interval(friend),
      newCount: friend.newCount,
      totalResults: friend.totalResults,
      lastPolledAt: iso(friend.lastPolledAt),
      lastSuccessAt: iso(friend.lastSuccessAt),
      nextPollAt: iso(this.#due.get(friend.id)),
      offline: friend.offline,
      problem: friend.problem,
      loadRemoteImages: friend.loadRemoteImages,
    }
  }
}
