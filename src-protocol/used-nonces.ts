/** What recording a nonce came to: new, seen before, or refused because its user's share of memory is full. */
export type NonceRecording = { kind: 'recorded' } | { kind: 'replayed' } | { kind: 'full'; freeAt: number }

/**
 * Where spent nonces are kept: this process's memory (UsedNonces), or a database that several instances of a service
 * share, so that a nonce spent on one is refused on every other. Every ledger keeps the rules UsedNonces states.
 */
export interface NonceLedger {
  /** Records `nonce` of `user` as spent until `expiresAt` (which must be after `now`), unless it already was. */
  record(user: string, nonce: string, expiresAt: number, now: number): NonceRecording | Promise<NonceRecording>
}

/** Makes the ledger of a verifier that keeps at most `capacityPerUser` nonces per user, sweeping every `sweepIntervalMs`. */
export type NonceLedgerFactory = (capacityPerUser: number, sweepIntervalMs: number) => NonceLedger

/**
 * The nonces each user has spent, each kept until the moment from which its request would fail the clock check
 * anyway, and never forgotten before: forgetting a nonce early would let its request be replayed. Memory is bounded
 * per user instead, by refusing: a user whose share is full gets no new nonce until the oldest expires. Only
 * requests that proved the password are recorded, so nobody can fill another user's share.
 */
export class UsedNonces implements NonceLedger {
  private readonly byUser = new Map<string, UserNonces>()
  private nextSweepAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly capacityPerUser: number,
    private readonly sweepIntervalMs: number,
  ) {}

  /** Nonces held for all users together. */
  get size(): number {
    let size = 0
    for (const nonces of this.byUser.values()) size += nonces.size
    return size
  }

  /** Records `nonce` of `user` as spent until `expiresAt` (which must be after `now`), unless it already was. */
  record(user: string, nonce: string, expiresAt: number, now: number): NonceRecording {
    this.sweepAll(now)
    let nonces = this.byUser.get(user)
    if (nonces === undefined) {
      nonces = new UserNonces()
      this.byUser.set(user, nonces)
    }
    if (nonces.spent(nonce, now)) return { kind: 'replayed' }
    nonces.forgetExpired(now)
    if (nonces.size >= this.capacityPerUser) return { kind: 'full', freeAt: nonces.earliestExpiry + 1 }
    nonces.add(nonce, expiresAt)
    return { kind: 'recorded' }
  }

  // Now and then every user's expired nonces go, and users left with none, so idle users cost nothing.
  private sweepAll(now: number): void {
    if (now < this.nextSweepAt) return
    for (const [user, nonces] of this.byUser) {
      nonces.forgetExpired(now)
      if (nonces.size === 0) this.byUser.delete(user)
    }
    this.nextSweepAt = now + this.sweepIntervalMs
  }
}

/**
 * One user's spent nonces, each with its expiry, and the same kept soonest first (a binary min-heap), so that the
 * expired ones are let go one at a time: a share held full costs a step's work per nonce, not a scan of the share.
 */
class UserNonces {
  readonly #expiries = new Map<string, number>()
  /** [expiry, nonce] of every nonce held, soonest at 0. */
  readonly #soonest: [number, string][] = []

  get size(): number {
    return this.#expiries.size
  }

  /** When the first of them expires; call `forgetExpired` first. */
  get earliestExpiry(): number {
    return this.#soonest[0]?.[0] ?? Number.POSITIVE_INFINITY
  }

  /** Spent and not yet expired: a nonce counts as spent through its expiry itself. */
  spent(nonce: string, now: number): boolean {
    const expiresAt = this.#expiries.get(nonce)
    return expiresAt !== undefined && expiresAt >= now
  }

  /** Holds a nonce not spent now; one spent before and expired must have been forgotten (`forgetExpired`). */
  add(nonce: string, expiresAt: number): void {
    this.#expiries.set(nonce, expiresAt)
    const heap = this.#soonest
    heap.push([expiresAt, nonce])
    for (let index = heap.length - 1; index > 0; ) {
      const parent = (index - 1) >> 1
      if (heap[parent]![0] <= expiresAt) break
      ;[heap[parent], heap[index]] = [heap[index]!, heap[parent]!]
      index = parent
    }
  }

  forgetExpired(now: number): void {
    const heap = this.#soonest
    while (heap.length > 0 && heap[0]![0] < now) {
      this.#expiries.delete(heap[0]![1])
      const last = heap.pop()!
      if (heap.length > 0) {
        heap[0] = last
        siftDown(heap)
      }
    }
  }
}

function siftDown(heap: [number, string][]): void {
  for (let index = 0; ; ) {
    const left = index * 2 + 1
    const right = left + 1
    let smallest = index
    if (left < heap.length && heap[left]![0] < heap[smallest]![0]) smallest = left
    if (right < heap.length && heap[right]![0] < heap[smallest]![0]) smallest = right
    if (smallest === index) return
    ;[heap[smallest], heap[index]] = [heap[index]!, heap[smallest]!]
    index = smallest
  }
}
