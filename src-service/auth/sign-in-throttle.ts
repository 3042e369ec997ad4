// Failed sign-ins on the OAuth authorize page, counted per account and per client address across request tokens (a
// request token is free, so its own limit alone let anyone guess as fast as they asked for new ones). Past a few
// failures each further attempt waits a pause that doubles, up to a cap. Only the sign-in page is throttled: the owner
// publishes with the API password over WSSE, which no one else's guessing can pause.

/** Failures allowed before the first pause: per account, and per address (people behind one router share it). */
export const FREE_FAILURES = { account: 5, address: 20 } as const
const FIRST_PAUSE_MS = 60_000
const LONGEST_PAUSE_MS = 15 * 60_000
/**
 * Failures are forgotten after this long without another, which bounds memory by the attempts of the last hour (each
 * one a deliberately slow password check); a guesser gets about nine tries an hour at one account.
 */
const FORGET_AFTER_MS = 60 * 60_000
const SWEEP_INTERVAL_MS = 60_000

export type Counted = keyof typeof FREE_FAILURES

interface Failures {
  count: number
  /** When the latest failure was counted. */
  at: number
}

export type SignInVerdict = { allowed: true; attempt: SignInAttempt } | { allowed: false; pausedBy: Counted; pausedForMs: number }

/** An attempt that was let through and counted as failed until it proves otherwise. */
export interface SignInAttempt {
  /** The password was right: the account's failures are forgotten, and this one no longer counts for the address. */
  succeeded(): void
  /** How many failures in a row the account now has. */
  readonly accountFailures: number
}

export class SignInThrottle {
  readonly #failures = new Map<string, Failures>()
  readonly #now: () => number
  #nextSweepAt = 0

  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  /**
   * Lets an attempt at `username` from `address` through, or says which pause holds it back. An attempt let through
   * counts as a failure at once, before its password is checked, so that attempts sent together cannot all slip in.
   */
  attempt(username: string, address: string): SignInVerdict {
    const now = this.#now()
    this.#sweep(now)
    const keys = { account: `account ${username.toLowerCase()}`, address: `address ${address}` }
    for (const counted of ['account', 'address'] as const) {
      const pausedForMs = this.#pauseLeft(keys[counted], FREE_FAILURES[counted], now)
      if (pausedForMs > 0) return { allowed: false, pausedBy: counted, pausedForMs }
    }
    const accountFailures = this.#count(keys.account, now)
    this.#count(keys.address, now)
    return {
      allowed: true,
      attempt: {
        accountFailures,
        succeeded: () => {
          this.#failures.delete(keys.account)
          const byAddress = this.#failures.get(keys.address)
          if (byAddress) byAddress.count = Math.max(0, byAddress.count - 1)
        },
      },
    }
  }

  #count(key: string, now: number): number {
    const failures = this.#failures.get(key) ?? { count: 0, at: now }
    failures.count++
    failures.at = now
    this.#failures.set(key, failures)
    return failures.count
  }

  #pauseLeft(key: string, free: number, now: number): number {
    const failures = this.#failures.get(key)
    if (!failures || failures.count < free) return 0
    const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (failures.count - free))
    return Math.max(0, failures.at + pause - now)
  }

  #sweep(now: number): void {
    if (now < this.#nextSweepAt) return
    for (const [key, failures] of this.#failures) if (now - failures.at > FORGET_AFTER_MS) this.#failures.delete(key)
    this.#nextSweepAt = now + SWEEP_INTERVAL_MS
  }
}
