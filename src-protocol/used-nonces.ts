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
    for (const nonces of this.byUser.values()) size += nonces.expiries.size
    return size
  }

  /** Records `nonce` of `user` as spent until `expiresAt` (which must be after `now`), unless it already was. */
  record(user: string, nonce: string, expiresAt: number, now: number): NonceRecording {
    this.sweepAll(now)
    let nonces = this.byUser.get(user)
    if (nonces === undefined) {
      nonces = { expiries: new Map(), earliestExpiry: Number.POSITIVE_INFINITY }
      this.byUser.set(user, nonces)
    }
    const previous = nonces.expiries.get(nonce)
    if (previous !== undefined && previous >= now) return { kind: 'replayed' }
    if (nonces.expiries.size >= this.capacityPerUser && nonces.earliestExpiry < now) sweep(nonces, now)
    if (nonces.expiries.size >= this.capacityPerUser) return { kind: 'full', freeAt: nonces.earliestExpiry + 1 }
    nonces.expiries.set(nonce, expiresAt)
    nonces.earliestExpiry = Math.min(nonces.earliestExpiry, expiresAt)
    return { kind: 'recorded' }
  }

  // Now and then every user's expired nonces go, and users left with none, so idle users cost nothing.
  private sweepAll(now: number): void {
    if (now < this.nextSweepAt) return
    for (const [user, nonces] of this.byUser) {
      sweep(nonces, now)
      if (nonces.expiries.size === 0) this.byUser.delete(user)
    }
    this.nextSweepAt = now + this.sweepIntervalMs
  }
}

interface UserNonces {
  expiries: Map<string, number>
  /** No nonce expires before this, so a full share with nothing expired is refused without a scan. */
  earliestExpiry: number
}

function sweep(nonces: UserNonces, now: number): void {
  let earliest = Number.POSITIVE_INFINITY
  for (const [nonce, expiresAt] of nonces.expiries) {
    if (expiresAt < now) nonces.expiries.delete(nonce)
    else earliest = Math.min(earliest, expiresAt)
  }
  nonces.earliestExpiry = earliest
}
