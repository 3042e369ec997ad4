// Where the WSSE verifier keeps the nonces it has seen (src-protocol/used-nonces.ts states the rules). On SQLite one
// process owns the database, so its memory is the ledger (faster; ARCHITECTURE.md has the figures). On PostgreSQL the
// ledger is the wsse_nonces table, so a header accepted by one instance is refused as a replay by every other.
import { UsedNonces, type NonceLedger, type NonceLedgerFactory, type NonceRecording } from '../../src-protocol'
import type { Engine } from './engine'
import { NonceBound } from './nonce-bound'
import { TurnBatch } from './turn-batch'

/** A nonce to record: `now` is when it was presented, `expiresAt` when it may be taken over. */
interface NewNonce {
  user: string
  nonce: string
  expiresAt: number
  now: number
}

/** The ledger factory for the WSSE verifier on `db`'s engine. */
export function wsseNonceLedger(db: Engine): NonceLedgerFactory {
  if (db.dialect === 'sqlite') return (capacity, sweepIntervalMs) => new UsedNonces(capacity, sweepIntervalMs)
  return (capacity, sweepIntervalMs) => new DatabaseNonces(db, capacity, sweepIntervalMs)
}

/**
 * The ledger as a table. The primary key refuses a live nonce seen before, on whichever instance; an expired row of
 * the same nonce is taken over. A user keeps at most `capacity` live nonces (nonce-bound.ts says how that is checked
 * without counting them at every request); instances answering the same user at the same moment may each see room
 * for one more, so the bound is on memory, not on replays, which the primary key alone refuses. Expired rows are
 * deleted at most every `sweepIntervalMs` per instance, through the expiry index; a row is never deleted before it
 * expires.
 */
class DatabaseNonces implements NonceLedger {
  readonly #db: Engine
  readonly #bound = new NonceBound()
  /** Every signed request records a nonce: those arriving together share one statement. */
  readonly #inserts: TurnBatch<NewNonce, boolean>
  readonly #capacity: number
  readonly #sweepIntervalMs: number
  #nextSweepAt = Number.NEGATIVE_INFINITY

  constructor(db: Engine, capacity: number, sweepIntervalMs: number) {
    this.#db = db
    this.#capacity = capacity
    this.#sweepIntervalMs = sweepIntervalMs
    this.#inserts = new TurnBatch(db, (nonces) => this.#insert(nonces))
  }

  async record(user: string, nonce: string, expiresAt: number, now: number): Promise<NonceRecording> {
    if (now >= this.#nextSweepAt) {
      this.#nextSweepAt = now + this.#sweepIntervalMs
      // Through `all`, not `run`: no rendering shows this table, so its upkeep must not invalidate cached pages.
      await this.#db.all('DELETE FROM wsse_nonces WHERE expires_at < :now', { ':now': now })
    }
    const key = { ':user': user, ':nonce': nonce, ':now': now }
    return this.#bound.record(user, now, this.#capacity, {
      count: async () => {
        const row = await this.#db.get(
          `SELECT count(*) AS held, min(expires_at) AS earliest FROM (
             SELECT expires_at FROM wsse_nonces WHERE username = :user AND expires_at >= :now LIMIT :capacity
           ) AS held_nonces`,
          { ':user': user, ':now': now, ':capacity': this.#capacity },
        )
        return { held: Number(row?.['held']), freeAt: Number(row?.['earliest']) + 1 }
      },
      insert: () => this.#inserts.get({ user, nonce, expiresAt, now }),
      seen: async () =>
        (await this.#db.get('SELECT 1 AS seen FROM wsse_nonces WHERE username = :user AND nonce = :nonce AND expires_at >= :now', key)) !== null,
    })
  }

  /**
   * Records each nonce that no live row holds (an expired row of the same nonce is taken over, judged at the earliest
   * `now` of the batch) and answers, in order, which were recorded. The same nonce twice in one batch is recorded
   * once, for the first to present it: the second is a replay.
   */
  async #insert(nonces: readonly NewNonce[]): Promise<boolean[]> {
    const keyOf = (user: string, nonce: string) => JSON.stringify([user, nonce])
    const firsts = new Map<string, NewNonce>()
    for (const one of nonces) if (!firsts.has(keyOf(one.user, one.nonce))) firsts.set(keyOf(one.user, one.nonce), one)
    const rows = await this.#db.all(
      `INSERT INTO wsse_nonces (username, nonce, expires_at)
       SELECT username, nonce, expires_at FROM json_to_recordset(CAST(:nonces AS json)) AS asked (username TEXT, nonce TEXT, expires_at BIGINT)
       ON CONFLICT (username, nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE wsse_nonces.expires_at < :now
       RETURNING username, nonce`,
      {
        ':nonces': JSON.stringify([...firsts.values()].map((one) => ({ username: one.user, nonce: one.nonce, expires_at: one.expiresAt }))),
        ':now': Math.min(...nonces.map((one) => one.now)),
      },
    )
    const recorded = new Set(rows.map((row) => keyOf(String(row['username']), String(row['nonce']))))
    return nonces.map((one) => firsts.get(keyOf(one.user, one.nonce)) === one && recorded.has(keyOf(one.user, one.nonce)))
  }
}
