// Failed sign-ins on the OAuth authorize page, counted per account and per client address across request tokens (a
// request token is free, so its own limit alone let anyone guess as fast as they asked for new ones). Past a few
// failures each further attempt waits a pause that doubles, up to a cap. Only the sign-in page is throttled: the owner
// publishes with the API password over WSSE, which no one else's guessing can pause.

import type { FailurePolicy, SignInFailures } from '../store/sign-in-failures'

/** Failures allowed before the first pause: per account, and per address (people behind one router share it). */
export const FREE_FAILURES = { account: 5, address: 20 } as const
/** Each further failure doubles the pause, from a minute up to a quarter of an hour. */
const PAUSES_MS = [1, 2, 4, 8, 15].map((minutes) => minutes * 60_000)
/**
 * Failures are forgotten after this long without another, which bounds what is kept by the attempts of the last hour
 * (each one a deliberately slow password check); a guesser gets about nine tries an hour at one account.
 */
const FORGET_AFTER_MS = 60 * 60_000

export type Counted = keyof typeof FREE_FAILURES

export type SignInVerdict = { allowed: true; attempt: SignInAttempt } | { allowed: false; pausedBy: Counted; pausedForMs: number }

/** An attempt that was let through and counted as failed until it proves otherwise. */
export interface SignInAttempt {
  /** The password was right: the account's failures are forgotten, and this one no longer counts for the address. */
  succeeded(): Promise<void>
  /** How many failures in a row the account now has. */
  readonly accountFailures: number
}

const COUNTED: readonly Counted[] = ['account', 'address']
const POLICIES: Record<Counted, FailurePolicy> = {
  account: { free: FREE_FAILURES.account, pausesMs: PAUSES_MS },
  address: { free: FREE_FAILURES.address, pausesMs: PAUSES_MS },
}

/**
 * The failures are kept in the store (store/sign-in-failures.ts), so instances sharing a database pause a guesser
 * together: guessing through another instance behind the same balancer gains nothing.
 */
export class SignInThrottle {
  readonly #failures: SignInFailures
  readonly #now: () => number

  constructor(failures: SignInFailures, now: () => number = Date.now) {
    this.#failures = failures
    this.#now = now
  }

  /**
   * Lets an attempt at `username` from `address` through, or says which pause holds it back. An attempt let through
   * counts as a failure at once, before its password is checked, so that attempts sent together cannot all slip in.
   */
  async attempt(username: string, address: string): Promise<SignInVerdict> {
    const now = this.#now()
    const keys: Record<Counted, string> = { account: `account ${username.toLowerCase()}`, address: `address ${address}` }
    const count = await this.#failures.count(
      COUNTED.map((counted) => ({ subject: keys[counted], policy: POLICIES[counted] })),
      now,
      now - FORGET_AFTER_MS,
    )
    if (!count.counted) return { allowed: false, pausedBy: COUNTED[count.pausedBy]!, pausedForMs: count.pausedForMs }
    return {
      allowed: true,
      attempt: {
        accountFailures: count.failures[0]!,
        succeeded: async () => {
          await this.#failures.forget(keys.account)
          await this.#failures.forgiveOne(keys.address)
        },
      },
    }
  }
}
