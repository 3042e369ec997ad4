// One SQLite file through node-sqlite3-wasm (WebAssembly, so nothing native to rebuild for Electron). Its schema
// only moves forward, by numbered migrations.
import sqlite from 'node-sqlite3-wasm'
import { SetupError } from '../setup-error'
import { migrations, type Migration } from './migrations'

export type SqlValue = number | bigint | string | Uint8Array | null
export type Row = Record<string, SqlValue>
export type Params = Record<string, SqlValue>

/** Statements kept prepared; SQL built per call (none today) would only ever evict the oldest. */
const MAX_PREPARED_STATEMENTS = 256

export class Connection {
  readonly #db: sqlite.Database
  // Preparing is a third of a small query's cost through the WebAssembly boundary, so each SQL text is prepared once.
  readonly #statements = new Map<string, sqlite.Statement>()
  #writes = 0

  private constructor(db: sqlite.Database) {
    this.#db = db
  }

  /** Opens (creating if needed) the database at `file` and brings its schema up to date. */
  static open(file: string, schema: readonly Migration[] = migrations): Connection {
    const connection = new Connection(new sqlite.Database(file))
    try {
      connection.#useWriteAheadLog()
      connection.#migrate(schema)
    } catch (error) {
      connection.close()
      throw error
    }
    return connection
  }

  get schemaVersion(): number {
    return Number(this.get('PRAGMA user_version')?.['user_version'] ?? 0)
  }

  all(sql: string, params?: Params): Row[] {
    return this.#withStatement(sql, (statement) => statement.all(params) as Row[])
  }

  /** The first row. Read through `all`, so the statement is run to its end and holds nothing open afterwards. */
  get(sql: string, params?: Params): Row | null {
    return this.#withStatement(sql, (statement) => (statement.all(params)[0] as Row | undefined) ?? null)
  }

  /** Runs a statement; returns the rowid it inserted, if any. */
  run(sql: string, params?: Params): number {
    this.#writes++
    return this.#withStatement(sql, (statement) => Number(statement.run(params).lastInsertRowid))
  }

  /** How many statements have run that may have written: what was read before is current while this is unchanged. */
  get writes(): number {
    return this.#writes
  }

  /** Runs `work` in one transaction: all of it is stored, or (when it throws) none of it. */
  transaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE')
    try {
      const result = work()
      this.#db.exec('COMMIT')
      return result
    } catch (error) {
      this.#db.exec('ROLLBACK')
      throw error
    }
  }

  get isOpen(): boolean {
    return this.#db.isOpen
  }

  close(): void {
    if (!this.#db.isOpen) return
    for (const statement of this.#statements.values()) statement.finalize()
    this.#statements.clear()
    this.#db.close()
  }

  /**
   * Runs `use` on the prepared statement for `sql`. A statement whose step failed (a constraint, say) cannot be
   * reset for its next use, so it is finalized and prepared afresh next time.
   */
  #withStatement<T>(sql: string, use: (statement: sqlite.Statement) => T): T {
    let statement = this.#statements.get(sql)
    if (!statement) {
      if (this.#statements.size >= MAX_PREPARED_STATEMENTS) this.#forget(this.#statements.keys().next().value!)
      statement = this.#db.prepare(sql)
      this.#statements.set(sql, statement)
    }
    try {
      return use(statement)
    } catch (error) {
      this.#forget(sql)
      throw error
    }
  }

  #forget(sql: string): void {
    const statement = this.#statements.get(sql)
    this.#statements.delete(sql)
    try {
      statement?.finalize()
    } catch {
      // Finalizing reports the statement's last failed step again; its caller has that error already.
    }
  }

  // node-sqlite3-wasm's file system layer has no shared memory, so SQLite keeps the rollback journal when asked for
  // WAL unless the connection holds an exclusive lock. The service is the only process using its database, so it
  // takes that lock for its lifetime and gets WAL: a commit appends to the log instead of rewriting the journal, and
  // the per-statement lock directory the layer would otherwise create and remove goes away. Synchronous NORMAL, as
  // SQLite advises for WAL: the database stays consistent through any crash, and a commit survives the service being
  // killed; only an OS crash or power cut can take back commits not yet checkpointed. FULL would fsync every commit,
  // synchronously on the event loop — a quarter of a post create's time.
  #useWriteAheadLog(): void {
    this.#db.exec('PRAGMA locking_mode = EXCLUSIVE')
    this.#db.exec('PRAGMA synchronous = NORMAL')
    const mode = this.get('PRAGMA journal_mode = WAL')?.['journal_mode']
    if (mode !== 'wal') throw new Error(`SQLite kept journal mode "${String(mode)}" when asked for WAL`)
  }

  #migrate(schema: readonly Migration[]): void {
    const current = this.schemaVersion
    const newest = schema.at(-1)?.version ?? 0
    if (current > newest) {
      throw new SetupError(
        `This data was written by a newer Blogdesk service (schema ${current}; this one knows up to ${newest}). ` +
          'Update Blogdesk to use it.',
      )
    }
    for (const migration of schema) {
      if (migration.version <= current) continue
      try {
        this.transaction(() => {
          this.#db.exec(migration.sql)
          this.#db.exec(`PRAGMA user_version = ${migration.version}`)
        })
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        throw new Error(`Migration ${migration.version} (${migration.name}) failed and was rolled back: ${reason}`, {
          cause: error,
        })
      }
    }
  }
}
