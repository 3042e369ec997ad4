// The feed's cache on a real SQLite file: how runs of a stream merge by urlId, and what migration 4 keeps together.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { JsonEvent, JsonUser } from '../json'
import { LocalStore } from '../store'
import { FeedStore, type HeadWindow } from './feed-store'

const jane: JsonUser = {
  objectType: 'User',
  id: 'tag:127.0.0.1,2009:6pjane',
  urlId: '6pjane',
  displayName: 'Jane Mallory',
  preferredUsername: 'jane',
  profilePageUrl: 'http://127.0.0.1/people/jane',
  aboutMe: null,
  location: null,
  avatarLink: { url: 'http://127.0.0.1/avatars/jane.png', width: 50, height: 50, urlTemplate: null },
}

/** Event number `n`; later numbers are newer. `note` stands in for a detail that changes on the server. */
function event(n: number, note = ''): JsonEvent {
  return {
    id: `tag:127.0.0.1,2009:6e${n}`,
    urlId: `6e${n}`,
    verb: note ? `AddedNeighbor ${note}` : 'AddedNeighbor',
    published: `2009-06-01T12:00:${String(n).padStart(2, '0')}Z`,
    actor: jane,
    object: jane,
  }
}

const newestFirst = (...numbers: number[]) => numbers.map((n) => event(n))
const run = (events: JsonEvent[], fields: Partial<HeadWindow> = {}): HeadWindow => ({
  events,
  connected: true,
  reachedEnd: false,
  continuation: null,
  totalResults: null,
  dropBelow: false,
  ...fields,
})

