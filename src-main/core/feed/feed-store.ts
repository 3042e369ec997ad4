// The feed's local cache (migration 4): the friends an account follows, and each friend's events in the stream's
// order, kept for reading offline. Events are merged by urlId, so however often a page is read again, each event
// is cached once. Every change is one transaction.
//
// A friend's events hold consecutive whole positions, newest first: news goes right above the top, older pages
// right below the bottom, and a merged run fills exactly the span it replaces. So an event's offset from the newest
// is its position minus the top's, and counting or slicing a cache of any length reads only the rows returned.
import type { JsonEvent, JsonUser } from '../json'
import type { LocalStore, Row } from '../store'

export interface FriendRecord {
  id: string
  accountId: string
  urlId: string
  profile: JsonUser
  /** How often to look for news; null for the poller's default. */
  intervalSeconds: number | null
  /** Events that arrived since the reader last looked. */
  newCount: number
  totalResults: number | null
  /** Continues the stream below the oldest cached event; null when that is the first one, or none was read yet. */
  olderToken: string | null
  reachedEnd: boolean
  lastPolledAt: number | null
  lastSuccessAt: number | null
  problem: string | null
  offline: boolean
  /** Images in the friend's events may load from their servers (the reader consented). */
  loadRemoteImages: boolean
}

/** What one look at the top of a friend's stream found: a run of its newest events, in the stream's order. */
export interface HeadWindow {
  events: JsonEvent[]
  /** The run reaches an event that was cached already. */
  connected: boolean
  /** The run is the whole stream. */
  reachedEnd: boolean
  /** The moreResultsToken after the run's last page. */
  continuation: string | null
  totalResults: number | null
  /** Forget cached events below the run (their paging token was refused, so they cannot be continued). */
  dropBelow: boolean
}

export class FeedStore {
  readonly #store: LocalStore

  constructor(store: LocalStore) {
    this.#store = store
  }

