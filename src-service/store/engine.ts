// The one interface the service's store modules speak, over its two databases: SQLite (the embedded default, one
// process) and PostgreSQL (several stateless instances). Statements name their parameters `:name`, and every
// parameter object spells its keys with the colon (`{ ':id': 1 }`); each engine binds them its own way.
import type { SqlValue } from '../../src-shared/sqlite'

export type Value = SqlValue
export type Row = Record<string, Value>
export type Params = Readonly<Record<string, Value | boolean>>

export type Dialect = 'sqlite' | 'postgres'

export interface Engine {
  readonly dialect: Dialect
  /** Every row the statement yields. */
  all(sql: string, params?: Params): Promise<Row[]>
  /** The first row, or null. */
  get(sql: string, params?: Params): Promise<Row | null>
  /** Runs a statement that yields no rows (inserts read their id back with `RETURNING id` through `get`); resolves
   * to how many rows it changed. */
  run(sql: string, params?: Params): Promise<number>
  /** Runs `work` in one transaction: all of it is stored, or (when it throws) none of it. Statements issued from
   * inside `work` (however deep in its awaits) belong to it; nested calls are savepoints. Other callers' statements
   * never interleave with it. */
  transaction<T>(work: () => Promise<T>): Promise<T>
  /** Whether the caller is inside a transaction (however deep in its awaits). */
  inTransaction(): boolean
  /** Calls `callback` once the caller's outermost transaction has committed (never if it rolls back), or at once when
   * the caller is in none: what it then reads, through any connection, includes what that transaction wrote. */
  afterCommit(callback: () => void): void
  close(): Promise<void>
}

// What `get` and `all` write besides inserts that read their id back (dialect.ts) is the OAuth ledger's bookkeeping
// (a nonce used, a token's state), which no rendering reads: counting it would make every signed request stale every
// cached page and ETag, so engines count `run` and only those inserts as writes a rendering may show.
const INSERT_READING_ITS_ID = /^\s*INSERT\b[\s\S]*\bRETURNING id\s*$/i

/** Whether a statement sent through `get` or `all` is an insert reading its id back: a write a rendering may show. */
export function readsInsertedId(sql: string): boolean {
  return INSERT_READING_ITS_ID.test(sql)
}
