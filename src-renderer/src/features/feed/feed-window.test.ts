// The open feed's rows over a cache that changes under it: rows read in blocks show the cache's events in order,
// news waits above until asked for and then goes in without changing any row below it, older pages extend the
// list, and a cache started afresh is read again. The cache here is a small stand-in for the core's, with its rules.
import { beforeEach, describe, expect, it } from 'vitest'
import type { ActivityEvent, FeedState, FriendSummary } from '../../../../src-shared/contract'
import { BLOCK_SIZE, FeedWindow, type FeedCalls } from './feed-window'

const friend = { id: 'f1', accountId: 'a1', newCount: 0 } as FriendSummary

function eventNumber(n: number): ActivityEvent {
  return { urlId: `e${n}` } as ActivityEvent
}

/** The core's cache of one friend: events newest first, news counted until seen, older pages below. */
class Cache {
  events: ActivityEvent[] = []
  newCount = 0
  olderPages: ActivityEvent[][] = []
  reads: { offset: number; limit: number }[] = []
  /** Answers to `events` wait here when held, so a test can let news arrive while a read is on its way. */
  held: (() => void)[] | null = null

  constructor(numbers: number[]) {
    this.events = numbers.map(eventNumber)
  }

  arrive(...numbers: number[]): void {
    this.events.unshift(...numbers.map(eventNumber))
    this.newCount += numbers.length
  }

  state(): FeedState {
    return {
      friend,
      total: this.events.length,
      newCount: this.newCount,
      hasOlder: this.olderPages.length > 0,
      offline: false,
      problem: null,
      newestUrlId: this.events[0]?.urlId ?? null,
    }
  }

  open = async () => this.state()
  refresh = async () => this.state()
  older = async () => {
    this.events.push(...(this.olderPages.shift() ?? []))
    return this.state()
  }
  markSeen = async ({ upTo }: { upTo?: string }) => {
    this.newCount = upTo === undefined ? 0 : Math.max(0, this.events.findIndex((event) => event.urlId === upTo))
    return friend
  }
  slice = async ({ offset, limit }: { offset: number; limit: number }) => {
    this.reads.push({ offset, limit })
    const answer = this.events.slice(offset, offset + limit)
    if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve))
    return answer
  }
}

function callsOf(cache: Cache): FeedCalls {
  return { open: cache.open, refresh: cache.refresh, older: cache.older, markSeen: cache.markSeen, events: cache.slice }
}

/** The urlIds the list shows from `first` to `last`, once the blocks among them are read. */
async function rows(feed: FeedWindow, first: number, last: number): Promise<(string | null)[]> {
  feed.need(first, last)
  await settle()
  return Array.from({ length: last - first + 1 }, (_, index) => feed.eventAt(first + index)?.urlId ?? null)
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, index) => from - index)
const ids = (numbers: number[]) => numbers.map((n) => `e${n}`)

describe('FeedWindow', () => {
  let cache: Cache
  let feed: FeedWindow

  beforeEach(async () => {
    cache = new Cache(range(300, 1))
    cache.newCount = 2
    feed = new FeedWindow('f1', callsOf(cache))
    await feed.open()
  })

  it('shows the whole cache, marks what arrived since the last look as new and seen, and reads rows in blocks', async () => {
    expect(feed.shown).toBe(300)
    expect(feed.fresh).toBe(2)
    expect(cache.newCount).toBe(0)
    expect(await rows(feed, 0, 3)).toEqual(ids([300, 299, 298, 297]))
    expect(await rows(feed, 140, 141)).toEqual(ids([160, 159]))
    expect(cache.reads).toEqual([
      { offset: 0, limit: BLOCK_SIZE },
      { offset: 2 * BLOCK_SIZE, limit: BLOCK_SIZE },
    ])
  })

  it('keeps news above the list until asked, then puts it on top without changing the rows below', async () => {
    expect(await rows(feed, 0, 2)).toEqual(ids([300, 299, 298]))
    cache.arrive(303, 302, 301)
    feed.receive({ ...friend, newCount: 3 })
    await settle()
    expect(feed.pending).toBe(3)
    expect(feed.shown).toBe(300)
    expect(await rows(feed, 0, 2)).toEqual(ids([300, 299, 298]))
    expect(await rows(feed, 60, 61)).toEqual(ids([240, 239]))

    expect(feed.insertPending()).toBe(3)
    expect(feed.shown).toBe(303)
    expect(feed.fresh).toBe(3)
    expect(await rows(feed, 0, 5)).toEqual(ids([303, 302, 301, 300, 299, 298]))
    expect(await rows(feed, 63, 64)).toEqual(ids([240, 239]))
    expect(feed.keyAt(3)).toBe(0)
    await settle()
    expect(cache.newCount).toBe(0)
  })

  it('keeps news that arrives while the reader puts earlier news on top waiting, and the rows where they are', async () => {
    expect(await rows(feed, 0, 1)).toEqual(ids([300, 299]))
    cache.arrive(302, 301)
    feed.receive({ ...friend, newCount: 2 })
    await settle()
    // More news reaches the cache before the reader's "seen" does.
    cache.arrive(303)
    expect(feed.insertPending()).toBe(2)
    await settle()
    expect(cache.newCount, 'the last one is still news').toBe(1)
    feed.receive({ ...friend, newCount: 1 })
    await new Promise((resolve) => setTimeout(resolve, 550))
    expect(feed.pending).toBe(1)
    expect(feed.shown).toBe(302)
    expect(await rows(feed, 0, 2)).toEqual(ids([302, 301, 300]))
  })

  it('throws away a block read while news arrived, and reads it again at the right place', async () => {
    cache.held = []
    feed.need(100, 101)
    await settle()
    cache.arrive(301)
    feed.receive({ ...friend, newCount: 1 })
    await settle()
    const held = cache.held
    cache.held = null
    for (const release of held) release()
    await settle()
    expect(await rows(feed, 100, 101)).toEqual(ids([200, 199]))
  })

  it('reads older pages below the list, and the rows of a block read in part', async () => {
    cache = new Cache(range(120, 91))
    cache.olderPages = [range(90, 61).map(eventNumber)]
    feed = new FeedWindow('f1', callsOf(cache))
    await feed.open()
    expect(await rows(feed, 28, 29)).toEqual(ids([92, 91]))
    await feed.loadOlder()
    expect(feed.shown).toBe(60)
    expect(feed.state!.hasOlder).toBe(false)
    expect(await rows(feed, 28, 59)).toEqual(ids(range(92, 61)))
  })

  it('reads every row again when the cache was started afresh under it', async () => {
    expect(await rows(feed, 0, 1)).toEqual(ids([300, 299]))
    cache.events = range(1000, 951).map(eventNumber)
    cache.newCount = 50
    feed.receive({ ...friend, newCount: 50 })
    await settle()
    expect(feed.shown).toBe(0)
    expect(feed.pending).toBe(50)
    expect(feed.insertPending()).toBe(50)
    expect(await rows(feed, 0, 1)).toEqual(ids([1000, 999]))
  })
})
