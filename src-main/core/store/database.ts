// The app's local store: one SQLite file in the data dir, on the layer shared with the service (src-shared/sqlite),
// which verifies its pragmas, runs its migrations and caches its statements.
import { dirname } from 'node:path'
import { plainTextOf } from '../../../src-protocol'
import { SqliteDatabase, type Bindings, type Row } from '../../../src-shared/sqlite'
import { migrations, type Migration } from './migrations'
import { claimDatabase, type Ownership } from './ownership'

export type { Row }
export type Params = Record<string, string | number | bigint | boolean | Uint8Array | null>

export class LocalStore {
  readonly #db: SqliteDatabase
  readonly #ownership: Ownership

  private constructor(db: SqliteDatabase, ownership: Ownership) {
    this.#db = db
    this.#ownership = ownership
  }

  /**
   * Opens (creating if needed) the store at `filePath` and brings its schema up to date. Only one Blogdesk may have
   * it open: another live one makes this throw `DataInUseError`; a lock left by one that died is cleared.
   */
  static open(filePath: string, schema: readonly Migration[] = migrations): LocalStore {
    const ownership = claimDatabase(filePath)
    try {
      const db = SqliteDatabase.open(filePath, {
        migrations: schema,
        newerSchemaError: (found, known) =>
          new Error(`This data was written by a newer Blogdesk (schema ${found}, this one knows ${known}). Update Blogdesk to open it.`),
        // The search index's triggers keep a draft's words, not its markup.
        functions: { plain_text: (html) => plainTextOf(typeof html === 'string' ? html : '') },
      })
      return new LocalStore(db, ownership)
    } catch (error) {
      ownership.release()
      throw error
    }
  }

  /** The folder the database lives in; other files the store keeps (media copies) live beside it. */
  get dataDir(): string {
    return dirname(this.#db.file)
  }

  get schemaVersion(): number {
    return this.#db.schemaVersion
  }

  /** Named parameters are written `:name` in SQL and passed as `{ name }`. */
  all(sql: string, params?: Params): Row[] {
    return this.#db.all(sql, bindings(params))
  }

  /** The first row. Read through `all`, so the statement is run to its end and holds nothing open afterwards. */
  get(sql: string, params?: Params): Row | null {
    return this.#db.get(sql, bindings(params))
  }

  run(sql: string, params?: Params): { changes: number; lastInsertRowid: number } {
    return this.#db.run(sql, bindings(params))
  }

  /**
   * Runs `work` in one transaction: all of it is stored, or (when it throws) none of it. `work` must be synchronous.
   * Transactions nest: an inner one that throws undoes only its own writes, and the outer one decides.
   */
  transaction<T>(work: () => T): T {
    return this.#db.transaction(work)
  }

  /**
   * Resolves once everything committed before the call is on the disk itself, surviving a power cut or an OS crash
   * too. Await it before telling a person that something is safely kept ("queued").
   */
  syncToDisk(): Promise<void> {
    return this.#db.syncToDisk()
  }

  close(): void {
    if (!this.#db.isOpen) return
    try {
      this.#db.close()
    } finally {
      this.#ownership.release()
    }
  }
}

function bindings(params: Params | undefined): Bindings | undefined {
  return params && Object.fromEntries(Object.entries(params).map(([name, value]) => [`:${name}`, value]))
}