describe('FeedStore', () => {
  let dataDir: string
  let store: LocalStore
  let feed: FeedStore
  let friendId: string
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-feed-'))
    store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
    store.run(
      `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
       VALUES ('a1', 'http://127.0.0.1', 'http://127.0.0.1/t/atom/weblog', 'melody', '2009-06-01T00:00:00Z')`,
    )
    feed = new FeedStore(store)
    friendId = feed.addFriend('f1', 'a1', jane, 0).id
    // The first look: what was there when the friend was added is not news.
    feed.applyHead(friendId, run(newestFirst(5, 4, 3, 2, 1), { connected: false, continuation: 'below-1' }), 1)
  })
  afterEach(() => {
    // Whatever a test did, counting and slicing by position agree with the cache read whole.
    const whole = feed.events(friendId).map((cached) => cached.urlId)
    expect(feed.eventCount(friendId)).toBe(whole.length)
    for (let offset = 0; offset <= whole.length; offset++) {
      expect(feed.eventSlice(friendId, offset, 2).map((cached) => cached.urlId)).toEqual(whole.slice(offset, offset + 2))
    }
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const cachedNumbers = () => feed.events(friendId).map((cached) => Number(cached.urlId.slice(2)))

  it('fills the cache on the first look without counting anything as new, and keeps where paging goes on', () => {
    expect(cachedNumbers()).toEqual([5, 4, 3, 2, 1])
    expect(feed.friend(friendId)).toMatchObject({ newCount: 0, olderToken: 'below-1', reachedEnd: false, lastSuccessAt: 1 })
  })

  it('puts new events above, counts them, and brings cached ones up to date without caching any twice', () => {
    expect(feed.applyHead(friendId, run([event(7), event(6), event(5, 'again'), event(4)]), 2)).toEqual({ added: 2, newCount: 2 })
    expect(cachedNumbers()).toEqual([7, 6, 5, 4, 3, 2, 1])
    expect(feed.events(friendId)[2]!.verb).toBe('AddedNeighbor again')
    expect(feed.applyHead(friendId, run([event(8), event(7), event(6)]), 3)).toEqual({ added: 1, newCount: 3 })
    expect(cachedNumbers()).toEqual([8, 7, 6, 5, 4, 3, 2, 1])
    expect(feed.friend(friendId)!.olderToken).toBe('below-1')
  })

  it('counts as new only what is above the newest event the reader was shown', () => {
    feed.applyHead(friendId, run(newestFirst(8, 7, 6, 5)), 2)
    expect(feed.newestUrlId(friendId)).toBe('6e8')
    feed.markSeen(friendId, '6e6')
    expect(feed.friend(friendId)!.newCount).toBe(2)
    feed.markSeen(friendId, '6e-gone')
    expect(feed.friend(friendId)!.newCount, 'an event no longer cached was seen with the rest').toBe(0)
    feed.applyHead(friendId, run(newestFirst(9, 8)), 3)
    feed.markSeen(friendId)
    expect(feed.friend(friendId)!.newCount).toBe(0)
  })

  it('drops what the server no longer has inside the run, and places what appeared inside it', () => {
    const backdated = { ...event(0), urlId: '6e99' }
    expect(feed.applyHead(friendId, run([event(5), event(3), backdated, event(2)]), 2)).toEqual({ added: 1, newCount: 1 })
    expect(feed.events(friendId).map((cached) => cached.urlId)).toEqual(['6e5', '6e3', '6e99', '6e2', '6e1'])
  })

  it('replaces the cache with a run that does not reach it, rather than leave a gap, and pages on from the run', () => {
    const window = run(newestFirst(30, 29, 28), { connected: false, continuation: 'below-28' })
    expect(feed.applyHead(friendId, window, 2)).toEqual({ added: 3, newCount: 3 })
    expect(cachedNumbers()).toEqual([30, 29, 28])
    expect(feed.friend(friendId)).toMatchObject({ olderToken: 'below-28', reachedEnd: false })
  })

  it('appends older pages below, skipping what it has, and remembers reaching the first event', () => {
    expect(feed.applyOlder(friendId, [event(1), event(0)], 'below-0', 2)).toBe(1)
    expect(feed.applyOlder(friendId, [{ ...event(0), urlId: '6e-1' }], null, 3)).toBe(1)
    expect(cachedNumbers()).toEqual([5, 4, 3, 2, 1, 0, -1])
    expect(feed.friend(friendId)).toMatchObject({ olderToken: null, reachedEnd: true })
  })

  it('reads slices of the cache newest first from any depth, by position', () => {
    feed.applyOlder(friendId, newestFirst(0, -1, -2).map((older, index) => ({ ...older, urlId: `6e-${index}` })), 'below-2', 2)
    const slice = (offset: number, limit: number) => feed.eventSlice(friendId, offset, limit).map((cached) => cached.urlId)
    expect(feed.eventCount(friendId)).toBe(8)
    expect(slice(0, 3)).toEqual(['6e5', '6e4', '6e3'])
    expect(slice(4, 3)).toEqual(['6e1', '6e-0', '6e-1'])
    expect(slice(7, 10)).toEqual(['6e-2'])
    expect(slice(8, 10)).toEqual([])
    expect(feed.cachedAmong(friendId, ['6e3', '6e42', '6e-1'])).toEqual(new Map([['6e3', 2], ['6e-1', 6]]))

    const plan = store
      .all(
        `EXPLAIN QUERY PLAN SELECT event FROM friend_events WHERE friend_id = 'f1'
         AND position >= (SELECT MIN(position) FROM friend_events WHERE friend_id = 'f1') + 5 ORDER BY position LIMIT 2`,
      )
      .map((step) => String(step['detail']))
    expect(plan, 'the slice starts with a seek on the order index, not a walk past the events above it').toContain(
      'SEARCH friend_events USING INDEX friend_events_in_order (friend_id=? AND position>?)',
    )
  })

  it('records a failed look without touching the cache, and clears it at the next success', () => {
    feed.recordFailure(friendId, 'Could not reach 127.0.0.1.', true, 5)
    expect(feed.friend(friendId)).toMatchObject({ offline: true, problem: 'Could not reach 127.0.0.1.', lastPolledAt: 5, lastSuccessAt: 1 })
    expect(cachedNumbers()).toEqual([5, 4, 3, 2, 1])
    feed.applyHead(friendId, run(newestFirst(5)), 6)
    expect(feed.friend(friendId)).toMatchObject({ offline: false, problem: null, lastSuccessAt: 6 })
  })

  it('migration 4: an account keeps its JSON side in its row, and takes its friends and their events when it goes', () => {
    store.run(`UPDATE accounts SET json_base = 'http://127.0.0.1', api_key = 'k', json_user_url_id = '6pm', json_username = 'melody'`)
    expect(feed.addFriend('f2', 'a1', jane, 9).id).toBe(friendId)
    store.run(`DELETE FROM accounts WHERE id = 'a1'`)
    expect(feed.friends()).toEqual([])
    expect(store.get('SELECT COUNT(*) AS n FROM friend_events')).toEqual({ n: 0 })
  })
})
