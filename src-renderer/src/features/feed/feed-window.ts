// What the open feed shows, kept apart from React so news and scrolling re-render only what changed. The core caches a
// friend's events (maybe a hundred thousand); the list has one row per cached event it shows, and reads rows in
// blocks as they come into view, dropping blocks far away. Events that arrive while the feed is open wait above
// the list (`pending`) until the reader asks for them, so nothing moves under their eyes.
//
// Rows are stored by slot: a row's index minus the number of rows inserted above since the feed opened. Inserting
// news therefore moves no stored row, and the cache's offset of slot s is s + inserted + pending.
import type { ActivityEvent, FeedSlice, FeedState, FriendRef, FriendSummary, SeenRef } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { NEWS_REDRAW_INTERVAL_MS, throttled } from './throttle'

/** The feed's calls, as `api.feed` has them (a test passes its own). */
export interface FeedCalls {
  open(ref: FriendRef): Promise<FeedState>
  events(slice: FeedSlice): Promise<ActivityEvent[]>
  refresh(ref: FriendRef): Promise<FeedState>
  older(ref: FriendRef): Promise<FeedState>
  markSeen(ref: SeenRef): Promise<FriendSummary>
}

export type Progress = { status: 'idle' } | { status: 'busy' } | { status: 'failed'; error: ApiError }

/** Rows read per request. */
export const BLOCK_SIZE = 50
/** Blocks kept around the rows in view; farther ones are read again if the reader comes back. */
const KEPT_BLOCKS = 40

const idle: Progress = { status: 'idle' }

export class FeedWindow {
  readonly friendId: string
  /** null until the first answer. */
  state: FeedState | null = null
  /** Opening: busy until the cache's state is known; failed when it could not be read. */
  opening: Progress = { status: 'busy' }
  refreshing: Progress = idle
  older: Progress = idle
  /** Rows in the list. */
  shown = 0
  /** Cached events newer than the list's first row, waiting for the reader to ask for them. */
  pending = 0
  /** The first `fresh` rows arrived since the reader last looked. */
  fresh = 0

  /** Changes when the rows change: how many, which are read, which are fresh. */
  rowsVersion = 0
  /** Changes when anything around the rows changes: the friend, offline or not, what is loading or failed. */
  statusVersion = 0

  readonly #calls: FeedCalls
  readonly #listeners = new Set<() => void>()
  #inserted = 0
  readonly #rows = new Map<number, ActivityEvent>()
  /** Blocks read or being read, each with the mapping of slots to cache offsets it was asked for under. */
  readonly #blocks = new Map<number, number>()
  #mapping = 0
  /** The cache's newest event when the state was last read: the list's first row once the news is shown. */
  #newest: string | null = null
  /** Changes when news goes on top: a state read before that counts the news as waiting, which it no longer is. */
  #insertions = 0
  /** An older page was read, but its state was dropped: the next state read may find the list longer below. */
  #olderUnseen = false
  #stateRequest: Promise<void> | null = null
  #stateAgain = false
  readonly #readStateSoon = throttled(() => this.#readState(), NEWS_REDRAW_INTERVAL_MS)
  #closed = false

