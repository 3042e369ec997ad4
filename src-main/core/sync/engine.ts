// The sync engine: sends the outbox to the servers when they can be reached, and never loses or repeats a change.
//
// - Every operation is in SQLite before the call that queued it returns, written in the same transaction as the
//   draft's move to `queued`. It is marked `sending` (committed) before its request goes out, so one found in
//   `sending` at start (the app was killed mid-request) is queued again as uncertain: checked before it is resent.
// - Operations of one queue (a weblog, an album, a list) go out one at a time in the order they were queued; queues
//   run side by side up to `concurrency`. One that needs the person's attention holds its queue until retried or
//   discarded, so nothing that depends on it goes out of order.
// - Failures the network may heal (unreachable, busy, no answer) are retried with exponential backoff and full
//   jitter, never sooner than the server's Retry-After. A refusal (4xx) needs attention, in the server's words. A
//   refused sign-in pauses the whole account until `resume` (the person signed in again); its operations stay queued.
// - Exactly once: each POST carries the operation's Idempotency-Key on every attempt. A create whose earlier attempt
//   may have reached the server is first looked for in the weblog's feed (reconcile.ts); an update first reads the
//   post, finds our own earlier write there (done) or someone else's (a conflict, both versions kept); a delete of a
//   post already gone is done.
// - A server that cannot be reached (reachability.ts) is not sent to at all: its operations stay queued, untouched,
//   while it is probed every few seconds, and the moment any request reaches it again they fall due and go.
import { rm } from 'node:fs/promises'
import { extname } from 'node:path'
import { formatW3cDate } from '../../../src-protocol'
import type { Weblog } from '../../../src-shared/contract'
import { CoreError } from '../errors'
import { RequestFailure, type AtomClient, type ListItemToSend, type RemotePost } from '../atom'
import { IMAGE_EXTENSIONS, inProcessImages, type ImageType, type ImageWorker } from '../media'
import { Caches, Drafts, MediaCopies, WeblogSettings, type Draft, type MediaCopy, type DraftRemote, type DraftState, type LocalStore } from '../store'
import type { AccountsForSync } from './accounts'
import { DEFAULT_RETRY_POLICY, retryDelay, systemClock, type Clock, type RetryPolicy } from './clock'
import { localMediaUses, mediaUseKey, withPublicMedia, type MediaUse } from './inline-media'
import type { Operation, OperationKind, OperationResults, OutboxCounts, PostSnapshot, PublishedPost } from './operations'
import { Outbox, type NewOperation } from './outbox'
import { Reachability, originOf } from './reachability'
import { findCreatedPost } from './reconcile'
import { dueAt, heldUntil, holdUntilFor } from './scheduling'
import { contentHash, sameText } from './versions'

export interface SyncEngineOptions {
  store: LocalStore
  accounts: AccountsForSync
  clock?: Clock
  /** In [0, 1): the jitter of retry delays. */
  random?: () => number
  /** How many queues may send at once. */
  concurrency?: number
  retry?: Partial<RetryPolicy>
  /** Shared with the rest of core when given; made over `store` otherwise. */
  drafts?: Drafts
  caches?: Caches
  media?: MediaCopies
  /** What core knows of each server, from all its requests; the engine's own (probing with Node's fetch) otherwise. */
  reachability?: Reachability
  /** Where images of posts are scaled before they are uploaded (sharp): a helper process in the app; here otherwise. */
  images?: ImageWorker
  /** Each weblog's widest image; made over `store` when not given. */
  weblogSettings?: WeblogSettings
}

export interface PausedAccount {
  accountId: string
  /** Why, in words: the server's refusal of the sign-in. */
  reason: string
}

export interface SyncChange {
  /** The operation whose state changed; null when operations were discarded or an account paused or resumed. */
  operation: Operation | null
  /** The draft whose state the change may have moved: the operation's, or the one whose operations went; else null. */
  draftId: string | null
  counts: OutboxCounts
  paused: PausedAccount[]
}

export interface SyncProgress {
  operationId: number
  /** File bytes sent so far (a photo, an upload, or an image of a post), out of the file's size. */
  sent: number
  total: number
}

export interface SyncEvents {
  changed: SyncChange
  progress: SyncProgress
}

export interface NewUpload {
  accountId: string
  weblogPostUri: string
  /** A media copy's SHA-256 (MediaCopies.add). */
  hash: string
  /** The file's name on the server. */
  name: string
}

export interface NewPhoto {
  accountId: string
  albumUri: string
  hash: string
  title: string
  caption?: string | null
  filename?: string | null
  /** Take the GPS position out of the photo before it leaves this computer. */
  stripGps?: boolean
}

export interface NewListItem {
  accountId: string
  listUri: string
  item: ListItemToSend
}

export const DEFAULT_CONCURRENCY = 4
/** Done operations are kept this long (the drafts keep where their posts went for good). */
const DONE_KEPT_MS = 30 * 24 * 60 * 60 * 1000

type Outcome =
  | { kind: 'done'; result: OperationResults[OperationKind]; post?: RemotePost }
  | { kind: 'conflict'; server: RemotePost }

/** What a failed attempt leads to. */
type Verdict =
  | { next: 'retry'; uncertain: boolean; retryAfterMs: number | null; message: string }
  | { next: 'pause'; uncertain: boolean; message: string }
  | { next: 'stop'; uncertain: boolean; message: string }

/** An operation marked `sending`, and as it was before. */
interface Attempt {
  before: Operation
  sending: Operation
}

interface Waiter {
  resolve(): void
  reject(error: unknown): void
}

const STOPPED_STATES = new Set(['needs-attention', 'conflict'])

