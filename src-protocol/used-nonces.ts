/**
 * The nonces seen recently, each kept until the moment from which its request would fail the clock check anyway.
 * Memory stays bounded twice over: expired nonces are swept out as time passes, and beyond `capacity` the
 * longest-held nonce is dropped first.
 */
export class UsedNonces {
  private readonly expiries = new Map<string, number>()
  private nextSweepAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly capacity: number,
    private readonly sweepIntervalMs: number,
  ) {}

  get size(): number {
    return this.expiries.size
  }

  /** Records `key` as used until `expiresAt` and tells whether it was already in use at `now`. */
  use(key: string, expiresAt: number, now: number): boolean {
    this.sweep(now)
    const previous = this.expiries.get(key)
    const alreadyUsed = previous !== undefined && previous >= now
    const keepUntil = alreadyUsed ? Math.max(previous, expiresAt) : expiresAt
    // Deleting first moves a re-used key to the back of the eviction order.
    this.expiries.delete(key)
    if (keepUntil >= now) {
      this.expiries.set(key, keepUntil)
      for (const oldest of this.expiries.keys()) {
        if (this.expiries.size <= this.capacity) break
        this.expiries.delete(oldest)
      }
    }
    return alreadyUsed
  }

  private sweep(now: number): void {
    if (now < this.nextSweepAt) return
    for (const [key, expiresAt] of this.expiries) {
      if (expiresAt < now) this.expiries.delete(key)
    }
    this.nextSweepAt = now + this.sweepIntervalMs
  }
}
