// Where the WSSE verifier keeps the nonces it has seen (src-protocol/used-nonces.ts states the rules). On SQLite one
// process owns the database, so its memory is the ledger (faster; ARCHITECTURE.md has the figures). On PostgreSQL the
// ledger is the wsse_nonces table, so a header accepted by one instance is refused as a replay by every other.
import { UsedNonces, type NonceLedger, type NonceLedgerFactory, type NonceRecording } from '../../src-protocol'
import type { Engine } from './engine'

/** The ledger factory for the WSSE verifier on `db`'s engine. */
export function wsseNonceLedger(db: Engine): NonceLedgerFactory {
  if (db.dialect === 'sqlite') return (capacity, sweepIntervalMs) => new UsedNonces(capacity, sweepIntervalMs)
  return (capacity, sweepIntervalMs) => new DatabaseNonces(db, capacity, sweepIntervalMs)
}

/**
 * The ledger as a table: one statement decides each nonce. A nonce is inserted only while its user holds fewer than
 * `capacity` live ones; the primary key refuses a live one seen before, on whichever instance; an expired row of the
 * same nonce is taken over. Expired rows are deleted at most every `sweepIntervalMs` per instance, through the expiry
 * index; a row is never deleted before it expires. Instances answering the same user at the same moment may each see
 * room for one more, so a user's count can pass `capacity` by the requests in flight: the bound is on memory, not on
 * replays, which the primary key alone refuses.
 */
class DatabaseNonces implements NonceLedger {
  readonly #db: Engine
  readonly #capacity: number
  readonly #sweepIntervalMs: number
  #nextSweepAt = Number.NEGATIVE_INFINITY

  constructor(db: Engine, capacity: number, sweepIntervalMs: number) {
    this.#db = db
    this.#capacity = capacity
    this.#sweepIntervalMs = sweepIntervalMs
  }

  async record(user: string, nonce: string, expiresAt: number, now: number): Promise<NonceRecording> {
    if (now >= this.#nextSweepAt) {
      this.#nextSweepAt = now + this.#sweepIntervalMs
      // Through `all`, not `run`: no rendering shows this table, so its upkeep must not invalidate cached pages.
      await this.#db.all('DELETE FROM wsse_nonces WHERE expires_at < :now', { ':now': now })
    }
    // Counting stops at the capacity, so a busy user costs at most that many index entries.
    const row = await this.#db.get(
      `WITH live AS (
         SELECT count(*) AS held, min(expires_at) AS earliest FROM (
           SELECT expires_at FROM wsse_nonces WHERE username = :user AND expires_at >= :now LIMIT :capacity
         ) AS held_nonces
       ), recorded AS (
         INSERT INTO wsse_nonces (username, nonce, expires_at)
         SELECT :user, :nonce, :expiresAt FROM live WHERE held < :capacity
         ON CONFLICT (username, nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE wsse_nonces.expires_at < :now
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM recorded) AS recorded, held, earliest,
         EXISTS (SELECT 1 FROM wsse_nonces WHERE username = :user AND nonce = :nonce AND expires_at >= :now) AS seen
       FROM live`,
      { ':user': user, ':nonce': nonce, ':expiresAt': expiresAt, ':now': now, ':capacity': this.#capacity },
    )
    if (Number(row?.['recorded']) === 1) return { kind: 'recorded' }
    // Not inserted with room to spare: the key was taken, by a row committed before this statement or during it.
    if (row?.['seen'] || Number(row?.['held']) < this.#capacity) return { kind: 'replayed' }
    return { kind: 'full', freeAt: Number(row?.['earliest']) + 1 }
  }
}