export class SyncEngine {
  readonly #store: LocalStore
  readonly #accounts: AccountsForSync
  readonly #clock: Clock
  readonly #random: () => number
  readonly #concurrency: number
  readonly #retry: RetryPolicy
  readonly #outbox: Outbox
  readonly #drafts: Drafts
  readonly #caches: Caches
  readonly #media: MediaCopies
  readonly #images: ImageWorker
  readonly #weblogSettings: WeblogSettings
  readonly #reachability: Reachability
  readonly #listeners: { [E in keyof SyncEvents]: Set<(payload: SyncEvents[E]) => void> } = { changed: new Set(), progress: new Set() }
  /** The queues sending now, by queue key. */
  readonly #running = new Map<string, Promise<void>>()
  readonly #paused = new Map<string, string>()
  /** Accounts being removed: nothing of theirs is started (holdAccount). */
  readonly #held = new Set<string>()
  #started = false
  #pumpQueued = false
  /** The last pump left a due queue waiting for a turn: queues sending now give theirs up after their operation. */
  #starved = false
  #cancelTimer: (() => void) | null = null
  #timerAt = Number.POSITIVE_INFINITY
  #flushWaiters: Waiter[] = []
  #drainWaiters: Waiter[] = []

  constructor(options: SyncEngineOptions) {
    this.#store = options.store
    this.#accounts = options.accounts
    this.#clock = options.clock ?? systemClock
    this.#random = options.random ?? Math.random
    this.#concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY)
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    const now = () => this.#clock.now()
    this.#outbox = new Outbox(this.#store, now)
    this.#drafts = options.drafts ?? new Drafts(this.#store, { now })
    this.#caches = options.caches ?? new Caches(this.#store, { now })
    this.#media = options.media ?? new MediaCopies(this.#store, { now })
    this.#images = options.images ?? inProcessImages
    this.#weblogSettings = options.weblogSettings ?? new WeblogSettings(this.#store)
    this.#reachability = options.reachability ?? new Reachability({ clock: this.#clock, fetch: globalThis.fetch })
    this.#reachability.onBack((origin) => this.#serverBack(origin))
    this.#recoverInterrupted()
  }