  /** Adds the friend to the account, or refreshes the profile of one it has; returns the friend either way. */
  addFriend(id: string, accountId: string, user: JsonUser, now: number): FriendRecord {
    this.#store.run(
      `INSERT INTO friends (id, account_id, url_id, profile, added_at) VALUES (:id, :accountId, :urlId, :profile, :addedAt)
       ON CONFLICT (account_id, url_id) DO UPDATE SET profile = excluded.profile`,
      { id, accountId, urlId: user.urlId, profile: JSON.stringify(user), addedAt: new Date(now).toISOString() },
    )
    const row = this.#store.get('SELECT * FROM friends WHERE account_id = :accountId AND url_id = :urlId', { accountId, urlId: user.urlId })
    return friendOf(row!)
  }

  friend(friendId: string): FriendRecord | null {
    const row = this.#store.get('SELECT * FROM friends WHERE id = :friendId', { friendId })
    return row && friendOf(row)
  }

  /** An account's friends, or everyone's, in the order they were added. */
  friends(accountId?: string): FriendRecord[] {
    const rows =
      accountId === undefined
        ? this.#store.all('SELECT * FROM friends ORDER BY added_at, id')
        : this.#store.all('SELECT * FROM friends WHERE account_id = :accountId ORDER BY added_at, id', { accountId })
    return rows.map(friendOf)
  }

  remove(friendId: string): void {
    this.#store.run('DELETE FROM friends WHERE id = :friendId', { friendId })
  }

  /** The cached events, newest first. */
  events(friendId: string): JsonEvent[] {
    return this.#store
      .all('SELECT event FROM friend_events WHERE friend_id = :friendId ORDER BY position', { friendId })
      .map((row) => JSON.parse(String(row['event'])) as JsonEvent)
  }

  /** How many events are cached for the friend: the span of their positions. */
  eventCount(friendId: string): number {
    // One extreme per subquery: SQLite finds each with a single seek on the order index, but scans it for both at once.
    const span = this.#store.get(
      `SELECT (SELECT MIN(position) FROM friend_events WHERE friend_id = :friendId) AS top,
              (SELECT MAX(position) FROM friend_events WHERE friend_id = :friendId) AS bottom`,
      { friendId },
    )
    return span?.['top'] === null || span?.['top'] === undefined ? 0 : Number(span['bottom']) - Number(span['top']) + 1
  }

  /** `limit` cached events from the `offset`th newest on, found by position: as fast deep in the cache as at its top. */
  eventSlice(friendId: string, offset: number, limit: number): JsonEvent[] {
    return this.#store
      .all(
        `SELECT event FROM friend_events
         WHERE friend_id = :friendId AND position >= (SELECT MIN(position) FROM friend_events WHERE friend_id = :friendId) + :offset
         ORDER BY position LIMIT :limit`,
        { friendId, offset, limit },
      )
      .map((row) => JSON.parse(String(row['event'])) as JsonEvent)
  }

  /** Which of `urlIds` are cached for the friend, with their positions: one look-up per id, whatever the cache holds. */
  cachedAmong(friendId: string, urlIds: readonly string[]): Map<string, number> {
    const rows = this.#store.all(
      'SELECT url_id, position FROM friend_events WHERE friend_id = :friendId AND url_id IN (SELECT value FROM json_each(:urlIds))',
      { friendId, urlIds: JSON.stringify(urlIds) },
    )
    return new Map(rows.map((row) => [String(row['url_id']), Number(row['position'])]))
  }

  /**
   * Merges a run of the stream's newest events into the cache: those not cached yet go above, those cached are
   * brought up to date and into the run's order, and cached events inside the run's span that the run no longer
   * has (deleted on the server) go. When the run does not reach the cache, a gap would open between them, so the
   * run replaces the cache. Returns how many events are new, or null when the friend was removed meanwhile.
   */
  applyHead(friendId: string, window: HeadWindow, now: number): { added: number; newCount: number } | null {
    return this.#store.transaction(() => {
      const friend = this.friend(friendId)
      if (!friend) return null
      // Only the cache's top, down to the lowest event the run holds, is read: a long cache costs no more than a short one.
      const inWindow = new Set(window.events.map((event) => event.urlId))
      const known = this.cachedAmong(friendId, [...inWindow])
      const lastInWindow = known.size === 0 ? null : Math.max(...known.values())
      const keepsBelow = window.connected && !window.reachedEnd && !window.dropBelow && lastInWindow !== null
      const topBelow = keepsBelow
        ? this.#store.get('SELECT MIN(position) AS position FROM friend_events WHERE friend_id = :friendId AND position > :lastInWindow', {
            friendId,
            lastInWindow,
          })?.['position']
        : null
      /** Where the cached events kept below the run begin; null when none are kept. */
      const below = topBelow === null || topBelow === undefined ? null : Number(topBelow)

      if (below === null) {
        this.#store.run('DELETE FROM friend_events WHERE friend_id = :friendId', { friendId })
      } else {
        const span = this.#store.all('SELECT url_id FROM friend_events WHERE friend_id = :friendId AND position <= :lastInWindow', {
          friendId,
          lastInWindow,
        })
        for (const gone of span.map((row) => String(row['url_id'])).filter((urlId) => !inWindow.has(urlId))) {
          this.#store.run('DELETE FROM friend_events WHERE friend_id = :friendId AND url_id = :urlId', { friendId, urlId: gone })
        }
      }
      const floor = below ?? window.events.length
      window.events.forEach((event, index) => this.#put(friendId, event, floor - window.events.length + index, now))

      const added = window.events.filter((event) => !known.has(event.urlId)).length
      // What was there when the friend was added is not news; everything after that is.
      const newCount = friend.lastSuccessAt === null ? friend.newCount : friend.newCount + added
      const paging = below === null ? { olderToken: window.continuation, reachedEnd: window.reachedEnd ? 1 : 0 } : { olderToken: friend.olderToken, reachedEnd: 0 }
      this.#store.run(
        `UPDATE friends SET new_count = :newCount, total_results = :totalResults, older_token = :olderToken,
           reached_end = :reachedEnd, last_polled_at = :now, last_success_at = :now, problem = NULL, offline = 0
         WHERE id = :friendId`,
        { friendId, newCount, totalResults: window.totalResults, ...paging, now },
      )
      return { added, newCount }
    })
  }

  /**
   * Merges one event the friend's live stream brought, by urlId as a look does: a cached one is brought up to date
   * where it is, a new one goes right above the top and counts as news. Returns whether it was new, or null when the
   * friend was removed meanwhile.
   */
  applyLive(friendId: string, event: JsonEvent, now: number): boolean | null {
    return this.#store.transaction(() => {
      const friend = this.friend(friendId)
      if (!friend) return null
      const cachedAt = this.cachedAmong(friendId, [event.urlId]).get(event.urlId)
      const top = this.#store.get('SELECT MIN(position) AS position FROM friend_events WHERE friend_id = :friendId', { friendId })?.['position']
      this.#put(friendId, event, cachedAt ?? (top === null || top === undefined ? 0 : Number(top) - 1), now)
      const added = cachedAt === undefined ? 1 : 0
      this.#store.run(
        `UPDATE friends SET new_count = new_count + :added, total_results = total_results + :added,
           last_success_at = :now, problem = NULL, offline = 0
         WHERE id = :friendId`,
        { friendId, added, now },
      )
      return added === 1
    })
  }

  /** A look found the top of the friend's stream unchanged since the last (the server answered 304). */
  recordUnchanged(friendId: string, now: number): void {
    this.#store.run('UPDATE friends SET last_polled_at = :now, last_success_at = :now, problem = NULL, offline = 0 WHERE id = :friendId', {
      friendId,
      now,
    })
  }

  /** Appends an older page below the cached events; returns how many were not cached yet. */
  applyOlder(friendId: string, events: readonly JsonEvent[], continuation: string | null, now: number): number {
    return this.#store.transaction(() => {
      if (!this.friend(friendId)) return 0
      const known = new Set(this.cachedAmong(friendId, events.map((event) => event.urlId)).keys())
      const bottom = Number(this.#store.get('SELECT MAX(position) AS bottom FROM friend_events WHERE friend_id = :friendId', { friendId })?.['bottom'] ?? -1)
      let position = bottom
      let added = 0
      for (const event of events) {
        if (known.has(event.urlId)) continue
        known.add(event.urlId)
        this.#put(friendId, event, ++position, now)
        added++
      }
      this.#store.run('UPDATE friends SET older_token = :continuation, reached_end = :reachedEnd WHERE id = :friendId', {
        friendId,
        continuation,
        reachedEnd: continuation === null ? 1 : 0,
      })
      return added
    })
  }

  recordFailure(friendId: string, problem: string, offline: boolean, now: number): void {
    this.#store.run('UPDATE friends SET last_polled_at = :now, problem = :problem, offline = :offline WHERE id = :friendId', {
      friendId,
      now,
      problem,
      offline: offline ? 1 : 0,
    })
  }

  /**
   * The reader has seen the friend's events from `upToUrlId` down (all of them without it): what is cached above it
   * stays new. An event no longer cached counts as seen, with everything else.
   */
  markSeen(friendId: string, upToUrlId?: string): void {
    if (upToUrlId === undefined) {
      this.#store.run('UPDATE friends SET new_count = 0 WHERE id = :friendId', { friendId })
      return
    }
    this.#store.run(
      `UPDATE friends SET new_count = COALESCE(
         (SELECT seen.position - (SELECT MIN(position) FROM friend_events WHERE friend_id = :friendId)
          FROM friend_events seen WHERE seen.friend_id = :friendId AND seen.url_id = :upToUrlId), 0)
       WHERE id = :friendId`,
      { friendId, upToUrlId },
    )
  }

  /** The newest cached event's urlId, or null when none is cached. */
  newestUrlId(friendId: string): string | null {
    const row = this.#store.get('SELECT url_id FROM friend_events WHERE friend_id = :friendId ORDER BY position LIMIT 1', { friendId })
    return row ? String(row['url_id']) : null
  }

  setIntervalSeconds(friendId: string, seconds: number | null): void {
    this.#store.run('UPDATE friends SET interval_seconds = :seconds WHERE id = :friendId', { friendId, seconds })
  }

  setLoadRemoteImages(friendId: string, load: boolean): void {
    this.#store.run('UPDATE friends SET load_remote_images = :load WHERE id = :friendId', { friendId, load: load ? 1 : 0 })
  }

  #put(friendId: string, event: JsonEvent, position: number, now: number): void {
    this.#store.run(
      `INSERT INTO friend_events (friend_id, url_id, position, event, fetched_at) VALUES (:friendId, :urlId, :position, :event, :now)
       ON CONFLICT (friend_id, url_id) DO UPDATE SET position = excluded.position, event = excluded.event, fetched_at = excluded.fetched_at
       -- An event read again unchanged is left as it is: rewriting it would cost as much as caching it anew.
       WHERE friend_events.position IS NOT excluded.position OR friend_events.event IS NOT excluded.event`,
      { friendId, urlId: event.urlId, position, event: JSON.stringify(event), now },
    )
  }
}

function friendOf(row: Row): FriendRecord {
  const number = (name: string) => (row[name] === null ? null : Number(row[name]))
  return {
    id: String(row['id']),
    accountId: String(row['account_id']),
    urlId: String(row['url_id']),
    profile: JSON.parse(String(row['profile'])) as JsonUser,
    intervalSeconds: number('interval_seconds'),
    newCount: Number(row['new_count']),
    totalResults: number('total_results'),
    olderToken: row['older_token'] === null ? null : String(row['older_token']),
    reachedEnd: Number(row['reached_end']) === 1,
    lastPolledAt: number('last_polled_at'),
    lastSuccessAt: number('last_success_at'),
    problem: row['problem'] === null ? null : String(row['problem']),
    offline: Number(row['offline']) === 1,
    loadRemoteImages: Number(row['load_remote_images']) === 1,
  }
}