  constructor(friendId: string, calls: FeedCalls) {
    this.friendId = friendId
    this.#calls = calls
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Shows the cache at once, marks what was new as seen, then asks the service for news. */
  async open(): Promise<void> {
    this.#closed = false
    this.opening = { status: 'busy' }
    this.#changed({ status: true })
    let state: FeedState
    try {
      state = await this.#calls.open(this.#ref)
    } catch (error) {
      this.opening = { status: 'failed', error: toApiError(error) }
      return this.#changed({ status: true })
    }
    if (this.#closed) return
    this.state = state
    this.#newest = state.newestUrlId
    this.shown = state.total
    this.fresh = state.newCount
    this.opening = idle
    this.#changed({ rows: true, status: true })
    if (state.newCount > 0) await this.#markSeen(state.newestUrlId)
    await this.refresh()
  }

  /** Asks the service for news now; an unreachable service is reported in the state (offline), not thrown. */
  async refresh(): Promise<void> {
    if (this.refreshing.status === 'busy') return
    this.refreshing = { status: 'busy' }
    this.#changed({ status: true })
    try {
      await this.#take(this.#calls.refresh(this.#ref))
      this.refreshing = idle
    } catch (error) {
      this.refreshing = { status: 'failed', error: toApiError(error) }
    }
    this.#changed({ status: true })
  }

  /** Reads the page of the stream below the cached events. */
  async loadOlder(): Promise<void> {
    if (this.older.status === 'busy' || !this.state?.hasOlder) return
    this.older = { status: 'busy' }
    this.#changed({ status: true })
    try {
      await this.#take(this.#calls.older(this.#ref), true)
      this.older = idle
    } catch (error) {
      this.older = { status: 'failed', error: toApiError(error) }
    }
    this.#changed({ status: true })
  }

  /** The friend changed (the poller looked): reads where the cache stands now. News in a burst shares one read. */
  receive(summary: FriendSummary): void {
    if (summary.id !== this.friendId || this.#closed || this.state === null) return
    this.#readStateSoon()
  }

  #readState(): void {
    if (this.#closed) return
    if (this.#stateRequest) {
      this.#stateAgain = true
      return
    }
    this.#stateRequest = (async () => {
      do {
        this.#stateAgain = false
        try {
          await this.#take(this.#calls.open(this.#ref))
        } catch {
          // The friend was removed, or the store is closing: the list says so when it next asks.
        }
      } while (this.#stateAgain && !this.#closed)
      this.#stateRequest = null
    })()
  }

  /** Puts the waiting news at the top of the list; returns how many rows went in above the first one. */
  insertPending(): number {
    const count = this.pending
    if (count === 0) return 0
    this.#insertions++
    // The blocks the new rows fall in may have been read in part, up to the old first row: read them whole.
    for (let block = this.#blockOf(-this.#inserted - count); block <= this.#blockOf(-this.#inserted - 1); block++) this.#blocks.delete(block)
    this.#inserted += count
    this.shown += count
    this.pending = 0
    this.fresh = count
    this.#changed({ rows: true })
    void this.#markSeen(this.#newest)
    return count
  }

  /** The row's event, or null while it is being read. */
  eventAt(index: number): ActivityEvent | null {
    return this.#rows.get(index - this.#inserted) ?? null
  }

  /** A stable key for the row at `index`, which keeps its measured height when news is inserted above it. */
  keyAt(index: number): number {
    return index - this.#inserted
  }

  /** The rows from `first` to `last` are (nearly) in view: reads the blocks among them not read yet. */
  need(first: number, last: number): void {
    if (this.state === null || this.shown === 0) return
    const from = Math.max(0, first) - this.#inserted
    const to = Math.min(this.shown - 1, last) - this.#inserted
    for (let block = this.#blockOf(from); block <= this.#blockOf(to); block++) {
      if (!this.#blocks.has(block)) void this.#read(block)
    }
    this.#forgetFarFrom(this.#blockOf(from), this.#blockOf(to))
  }

  /** Stops taking answers and news; open() starts again. */
  close(): void {
    this.#closed = true
    this.#readStateSoon.cancel()
  }

  get #ref(): FriendRef {
    return { friendId: this.friendId }
  }

  #blockOf(slot: number): number {
    return Math.floor(slot / BLOCK_SIZE)
  }

  async #read(block: number): Promise<void> {
    const firstSlot = Math.max(block * BLOCK_SIZE, -this.#inserted)
    const endSlot = Math.min((block + 1) * BLOCK_SIZE, this.shown - this.#inserted)
    if (endSlot <= firstSlot) return
    const mapping = this.#mapping
    this.#blocks.set(block, mapping)
    let events: ActivityEvent[]
    try {
      events = await this.#calls.events({ friendId: this.friendId, offset: firstSlot + this.#inserted + this.pending, limit: endSlot - firstSlot })
    } catch {
      // Read again when the rows are next needed (the list asks on every change).
      if (this.#blocks.get(block) === mapping) this.#blocks.delete(block)
      return
    }
    if (this.#closed) return
    if (mapping !== this.#mapping) {
      // News arrived meanwhile, so the answer is off by that much: the list asks again for what it still needs.
      if (this.#blocks.get(block) === mapping) this.#blocks.delete(block)
      this.#changed({ rows: true })
      return
    }
    events.forEach((event, index) => this.#rows.set(firstSlot + index, event))
    this.#changed({ rows: true })
  }

  #forgetFarFrom(firstBlock: number, lastBlock: number): void {
    if (this.#blocks.size <= KEPT_BLOCKS) return
    const distance = (block: number) => (block < firstBlock ? firstBlock - block : block > lastBlock ? block - lastBlock : 0)
    const farthestFirst = [...this.#blocks.keys()].sort((a, b) => distance(b) - distance(a))
    for (const block of farthestFirst.slice(0, this.#blocks.size - KEPT_BLOCKS)) {
      this.#blocks.delete(block)
      for (let slot = block * BLOCK_SIZE; slot < (block + 1) * BLOCK_SIZE; slot++) this.#rows.delete(slot)
    }
  }

  /** Takes the state `answer` brings, unless news went on top while it was on its way: then reads it again. */
  async #take(answer: Promise<FeedState>, olderRead = false): Promise<void> {
    const insertions = this.#insertions
    const state = await answer
    if (insertions === this.#insertions) return this.#reconcile(state, olderRead)
    this.#olderUnseen ||= olderRead
    this.#readStateSoon()
  }

  /**
   * Takes the cache's state. Normally the cache grew at the top (news, `newCount`) or at the bottom (older pages),
   * so the rows shown keep their events; if it changed otherwise (the service deleted events, or the cache was
   * started afresh), the rows are read again.
   */
  #reconcile(state: FeedState, olderRead = false): void {
    if (this.#closed) return
    const shown = state.total - state.newCount
    const grewBelow = (olderRead || this.#olderUnseen) && shown > this.shown
    this.#olderUnseen = false
    const before = this.state
    const statusChanged =
      before === null ||
      before.offline !== state.offline ||
      before.problem !== state.problem ||
      before.hasOlder !== state.hasOlder ||
      before.friend.displayName !== state.friend.displayName ||
      before.friend.username !== state.friend.username ||
      before.friend.avatarUrl !== state.friend.avatarUrl
    if (shown !== this.shown && !grewBelow) {
      this.#rows.clear()
      this.#blocks.clear()
      this.#inserted = 0
      this.fresh = 0
      this.#mapping++
    } else {
      // The last block may have been read in part, down to the old last row: read it whole.
      if (grewBelow) this.#blocks.delete(this.#blockOf(this.shown - this.#inserted))
      if (state.newCount !== this.pending) this.#mapping++
    }
    const rowsChanged = shown !== this.shown
    this.state = state
    this.#newest = state.newestUrlId
    this.shown = shown
    this.pending = state.newCount
    this.#changed({ rows: rowsChanged, status: statusChanged })
  }

  /** Everything from `upTo` down is seen: news that arrived after it stays new, so the count stays exact. */
  async #markSeen(upTo: string | null): Promise<void> {
    try {
      await this.#calls.markSeen(upTo === null ? this.#ref : { ...this.#ref, upTo })
    } catch {
      // The count stays in the friends list; nothing the reader sees depends on it.
    }
  }

  /** Tells the listeners; each reads the part it shows (the versions, `pending`) and draws again if that changed. */
  #changed({ rows = false, status = false }: { rows?: boolean; status?: boolean }): void {
    if (rows) this.rowsVersion++
    if (status) this.statusVersion++
    for (const listener of this.#listeners) listener()
  }
}