  // ── Queueing ────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Queues the draft's text as it is now: a create the first time, an update after (each publish carries its own
   * snapshot, so every one goes out, in order). When the draft's last operation was stopped by a refusal or a
   * conflict, that operation takes this text instead and is queued again; publishing over a conflict makes the
   * server's copy the base the draft replaces. The draft's history marks the text as published in the same commit.
   */
  publish(draftId: string): Operation {
    const operation = this.#transaction(() => {
      const draft = this.#requireDraft(draftId)
      refuseUnlessLive(draft, 'published')
      if (draft.state === 'conflict' && draft.conflict && draft.remote) {
        this.#drafts.setRemote(draftId, { ...draft.remote, ...baseOf(draft.conflict.server) })
      }
      const snapshot: PostSnapshot = { title: draft.title, content: draft.content, categories: draft.categories, summary: draft.summary }
      const open = this.#outbox.openOfDraft(draftId)
      const last = open.at(-1)
      const createOf = (issued: string) => {
        const holdUntil = holdUntilFor(issued, this.#caches.weblog(draft.accountId, draft.weblogPostUri), this.#clock.now())
        return { post: { ...snapshot, issued }, ...(holdUntil === null ? {} : { holdUntil }) }
      }
      // A create held for its date has not gone out: publishing again replaces it (a new date, or the same text now).
      const held = last?.kind === 'post.create' && last.state === 'queued' && !last.uncertain && last.payload.holdUntil !== undefined
      let queued: Operation
      if (last && (held || (STOPPED_STATES.has(last.state) && !last.uncertain)) && (last.kind === 'post.create' || last.kind === 'post.update')) {
        queued =
          last.kind === 'post.create'
            ? this.#outbox.requeue(last, createOf(draft.issued ?? (held ? this.#nowW3c() : last.payload.post.issued)))
            : this.#outbox.requeue(last, { post: { ...snapshot, issued: draft.issued } })
      } else if (draft.remote !== null || open.some((operation) => operation.kind === 'post.create')) {
        queued = this.#add({
          accountId: draft.accountId,
          kind: 'post.update',
          queueKey: draft.weblogPostUri,
          draftId,
          payload: { post: { ...snapshot, issued: draft.issued } },
        })
      } else {
        queued = this.#add({ accountId: draft.accountId, kind: 'post.create', queueKey: draft.weblogPostUri, draftId, payload: createOf(draft.issued ?? this.#nowW3c()) })
      }
      this.#drafts.clearUnpublishedChanges(draftId)
      this.#drafts.markPublished(draftId)
      this.#settleDraft(draftId)
      return queued
    })
    return this.#queued(operation)
  }

  /** Queues the deletion of the draft's post from its weblog; the draft is `deleting`, then `deleted`. */
  enqueueDelete(draftId: string): Operation {
    const operation = this.#transaction(() => {
      const draft = this.#requireDraft(draftId)
      refuseUnlessLive(draft, 'deleted')
      const queued = this.#add({ accountId: draft.accountId, kind: 'post.delete', queueKey: draft.weblogPostUri, draftId, payload: {} })
      this.#settleDraft(draftId)
      return queued
    })
    return this.#queued(operation)
  }

  /** Queues a media copy for the weblog's UploadURI; the operation's result is its public URL. */
  enqueueUpload(upload: NewUpload): Operation {
    this.#requireMedia(upload.hash)
    const name = upload.name.trim()
    if (name === '') throw new CoreError('invalid-argument', 'A file needs a name to be uploaded; give it one.')
    return this.#queued(
      this.#add({ accountId: upload.accountId, kind: 'upload', queueKey: upload.weblogPostUri, draftId: null, payload: { hash: upload.hash, name } }),
    )
  }

  /** Queues a media copy as a photo of an album. */
  enqueuePhoto(photo: NewPhoto): Operation {
    this.#requireMedia(photo.hash)
    const title = photo.title.trim()
    if (title === '') throw new CoreError('invalid-argument', 'A photo needs a title before it can go to the album; give it one.')
    const payload = { hash: photo.hash, title, caption: photo.caption ?? null, filename: photo.filename ?? null, stripGps: photo.stripGps ?? false }
    return this.#queued(this.#add({ accountId: photo.accountId, kind: 'photo', queueKey: photo.albumUri, draftId: null, payload }))
  }

  enqueueListItem(listItem: NewListItem): Operation {
    return this.#queued(
      this.#add({ accountId: listItem.accountId, kind: 'list-item', queueKey: listItem.listUri, draftId: null, payload: { item: listItem.item } }),
    )
  }

  // ── The person's decisions ──────────────────────────────────────────────────────────────────────────────────

  /** Queues a stopped operation again as it is (a conflict is checked afresh), or makes a waiting one due now. */
  retry(operationId: number): void {
    const operation = this.#requireOperation(operationId)
    if (operation.state === 'sending' || operation.state === 'done') return
    const changed = this.#transaction(() => {
      const requeued =
        operation.state === 'queued'
          ? this.#outbox.reschedule(operation, { nextAttemptAt: 0, uncertain: operation.uncertain, lastError: operation.lastError })
          : this.#outbox.requeue(operation)
      if (operation.draftId) this.#settleDraft(operation.draftId)
      return requeued
    })
    // Its server out of reach is tried at once too: the operation goes the moment it answers.
    if (!this.#reachability.isReachable(operation.queueKey)) this.#reachability.probeNow()
    this.#queued(changed)
  }

  /**
   * Drops an operation that has not gone out, with the ones of the same draft that build on a create it would have
   * made. The draft keeps its text.
   */
  discard(operationId: number): void {
    const operation = this.#requireOperation(operationId)
    if (operation.state === 'done') return
    if (operation.state === 'sending') {
      throw new CoreError('rejected', 'This change is being sent right now. Wait for it to finish, then discard it if you still want to.')
    }
    this.#transaction(() => {
      const dependants = operation.kind === 'post.create' && operation.draftId ? this.#outbox.openOfDraft(operation.draftId) : [operation]
      for (const dropped of dependants) {
        if (dropped.id >= operation.id && dropped.state !== 'sending') this.#outbox.remove(dropped)
      }
      if (operation.draftId) this.#settleDraft(operation.draftId)
    })
    this.#emitChanged(null, operation.draftId)
    this.#schedulePump()
  }

  /**
   * The person keeps the weblog's version of a post in conflict: the draft takes the server's text (its own stays in
   * the draft's history) and stands on that version, and the stopped update is dropped. Nothing is sent.
   */
  keepServerCopy(draftId: string): void {
    this.#transaction(() => {
      const draft = this.#requireDraft(draftId)
      if (draft.state !== 'conflict' || draft.conflict === null) {
        const title = draft.title.trim() || 'Untitled'
        throw new CoreError('rejected', `“${title}” is no longer in conflict with the weblog, so there is no other version to keep. Reopen it to see where it stands.`)
      }
      const { server } = draft.conflict
      this.#drafts.save(
        draftId,
        { title: server.title, content: server.content, categories: server.categories, summary: server.summary ?? '' },
        { newRevision: true, reason: 'from-weblog' },
      )
      this.#drafts.clearUnpublishedChanges(draftId)
      for (const operation of this.#outbox.openOfDraft(draftId)) if (operation.state === 'conflict') this.#outbox.remove(operation)
      this.#settleDraft(draftId, null, remoteOf(server))
    })
    this.#emitChanged(null, draftId)
    this.#schedulePump()
  }

  /** The person signed in again: the account's operations go out again. */
  resume(accountId: string): void {
    if (!this.#paused.delete(accountId)) return
    this.#emitChanged(null)
    this.#schedulePump()
  }

  /**
   * Stops starting the account's operations and resolves once none is on the wire, so its rows can be deleted
   * (Accounts.remove) without an answer arriving for them. The function it resolves to lets the engine go on, with
   * the outbox counted afresh and the pause of an account no longer there forgotten.
   */
  async holdAccount(accountId: string): Promise<() => void> {
    this.#held.add(accountId)
    for (;;) {
      const sending = this.#outbox.open(accountId).filter((operation) => operation.state === 'sending')
      const lanes = sending.flatMap((operation) => this.#running.get(operation.queueKey) ?? [])
      if (lanes.length === 0) break
      await Promise.allSettled(lanes)
    }
    return () => {
      this.#held.delete(accountId)
      if (!this.#outbox.hasAccount(accountId)) this.#paused.delete(accountId)
      this.#outbox.recount()
      this.#emitChanged(null)
      this.#schedulePump()
    }
  }

  /**
   * Resolves once everything queued so far is on the disk itself. A queued operation survives the app crashing or
   * being killed as soon as the call that queued it returns; this makes it survive a power cut too (syncToDisk).
   */
  persisted(): Promise<void> {
    return this.#store.syncToDisk()
  }

  /** Makes every waiting operation due now, and probes the servers that could not be reached: the network is back, or the person asked to send. */
  sendNow(): void {
    this.#outbox.makeAllDue()
    this.#reachability.probeNow()
    this.#schedulePump()
  }

  // ── What is there ───────────────────────────────────────────────────────────────────────────────────────────

  /** Operations not yet done, oldest first. */
  operations(accountId?: string): Operation[] {
    return this.#outbox.open(accountId)
  }

  /** Until when (ms) the draft's post waits in the outbox for its date; 0 when it is not held. */
  heldUntil(draftId: string): number {
    const until = Math.max(0, ...this.#outbox.openOfDraft(draftId).map(heldUntil))
    return until > this.#clock.now() ? until : 0
  }

  operation(operationId: number): Operation | null {
    return this.#outbox.get(operationId)
  }

  counts(): OutboxCounts {
    return this.#outbox.counts()
  }

  /** How many operations wait (queued or being sent) for each server, by origin. */
  waitingByServer(): Map<string, number> {
    const waiting = new Map<string, number>()
    for (const [queueKey, count] of this.#outbox.waitingByQueue()) {
      const origin = originOf(queueKey)
      waiting.set(origin, (waiting.get(origin) ?? 0) + count)
    }
    return waiting
  }

  pausedAccounts(): PausedAccount[] {
    return [...this.#paused].map(([accountId, reason]) => ({ accountId, reason }))
  }

  on<E extends keyof SyncEvents>(event: E, listener: (payload: SyncEvents[E]) => void): () => void {
    const listeners = this.#listeners[event] as Set<(payload: SyncEvents[E]) => void>
    listeners.add(listener)
    return () => listeners.delete(listener)
  }

  // ── Running ─────────────────────────────────────────────────────────────────────────────────────────────────

  /** Sends operations as they fall due, until `stop`. */
  start(): void {
    if (this.#started) return
    this.#started = true
    this.#outbox.forgetDone(this.#clock.now() - DONE_KEPT_MS)
    this.#schedulePump()
  }

  /** Stops starting operations and waits for those under way to finish. */
  async stop(): Promise<void> {
    this.#started = false
    this.#disarm()
    this.#reachability.stop()
    const stopped = new Error('The sync engine stopped before the outbox was flushed.')
    for (const waiter of [...this.#flushWaiters.splice(0), ...this.#drainWaiters.splice(0)]) waiter.reject(stopped)
    await Promise.allSettled([...this.#running.values()])
  }

  /** Sends every operation that is due, and resolves once none is due or under way (later retries stay queued). */
  flush(): Promise<void> {
    return this.#wait(this.#flushWaiters)
  }

  /**
   * Sends until every operation is done or waits for the person (needs attention, conflict, paused account),
   * retries included.
   */
  drain(): Promise<void> {
    return this.#wait(this.#drainWaiters)
  }

  #wait(waiters: Waiter[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      waiters.push({ resolve, reject })
      this.#schedulePump()
    })
  }

  #schedulePump(): void {
    if (this.#pumpQueued) return
    this.#pumpQueued = true
    queueMicrotask(() => {
      this.#pumpQueued = false
      this.#pump()
    })
  }

  /** Starts every head of a queue that is due, as far as `concurrency` allows, and wakes up for the next one. */
  #pump(): void {
    if (!this.#active) return
    let waiting = false
    let wakeAt = Number.POSITIVE_INFINITY
    this.#starved = false
    const waitingQueues: string[] = []
    try {
      const now = this.#clock.now()
      for (const head of this.#outbox.heads()) {
        if (head.state === 'sending' || (head.state === 'queued' && !this.#paused.has(head.accountId))) waitingQueues.push(head.queueKey)
        if (head.state !== 'queued' || this.#paused.has(head.accountId) || this.#held.has(head.accountId) || this.#running.has(head.queueKey)) continue
        waiting = true
        // Its server is being probed, and wakes the queue when it answers (serverBack).
        if (!this.#reachability.isReachable(head.queueKey)) continue
        if (dueAt(head) > now) wakeAt = Math.min(wakeAt, dueAt(head))
        else if (this.#running.size < this.#concurrency) this.#launch(head)
        else this.#starved = true
      }
    } catch (error) {
      this.#broken(error)
      return
    }
    this.#reachability.setWaiting(waitingQueues)
    this.#arm(wakeAt)
    if (this.#running.size > 0) return
    for (const waiter of this.#flushWaiters.splice(0)) waiter.resolve()
    if (!waiting) for (const waiter of this.#drainWaiters.splice(0)) waiter.resolve()
  }

  get #active(): boolean {
    return this.#started || this.#flushWaiters.length > 0 || this.#drainWaiters.length > 0
  }

  #arm(wakeAt: number): void {
    const needed = Number.isFinite(wakeAt) && (this.#started || this.#drainWaiters.length > 0)
    if (!needed) return this.#disarm()
    if (wakeAt === this.#timerAt) return
    this.#disarm()
    this.#timerAt = wakeAt
    this.#cancelTimer = this.#clock.setTimer(
      () => {
        this.#cancelTimer = null
        this.#timerAt = Number.POSITIVE_INFINITY
        this.#pump()
      },
      Math.max(0, wakeAt - this.#clock.now()),
    )
  }

  /** A server that could not be reached answers again: what waits for it goes now, not at its backoff time. */
  #serverBack(origin: string): void {
    // Stopped, the store may be closed: the queues are looked at again when the engine runs.
    if (!this.#active) return
    for (const head of this.#outbox.heads()) if (originOf(head.queueKey) === origin) this.#outbox.makeQueueDue(head.queueKey)
    this.#schedulePump()
  }

  #disarm(): void {
    this.#cancelTimer?.()
    this.#cancelTimer = null
    this.#timerAt = Number.POSITIVE_INFINITY
  }

  /** The local store failed: nothing can be recorded, so nothing more is sent. */
  #broken(error: unknown): void {
    this.#started = false
    this.#disarm()
    for (const waiter of [...this.#flushWaiters.splice(0), ...this.#drainWaiters.splice(0)]) waiter.reject(error)
  }

  #launch(head: Operation): void {
    const lane: Promise<void> = this.#runQueue(head)
      .catch((error: unknown) => this.#broken(error))
      .finally(() => {
        if (this.#running.get(head.queueKey) === lane) this.#running.delete(head.queueKey)
        this.#schedulePump()
      })
    this.#running.set(head.queueKey, lane)
  }

  /**
   * Sends a queue's operations one after another, from `head`, while they are due; the queue gives up its turn when
   * another queue is waiting for one. Each operation is marked `sending` (committed) before its request goes out, so
   * after a crash a restart checks for anything that may have landed. An answer is recorded in the same commit that
   * marks the next operation `sending`: one commit per operation.
   */
  async #runQueue(head: Operation): Promise<void> {
    let current: Attempt = { before: head, sending: this.#transaction(() => this.#outbox.markSending(head)) }
    this.#emitChanged(current.sending)
    let answer = this.#send(current)
    for (;;) {
      const result = await answer
      if (!result.ok) {
        this.#failed(current.sending, judge(result.error, current.sending, current.before.uncertain))
        return
      }
      const { outcome } = result
      const answered = current.sending
      const next = outcome.kind === 'done' ? this.#dueAfter(answered) : null
      const { recorded, following } = this.#transaction(() => ({
        recorded: this.#record(answered, outcome),
        following: next && { before: next, sending: this.#outbox.markSending(next) },
      }))
      if (following === null) {
        this.#emitChanged(recorded)
        return
      }
      // The next request leaves before listeners run; they are told in queue order: done, then sending.
      answer = this.#send(following)
      this.#emitChanged(recorded)
      this.#emitChanged(following.sending)
      current = following
    }
  }

  /** Sends an operation marked `sending`, as it stood before (only an earlier attempt that may have landed calls for checking first). */
  #send({ before, sending }: Attempt): Promise<{ ok: true; outcome: Outcome } | { ok: false; error: unknown }> {
    return this.#sendOperation({ ...sending, uncertain: before.uncertain }).then(
      (outcome) => {
        // Streamed uploads do not go through the observed fetch: their outcome is told here.
        this.#reachability.answered(sending.queueKey)
        return { ok: true, outcome }
      },
      (error: unknown) => {
        if (error instanceof RequestFailure) {
          if (error.kind === 'unreachable') this.#reachability.unreachable(sending.queueKey, error.message)
          else if (error.status !== null) this.#reachability.answered(sending.queueKey)
        }
        return { ok: false, error }
      },
    )
  }

  /** The operation after `operation` in its queue when it may go on at once: due, its account not paused, no other queue waiting. */
  #dueAfter(operation: Operation): Operation | null {
    if (!this.#active || this.#starved || this.#held.has(operation.accountId)) return null
    const next = this.#outbox.nextAfter(operation)
    if (next === null || next.state !== 'queued' || dueAt(next) > this.#clock.now() || this.#paused.has(next.accountId) || this.#held.has(next.accountId)) {
      return null
    }
    return next
  }

  #record(operation: Operation, outcome: Outcome): Operation {
    if (outcome.kind === 'conflict') {
      const message = `“${postTitle(operation)}” was changed on the weblog since you last published it. Both versions are kept: compare them, then publish yours again or keep the weblog’s.`
      this.#drafts.setConflict(operation.draftId!, outcome.server)
      return this.#outbox.stop(operation, { state: 'conflict', uncertain: false, lastError: message })
    }
    const done = this.#outbox.markDone(operation, outcome.result)
    if (operation.draftId && outcome.post && (operation.kind === 'post.create' || operation.kind === 'post.update')) {
      this.#drafts.setDroppedCategories(operation.draftId, droppedCategories(operation.payload.post.categories, outcome.post.categories))
    }
    if (operation.draftId) {
      this.#settleDraft(operation.draftId, null, outcome.post && remoteOf(outcome.post), operation.kind === 'post.delete')
    }
    return done
  }

  #failed(operation: Operation, verdict: Verdict): void {
    const recorded = this.#transaction(() => {
      const { uncertain, message } = verdict
      let failed: Operation
      if (verdict.next === 'stop') {
        failed = this.#outbox.stop(operation, { state: 'needs-attention', uncertain, lastError: message })
      } else {
        const delay = verdict.next === 'retry' ? retryDelay(operation.attempts, this.#retry, this.#random, verdict.retryAfterMs) : 0
        failed = this.#outbox.reschedule(operation, { nextAttemptAt: this.#clock.now() + delay, uncertain, lastError: message })
      }
      if (operation.draftId) this.#settleDraft(operation.draftId, message)
      return failed
    })
    if (verdict.next === 'pause') this.#paused.set(operation.accountId, verdict.message)
    this.#emitChanged(recorded)
  }

  // ── Sending ─────────────────────────────────────────────────────────────────────────────────────────────────

  async #sendOperation(operation: Operation): Promise<Outcome> {
    const client = this.#accounts.atomClient(operation.accountId)
    switch (operation.kind) {
      case 'post.create':
        return this.#create(operation, client)
      case 'post.update':
        return this.#update(operation, client)
      case 'post.delete':
        return this.#delete(operation, client)
      case 'upload':
        return this.#upload(operation, client)
      case 'photo':
        return this.#photo(operation, client)
      case 'list-item':
        return this.#listItem(operation, client)
    }
  }

  async #create(operation: Operation & { kind: 'post.create' }, client: AtomClient): Promise<Outcome> {
    const { post } = operation.payload
    if (operation.uncertain) {
      const feedUri = this.#caches.weblog(operation.accountId, operation.queueKey)?.feedUri ?? operation.queueKey
      const found = await findCreatedPost(client, feedUri, post, (editUri) => this.#outbox.isClaimed(editUri, operation.draftId))
      if (found) {
        // The feed's copy may be abridged; the post's own is the version later edits are checked against.
        const copy = await client.getPost(found.editUri)
        return done<'post.create'>({ ...publishedOf(copy), adopted: true }, copy)
      }
    }
    const text = await this.#withPublicMedia(operation, client, post)
    const created = await client.createPost(operation.queueKey, { ...text, issued: post.issued }, { idempotencyKey: operation.idempotencyKey })
    return done<'post.create'>({ ...publishedOf(created), adopted: false }, created)
  }

  async #update(operation: Operation & { kind: 'post.update' }, client: AtomClient): Promise<Outcome> {
    const remote = this.#requireDraft(operation.draftId!).remote
    const title = postTitle(operation)
    if (remote === null) {
      throw new CoreError('rejected', `“${title}” was never published, so there is no post on the weblog to change. Discard this change and publish the draft again.`)
    }
    const { issued } = operation.payload.post
    const text = await this.#withPublicMedia(operation, client, operation.payload.post)
    const server = await this.#serverCopy(client, remote.editUri, title)
    if (sameText(server, text) && sameProperties(server, { ...text, issued })) {
      return done<'post.update'>({ ...publishedOf(server), alreadyApplied: true }, server)
    }
    if (changedSince(server, remote)) return { kind: 'conflict', server }
    try {
      const updated = await client.updatePost(remote.editUri, { ...text, issued })
      return done<'post.update'>({ ...publishedOf(updated), alreadyApplied: false }, updated)
    } catch (error) {
      // The server itself saw a newer version (409/412): keep both, as when we see it first.
      if (error instanceof RequestFailure && error.kind === 'conflict') return { kind: 'conflict', server: await this.#serverCopy(client, remote.editUri, title) }
      throw error
    }
  }

  async #serverCopy(client: AtomClient, editUri: string, title: string): Promise<RemotePost> {
    try {
      return await client.getPost(editUri)
    } catch (error) {
      if (!(error instanceof RequestFailure && error.kind === 'not-found')) throw error
      throw new CoreError(
        'not-found',
        `“${title}” is no longer on the weblog: it was deleted there. Discard this change, or copy the text into a new draft to publish it again.`,
        { cause: error },
      )
    }
  }

  async #delete(operation: Operation & { kind: 'post.delete' }, client: AtomClient): Promise<Outcome> {
    const remote = this.#requireDraft(operation.draftId!).remote
    if (remote === null) return done<'post.delete'>({ outcome: 'never-published' })
    return done<'post.delete'>({ outcome: await client.deletePost(remote.editUri) })
  }

  async #upload(operation: Operation & { kind: 'upload' }, client: AtomClient): Promise<Outcome> {
    const { hash, name } = operation.payload
    const url =
      this.#media.uploadedUrl(operation.queueKey, hash) ??
      (await this.#uploadMedia(operation, client, this.#copyToSend(hash, `“${name}”`), name, operation.idempotencyKey, hash))
    return done<'upload'>({ url })
  }

  async #photo(operation: Operation & { kind: 'photo' }, client: AtomClient): Promise<Outcome> {
    const { hash, title, caption, filename, stripGps } = operation.payload
    const copy = this.#copyToSend(hash, `the photo “${title}”`)
    const result = await client.postPhoto(
      operation.queueKey,
      { path: copy.path, title, summary: caption, type: copy.type, filename, stripGps },
      { idempotencyKey: operation.idempotencyKey, onProgress: (sent, total) => this.#emitProgress(operation.id, sent, total) },
    )
    return done<'photo'>(result)
  }

  async #listItem(operation: Operation & { kind: 'list-item' }, client: AtomClient): Promise<Outcome> {
    return done<'list-item'>(await client.postListItem(operation.queueKey, operation.payload.item, { idempotencyKey: operation.idempotencyKey }))
  }

  /**
   * The post's text with each image still on this computer uploaded through the weblog's UploadURI and referred to by
   * its public URL: an image at the width it is shown at, never wider than the weblog's maximum (scaled in the image
   * worker), a link to the file with the file as added. Each (weblog, use) goes up once, so the same photo at two
   * widths is two files. The same snapshot gives the same text on every attempt, so a repeated POST is the same
   * request under the same Idempotency-Key.
   */
  async #withPublicMedia(operation: Operation, client: AtomClient, post: PostSnapshot): Promise<PostSnapshot> {
    const uses = localMediaUses(post.content)
    if (uses.length === 0) return post
    const what = `an image in “${post.title.trim() || 'Untitled'}”`
    const { maxImageWidth } = this.#weblogSettings.get(operation.accountId, operation.queueKey)
    const urls = new Map<string, string>()
    for (const use of uses) urls.set(mediaUseKey(use), await this.#publicUrlOf(operation, client, use, maxImageWidth, what))
    return { ...post, content: withPublicMedia(post.content, (use) => urls.get(mediaUseKey(use))) }
  }

  async #publicUrlOf(operation: Operation, client: AtomClient, use: MediaUse, maxImageWidth: number, what: string): Promise<string> {
    const original = async () =>
      this.#media.uploadedUrl(operation.queueKey, use.hash) ??
      (await this.#uploadMedia(operation, client, this.#copyToSend(use.hash, what), null, `${operation.idempotencyKey}/${use.hash}`, use.hash))
    if (use.as === 'file') return original()
    const width = Math.min(use.width ?? maxImageWidth, maxImageWidth)
    // Remembered under the hash and the width it was sent at: uploaded_media's hash column names the sized file.
    const sizedKey = `${use.hash}@${width}w`
    const known = this.#media.uploadedUrl(operation.queueKey, sizedKey)
    if (known !== null) return known
    const copy = this.#copyToSend(use.hash, what)
    const target = this.#media.scratchPath()
    try {
      const sized = await this.#images.run({ kind: 'web-size', path: copy.path, type: copy.type, width, target })
      if (sized === null) {
        const url = await original()
        this.#media.rememberUpload(operation.queueKey, sizedKey, url)
        return url
      }
      const type = sized.type as ImageType
      const name = `${use.hash.slice(0, 16)}-${sized.width}w.${IMAGE_EXTENSIONS[type]}`
      return await this.#uploadMedia(operation, client, { path: target, type }, name, `${operation.idempotencyKey}/${sizedKey}`, sizedKey)
    } finally {
      await rm(target, { force: true })
    }
  }

  /** Uploads a file to the weblog of `operation` and remembers where it went, at once, as `rememberAs`. */
  async #uploadMedia(
    operation: Operation,
    client: AtomClient,
    file: Pick<MediaCopy, 'path' | 'type'>,
    name: string | null,
    idempotencyKey: string,
    rememberAs: string,
  ): Promise<string> {
    const uploadUri = await this.#uploadUriOf(operation.accountId, operation.queueKey)
    const { url } = await client.upload(
      uploadUri,
      { path: file.path, name: name ?? `${rememberAs.slice(0, 16)}${extname(file.path)}`, type: file.type },
      { idempotencyKey, onProgress: (sent, total) => this.#emitProgress(operation.id, sent, total) },
    )
    this.#media.rememberUpload(operation.queueKey, rememberAs, url)
    return url
  }

  async #uploadUriOf(accountId: string, weblogPostUri: string): Promise<string> {
    let weblog: Weblog | null = this.#caches.weblog(accountId, weblogPostUri)
    if (weblog?.uploadUri == null) {
      const weblogs = await this.#accounts.weblogs(accountId)
      this.#caches.replaceWeblogs(accountId, weblogs)
      weblog = weblogs.find((candidate) => candidate.postUri === weblogPostUri) ?? null
    }
    if (weblog === null) {
      throw new CoreError('not-found', `The weblog at ${weblogPostUri} is no longer among this account's weblogs, so nothing can be uploaded to it.`)
    }
    if (weblog.uploadUri === null) {
      throw new CoreError(
        'rejected',
        `The weblog “${weblog.title}” does not take uploads (its server names no UploadURI), so images cannot be sent to it. Remove them from the post, or link to images kept elsewhere.`,
      )
    }
    return weblog.uploadUri
  }

  #copyToSend(hash: string, what: string): MediaCopy {
    const copy = this.#media.get(hash)
    if (copy === null) {
      throw new CoreError('not-found', `The file of ${what} is no longer in Blogdesk's media folder, so it cannot be sent. Add the file again.`)
    }
    return copy
  }

  // ── Records ─────────────────────────────────────────────────────────────────────────────────────────────────

  #add<K extends OperationKind>(operation: NewOperation<K>): Operation {
    if (!this.#outbox.hasAccount(operation.accountId)) {
      throw new CoreError('not-found', 'That account is no longer in Blogdesk; it may have been removed.')
    }
    return this.#outbox.add(operation)
  }

  #queued(operation: Operation): Operation {
    this.#emitChanged(operation)
    this.#schedulePump()
    return operation
  }

  /**
   * Brings the draft's state in line with its operations: stopped ones first (the person must act), then a delete
   * under way, then queued; with none left, published (or deleted, or back to a draft). A draft stays `queued` while
   * its operation is on the wire: the operation's own state (and the `changed` event) says `sending`, which spares a
   * write of the draft per request.
   */
  #settleDraft(draftId: string, lastError: string | null = null, remote?: DraftRemote, deleted = false): void {
    const open = this.#outbox.openOfDraft(draftId)
    const stopped = open.find((operation) => STOPPED_STATES.has(operation.state))
    let state: DraftState
    if (stopped) state = stopped.state === 'conflict' ? 'conflict' : 'needs-attention'
    else if (open.some((operation) => operation.kind === 'post.delete')) state = 'deleting'
    else if (open.length > 0) state = 'queued'
    else if (deleted) state = 'deleted'
    else if (remote) state = 'published'
    else {
      const draft = this.#requireDraft(draftId)
      state = draft.state === 'deleted' ? 'deleted' : draft.remote ? 'published' : 'draft'
    }
    this.#drafts.setState(draftId, state, { lastError: stopped?.lastError ?? (open.length > 0 ? lastError : null), ...(remote ? { remote } : {}) })
  }

  /** Operations a run that stopped mid-request left in `sending` are queued again, still uncertain. */
  #recoverInterrupted(): void {
    const interrupted = this.#outbox.open().filter((operation) => operation.state === 'sending')
    if (interrupted.length === 0) return
    this.#transaction(() => {
      this.#outbox.recoverInterrupted()
      for (const draftId of new Set(interrupted.map((operation) => operation.draftId))) if (draftId) this.#settleDraft(draftId)
    })
  }

  #nowW3c(): string {
    return formatW3cDate(new Date(this.#clock.now()))
  }

  #transaction<T>(work: () => T): T {
    try {
      return this.#store.transaction(work)
    } catch (error) {
      this.#outbox.recount()
      throw error
    }
  }

  #requireDraft(draftId: string): Draft {
    const draft = this.#drafts.get(draftId)
    if (!draft) throw new CoreError('not-found', 'That draft is no longer in Blogdesk; it may have been deleted.')
    return draft
  }

  #requireOperation(operationId: number): Operation {
    const operation = this.#outbox.get(operationId)
    if (!operation) throw new CoreError('not-found', 'That change is no longer in the outbox; it may have been discarded.')
    return operation
  }

  #requireMedia(hash: string): void {
    if (this.#media.get(hash) === null) {
      throw new CoreError('invalid-argument', 'That file is not in Blogdesk’s media folder; add it first, then queue it.')
    }
  }

  #emitChanged(operation: Operation | null, draftId: string | null = operation?.draftId ?? null): void {
    if (this.#listeners.changed.size === 0) return
    const change: SyncChange = { operation, draftId, counts: this.#outbox.counts(), paused: this.pausedAccounts() }
    for (const listener of this.#listeners.changed) tell(listener, change)
  }

  #emitProgress(operationId: number, sent: number, total: number): void {
    for (const listener of this.#listeners.progress) tell(listener, { operationId, sent, total })
  }
}

/** A listener that throws must not stop the sending; its error is thrown again on its own, so it is not lost. */
function tell<T>(listener: (payload: T) => void, payload: T): void {
  try {
    listener(payload)
  } catch (error) {
    setImmediate(() => {
      throw error
    })
  }
}

function done<K extends OperationKind>(result: OperationResults[K], post?: RemotePost): Outcome {
  return post ? { kind: 'done', result, post } : { kind: 'done', result }
}

function publishedOf(post: RemotePost): PublishedPost {
  return { editUri: post.editUri, id: post.id, permalink: post.permalink }
}

/** The version of the server's copy a draft now stands on. */
function baseOf(post: RemotePost): Pick<DraftRemote, 'baseModified' | 'baseContentHash'> {
  return { baseModified: post.modified, baseContentHash: contentHash(post) }
}

function remoteOf(post: RemotePost): DraftRemote {
  return { ...publishedOf(post), ...baseOf(post) }
}

/**
 * Whether the server's copy moved on from the draft's base version: its text differs from the base's (by hash; a
 * server's `modified` has only one-second resolution, and a save that changed nothing is no conflict), or, for a
 * base without a hash, its modified time differs. With neither, nothing can tell, and the update goes ahead.
 */
function changedSince(server: RemotePost, base: DraftRemote): boolean {
  if (base.baseContentHash !== null) return contentHash(server) !== base.baseContentHash
  if (base.baseModified !== null && server.modified !== null) return server.modified !== base.baseModified
  return false
}

/** Whether the server's copy has the excerpt and date being sent (a date not sent is the server's to keep). */
function sameProperties(server: RemotePost, sent: PostSnapshot & { issued?: string | null }): boolean {
  const sameDate = sent.issued == null || (server.issued !== null && Date.parse(server.issued) === Date.parse(sent.issued))
  return (server.summary ?? '') === (sent.summary ?? '') && sameDate
}

/**
 * The categories sent that the server's answer no longer files the post under (Movable Type keeps only the first):
 * the post says so instead of pretending. Compared trimmed and without regard to case, as servers match names.
 */
function droppedCategories(sent: readonly string[], kept: readonly string[]): string[] {
  const keptNames = new Set(kept.map((name) => name.trim().toLowerCase()))
  return sent.filter((name) => !keptNames.has(name.trim().toLowerCase()))
}

function postTitle(operation: Operation): string {
  const title = operation.kind === 'post.create' || operation.kind === 'post.update' ? operation.payload.post.title.trim() : ''
  return title || 'Untitled'
}

function refuseUnlessLive(draft: Draft, what: 'published' | 'deleted'): void {
  if (draft.state !== 'deleting' && draft.state !== 'deleted') return
  const title = draft.title.trim() || 'Untitled'
  throw new CoreError(
    'rejected',
    draft.state === 'deleted'
      ? `“${title}” was deleted from the weblog, so it cannot be ${what} again. Copy its text into a new draft to use it.`
      : `“${title}” is being deleted from the weblog, so it cannot be ${what} now.`,
  )
}

/**
 * What a failure means for the operation. `uncertainBefore` says whether an earlier attempt may have reached the
 * server: a failure that shows this one did not (nothing connected, or the server said it did nothing) leaves that
 * as it was; one after which this attempt may have landed makes the next attempt check first.
 */
function judge(error: unknown, operation: Operation, uncertainBefore: boolean): Verdict {
  if (error instanceof RequestFailure) {
    switch (error.kind) {
      case 'unreachable':
        return { next: 'retry', uncertain: uncertainBefore, retryAfterMs: null, message: error.message }
      case 'outcome-unknown':
        return { next: 'retry', uncertain: true, retryAfterMs: null, message: error.message }
      case 'server-busy': {
        // 429 and 503 say the server did nothing; any other 5xx may come after it did part or all of the work.
        const didNothing = error.status === 429 || error.status === 503
        return { next: 'retry', uncertain: uncertainBefore || !didNothing, retryAfterMs: error.retryAfterMs, message: error.message }
      }
      case 'clock-skew':
        return { next: 'retry', uncertain: uncertainBefore, retryAfterMs: null, message: error.message }
      case 'auth':
        return { next: 'pause', uncertain: uncertainBefore, message: error.message }
      case 'refused':
      case 'not-found':
      case 'conflict': {
        // A success status with an answer that could not be used: the server did act.
        const acted = error.status !== null && error.status >= 200 && error.status < 300
        return { next: 'stop', uncertain: uncertainBefore || acted, message: error.message }
      }
    }
  }
  if (error instanceof CoreError) {
    if (error.code === 'auth') return { next: 'pause', uncertain: uncertainBefore, message: error.message }
    if (error.code === 'offline') return { next: 'retry', uncertain: uncertainBefore, retryAfterMs: null, message: error.message }
    return { next: 'stop', uncertain: uncertainBefore, message: error.message }
  }
  const detail = error instanceof Error ? error.message : String(error)
  return {
    next: 'stop',
    // Where a fault of our own struck is unknown: the next attempt checks before sending again.
    uncertain: true,
    message: `Blogdesk could not send ${describe(operation)} because of a fault of its own (${detail}). Try again; if it happens again, please report it.`,
  }
}

function describe(operation: Operation): string {
  switch (operation.kind) {
    case 'post.create':
    case 'post.update':
      return `“${postTitle(operation)}”`
    case 'post.delete':
      return 'the deletion of a post'
    case 'upload':
      return `“${operation.payload.name}”`
    case 'photo':
      return `the photo “${operation.payload.title}”`
    case 'list-item':
      return 'a list item'
  }
}
