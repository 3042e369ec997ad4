// A token bucket per client: each holds up to a minute's allowance, refilled continuously, so a client may burst
// to its limit and then goes at the steady rate. Buckets that have filled up again are forgotten, which keeps memory
// bounded by the clients active in the last minute.

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/** Past this many buckets, the full ones (idle for a minute or more) are swept out. */
const SWEEP_THRESHOLD = 10_000

interface Bucket {
  tokens: number
  updated: number
}

export class RateLimiter {
  readonly #capacity: number
  readonly #perMs: number
  readonly #now: () => number
  readonly #buckets = new Map<string, Bucket>()
  #sweepAt = SWEEP_THRESHOLD

  constructor(requestsPerMinute: number, now: () => number = () => performance.now()) {
    if (!(requestsPerMinute > 0)) throw new RangeError(`A rate limit must be above 0 requests a minute, not ${requestsPerMinute}`)
    this.#capacity = requestsPerMinute
    this.#perMs = requestsPerMinute / 60_000
    this.#now = now
  }

  /** Takes one request from `client`'s allowance, or says how long until there is one. */
  take(client: string): RateVerdict {
    const now = this.#now()
    const bucket = this.#refilled(this.#buckets.get(client), now)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      this.#remember(client, bucket, now)
      return { allowed: true }
    }
    this.#remember(client, bucket, now)
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.#perMs / 1000)) }
  }

  #refilled(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket) return { tokens: this.#capacity, updated: now }
    return { tokens: Math.min(this.#capacity, bucket.tokens + (now - bucket.updated) * this.#perMs), updated: now }
  }

  #remember(client: string, bucket: Bucket, now: number): void {
    this.#buckets.set(client, bucket)
    if (this.#buckets.size <= this.#sweepAt) return
    for (const [name, other] of this.#buckets) {
      if (this.#refilled(other, now).tokens >= this.#capacity) this.#buckets.delete(name)
    }
    // When most clients are active, the next sweep waits until there are twice as many, so sweeps stay rare.
    this.#sweepAt = Math.max(SWEEP_THRESHOLD, this.#buckets.size * 2)
  }
}
