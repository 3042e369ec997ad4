// The bound on how many nonces one holder keeps (a WSSE user; an OAuth token or client address), checked without
// counting the holder's nonces on every request. A count reads up to `capacity` index entries, so counting each time
// made a busy holder's every request cost that many (0.6 ms of PostgreSQL's CPU per feed GET in the service bench,
// with a few thousand nonces held). After a count finds `held`, this instance records up to an eighth of the room
// left without counting again, so up to eight instances sharing the database stay within the bound together. A holder
// found full is refused from memory until its oldest nonce leaves the window: no nonce is ever forgotten early, so
// no room comes back sooner. A replay is told apart from a full holder by one look at the nonce's own key.
import type { NonceRecording } from '../../src-protocol'

const INSTANCES_SHARING = 8
/** Holders remembered per instance; forgetting one only means counting its nonces at its next request. */
const MAX_HOLDERS = 10_000

/** What the bound asks of a ledger's table, for one holder and one nonce. */
export interface NonceSteps {
  /** The holder's live nonces (counting stops at the capacity), and when the oldest of them makes room. */
  count(): Promise<{ held: number; freeAt: number }>
  /** Records the nonce unless it is live already; answers whether it was recorded. */
  insert(): Promise<boolean>
  /** Whether the nonce is live already. */
  seen(): Promise<boolean>
}

type Known = { room: number } | { fullUntil: number }

export class NonceBound {
  readonly #holders = new Map<string, Known>()

  /** Records a nonce of `holder` at `now` (in the unit of `freeAt`), `holder` keeping at most `capacity`. */
  async record(holder: string, now: number, capacity: number, steps: NonceSteps): Promise<NonceRecording> {
    const known = this.#holders.get(holder)
    if (known && 'fullUntil' in known && now < known.fullUntil) return this.#refuse(steps, known.fullUntil)
    if (known && 'room' in known && known.room > 0) {
      // Taken before the insert is awaited, so requests in flight together each take a slot of their own.
      this.#remember(holder, { room: known.room - 1 })
      return (await steps.insert()) ? { kind: 'recorded' } : { kind: 'replayed' }
    }
    const { held, freeAt } = await steps.count()
    if (held >= capacity) {
      this.#remember(holder, { fullUntil: freeAt })
      return this.#refuse(steps, freeAt)
    }
    if (!(await steps.insert())) return { kind: 'replayed' }
    this.#remember(holder, { room: Math.floor((capacity - held - 1) / INSTANCES_SHARING) })
    return { kind: 'recorded' }
  }

  async #refuse(steps: NonceSteps, freeAt: number): Promise<NonceRecording> {
    return (await steps.seen()) ? { kind: 'replayed' } : { kind: 'full', freeAt }
  }

  #remember(holder: string, known: Known): void {
    this.#holders.delete(holder)
    if (this.#holders.size >= MAX_HOLDERS) this.#holders.delete(this.#holders.keys().next().value!)
    this.#holders.set(holder, known)
  }
}
