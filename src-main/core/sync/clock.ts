// Time for the sync engine, injectable so tests can step through backoff and Retry-After without waiting.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Calls `callback` once `ms` have passed on this clock; returns a function that cancels it. */
  setTimer(callback: () => void, ms: number): () => void
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => {
    const timer = setTimeout(callback, ms)
    return () => clearTimeout(timer)
  },
}

export interface RetryPolicy {
  /** The ceiling of the first retry's delay; it doubles with each attempt… */
  baseMs: number
  /** …up to this. */
  capMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 2_000, capMs: 5 * 60_000 }

/**
 * How long to wait before attempt `attempt + 1`: exponential backoff with full jitter (a uniformly random delay up
 * to the ceiling, so many clients coming back at once spread out), and never sooner than the server's Retry-After.
 */
export function retryDelay(attempt: number, policy: RetryPolicy, random: () => number, retryAfterMs: number | null): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30))
  const jittered = Math.floor(random() * ceiling)
  return retryAfterMs === null ? jittered : Math.max(retryAfterMs, jittered)
}
