// One SQLite file through node-sqlite3-wasm (WebAssembly, so nothing native to rebuild for Electron). Its schema
// only moves forward, by numbered migrations.
import sqlite from 'node-sqlite3-wasm'
import { SetupError } from '../setup-error'
import { migrations, type Migration } from './migrations'

export type SqlValue = number | bigint | string | Uint8Array | null
export type Row = Record<string, SqlValue>
export type Params = Record<string, SqlValue>

export class Connection {
  readonly #db: sqlite.Database

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
    return this.#db.all(sql, params) as Row[]
  }

  get(sql: string, params?: Params): Row | null {
    return this.#db.get(sql, params) as Row | null
  }

  /** Runs a statement; returns the rowid it inserted, if any. */
  run(sql: string, params?: Params): number {
    return Number(this.#db.run(sql, params).lastInsertRowid)
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
    if (this.#db.isOpen) this.#db.close()
  }

  // node-sqlite3-wasm's file system layer has no shared memory, so SQLite keeps the rollback journal when asked for
  // WAL unless the connection holds an exclusive lock. The service is the only process using its database, so it
  // takes that lock for its lifetime and gets WAL: a commit appends to the log instead of rewriting the journal, and
  // the per-statement lock directory the layer would otherwise create and remove goes away. Synchronous stays FULL:
  // a write the service acknowledged survives a power cut.
  #useWriteAheadLog(): void {
    this.#db.exec('PRAGMA locking_mode = EXCLUSIVE')
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
