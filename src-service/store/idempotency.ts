// Responses remembered under a client's Idempotency-Key (docs/PROTOCOL.md): a POST retried after a lost answer gets
// the first answer again instead of creating a second post. A key is a user's for 24 hours; older records are
// pruned whenever records are read or written, so the table holds one day of keys at most.
import type { Engine, Row } from './engine'

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

export interface StoredResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export interface IdempotencyRecord {
  /** What the key was first used for, e.g. `POST /t/atom/weblog/blog_id=1`. */
  request: string
  /** A digest of the first request's body: the same key with another body is another request. */
  fingerprint: string
  response: StoredResponse
  created: string
}

export class IdempotencyRecords {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /**
   * The record of `userId`'s `key` made within the last 24 hours of `now`, if any. Inside the creating transaction it
   * first waits for any other transaction holding the same key to end: SQLite's transactions take turns anyway, but
   * PostgreSQL's run side by side (READ COMMITTED), where two requests with one key would both find nothing and then
   * collide on the key's unique constraint. The lock is PostgreSQL's advisory one, released at commit.
   */
  async find(userId: number, key: string, now = new Date()): Promise<IdempotencyRecord | null> {
    if (this.#db.dialect === 'postgres') {
      await this.#db.get("SELECT pg_advisory_xact_lock(hashtextextended(CAST(:userId AS TEXT) || ' ' || :key, 0))", {
        ':userId': userId,
        ':key': key,
      })
    }
    await this.#prune(now)
    const row = await this.#db.get('SELECT * FROM idempotency_keys WHERE user_id = :userId AND key = :key', {
      ':userId': userId,
      ':key': key,
    })
    return row && toRecord(row)
  }

  /** Remembers a response; fails (a constraint error) if the key is taken, so call it in the creating transaction. */
  async save(userId: number, key: string, record: Omit<IdempotencyRecord, 'created'>, now = new Date()): Promise<void> {
    await this.#prune(now)
    await this.#db.run(
      `INSERT INTO idempotency_keys (user_id, key, request, fingerprint, status, headers, body, created)
       VALUES (:userId, :key, :request, :fingerprint, :status, :headers, :body, :created)`,
      {
        ':userId': userId,
        ':key': key,
        ':request': record.request,
        ':fingerprint': record.fingerprint,
        ':status': record.response.status,
        ':headers': JSON.stringify(record.response.headers),
        ':body': record.response.body,
        ':created': now.toISOString(),
      },
    )
  }

  async #prune(now: Date): Promise<void> {
    await this.#db.run('DELETE FROM idempotency_keys WHERE created <= :cutoff', {
      ':cutoff': new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString(),
    })
  }
}

function toRecord(row: Row): IdempotencyRecord {
  return {
    request: String(row['request']),
    fingerprint: String(row['fingerprint']),
    response: {
      status: Number(row['status']),
      headers: JSON.parse(String(row['headers'])) as Record<string, string>,
      body: String(row['body']),
    },
    created: String(row['created']),
  }
}
