// The service's SQLite file, on the layer shared with the desktop store (src-shared/sqlite), which verifies its
// pragmas, runs its migrations and caches its statements. This adds the count of writes the render cache keys on.
import { SqliteDatabase, type Bindings, type Row } from '../../src-shared/sqlite'
import { SetupError } from '../setup-error'
import { migrations, type Migration } from './migrations'

export type { Row }
export type Params = Bindings

export class Connection {
  readonly #db: SqliteDatabase
  #writes = 0

  private constructor(db: SqliteDatabase) {
    this.#db = db
  }

  /** Opens (creating if needed) the database at `file` and brings its schema up to date. */
  static open(file: string, schema: readonly Migration[] = migrations): Connection {
    return new Connection(
      SqliteDatabase.open(file, {
        migrations: schema,
        // A post writes a dozen log pages; checkpoints every 1,000 pages kept the event loop waiting on fsync for 10 %
        // of the post-create bench (2.5 % at 10,000; ARCHITECTURE.md, "The write path"). The log may grow to 40 MB.
        walAutocheckpointPages: 10_000,
        newerSchemaError: (found, known) =>
          new SetupError(
            `This data was written by a newer Blogdesk service (schema ${found}; this one knows up to ${known}). ` +
              'Update Blogdesk to use it.',
          ),
      }),
    )
  }

  get schemaVersion(): number {
    return this.#db.schemaVersion
  }

  all(sql: string, params?: Params): Row[] {
    return this.#db.all(sql, params)
  }

  /** The first row. Read through `all`, so the statement is run to its end and holds nothing open afterwards. */
  get(sql: string, params?: Params): Row | null {
    return this.#db.get(sql, params)
  }

  /** Runs a statement; returns the rowid it inserted, if any. */
  run(sql: string, params?: Params): number {
    this.#writes++
    return this.#db.run(sql, params).lastInsertRowid
  }

  /** How many statements have run that may have written: what was read before is current while this is unchanged. */
  get writes(): number {
    return this.#writes
  }

  /** Runs `work` in one transaction: all of it is stored, or (when it throws) none of it. Transactions nest. */
  transaction<T>(work: () => T): T {
    return this.#db.transaction(work)
  }

  get isOpen(): boolean {
    return this.#db.isOpen
  }

  close(): void {
    this.#db.close()
  }
}
