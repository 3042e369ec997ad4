// Failed sign-ins counted per subject (an account, a client address) in the database, so that every instance sharing
// it counts the same failures and pauses the same guesser (auth/sign-in-throttle.ts decides the policy). Its
// statements go through `get` and `all`: bookkeeping that no rendering shows, so it never invalidates a cached page.
import type { Engine } from './engine'

/** How a subject is throttled: failures let through before the first pause, then each pause in turn (the last repeats). */
export interface FailurePolicy {
  free: number
  pausesMs: readonly number[]
}

export interface CountedSubject {
  subject: string
  policy: FailurePolicy
}

export type FailureCount = { counted: true; failures: number[] } | { counted: false; pausedBy: number; pausedForMs: number }

/** Rows without a failure for this long are swept out at most this often; until then they count as forgotten anyway. */
const SWEEP_INTERVAL_MS = 60_000

class Paused extends Error {
  constructor(
    readonly pausedBy: number,
    readonly pausedForMs: number,
  ) {
    super('paused')
  }
}

export class SignInFailures {
  readonly #db: Engine
  #nextSweepAt = 0

  constructor(db: Engine) {
    this.#db = db
  }

  /**
   * Counts a failure for every subject, or for none when one of them is paused: then says which (its index) and for
   * how long. Failures older than `forgetBefore` no longer count. Each count is one conditional upsert, so attempts
   * made together, on any instance, are counted one after the other and cannot all slip past a pause. A subject still
   * within its free failures is never held: an attempt that waited for the row can carry a `now` older than the
   * last failure another one just wrote, which a pause of zero would otherwise take for a pause still running.
   */
  async count(subjects: readonly CountedSubject[], now: number, forgetBefore: number): Promise<FailureCount> {
    await this.#sweep(now, forgetBefore)
    try {
      return await this.#db.transaction(async () => {
        const failures: number[] = []
        for (const [index, { subject, policy }] of subjects.entries()) {
          const params = { ':subject': subject, ':now': now, ':forgetBefore': forgetBefore }
          const row = await this.#db.get(
            `INSERT INTO sign_in_failures (subject, failures, last_failure) VALUES (:subject, 1, :now)
             ON CONFLICT (subject) DO UPDATE SET
               failures = CASE WHEN sign_in_failures.last_failure < :forgetBefore THEN 1 ELSE sign_in_failures.failures + 1 END,
               last_failure = :now
             WHERE sign_in_failures.last_failure < :forgetBefore
               OR sign_in_failures.failures < ${policy.free}
               OR sign_in_failures.last_failure + ${pauseAfter('sign_in_failures.failures', policy)} <= :now
             RETURNING failures`,
            params,
          )
          if (row) {
            failures.push(Number(row['failures']))
            continue
          }
          const held = await this.#db.get(
            `SELECT last_failure + ${pauseAfter('failures', policy)} - :now AS left FROM sign_in_failures WHERE subject = :subject`,
            { ':subject': subject, ':now': now },
          )
          throw new Paused(index, Math.max(1, Number(held?.['left'] ?? 1)))
        }
        return { counted: true as const, failures }
      })
    } catch (error) {
      if (error instanceof Paused) return { counted: false, pausedBy: error.pausedBy, pausedForMs: error.pausedForMs }
      throw error
    }
  }

  /** Forgets every failure of `subject`. */
  async forget(subject: string): Promise<void> {
    await this.#db.all('DELETE FROM sign_in_failures WHERE subject = :subject', { ':subject': subject })
  }

  /** Takes back one failure of `subject` (an attempt counted before it proved right). */
  async forgiveOne(subject: string): Promise<void> {
    await this.#db.all('UPDATE sign_in_failures SET failures = failures - 1 WHERE subject = :subject AND failures > 0', {
      ':subject': subject,
    })
  }

  async #sweep(now: number, forgetBefore: number): Promise<void> {
    if (now < this.#nextSweepAt) return
    this.#nextSweepAt = now + SWEEP_INTERVAL_MS
    await this.#db.all('DELETE FROM sign_in_failures WHERE last_failure < :forgetBefore', { ':forgetBefore': forgetBefore })
  }
}

/** The pause a subject with `failures` (an SQL expression) is under, in SQL both engines speak (no power()). */
function pauseAfter(failures: string, { free, pausesMs }: FailurePolicy): string {
  const steps = pausesMs.slice(0, -1).map((pause, step) => `WHEN ${failures} = ${free + step} THEN ${pause}`)
  return `(CASE WHEN ${failures} < ${free} THEN 0 ${steps.join(' ')} ELSE ${pausesMs.at(-1) ?? 0} END)`
}
