// The app's local store: one SQLite file in the data dir, through node-sqlite3-wasm (WebAssembly, so no native
// module has to be rebuilt for Electron). Its schema only moves forward, by numbered migrations.
import sqlite from 'node-sqlite3-wasm'
import { migrations, type Migration } from './migrations'

export type Row = Record<string, number | bigint | string | Uint8Array | null>
export type Params = Record<string, string | number | bigint | boolean | Uint8Array | null>

export class LocalStore {
  readonly #db: sqlite.Database

  private constructor(db: sqlite.Database) {
    this.#db = db
  }

  /** Opens (creating if needed) the store at `filePath` and brings its schema up to date. */
  static open(filePath: string, schema: readonly Migration[] = migrations): LocalStore {
    const store = new LocalStore(new sqlite.Database(filePath))
    try {
      store.#db.exec('PRAGMA foreign_keys = ON')
      store.#migrate(schema)
    } catch (error) {
      store.close()
      throw error
    }
    return store
  }

  get schemaVersion(): number {
    return Number(this.get('PRAGMA user_version')?.['user_version'] ?? 0)
  }

  /** Named parameters are written `:name` in SQL and passed as `{ name }`. */
  all(sql: string, params?: Params): Row[] {
    return this.#db.all(sql, bindings(params)) as Row[]
  }

  get(sql: string, params?: Params): Row | null {
    return this.#db.get(sql, bindings(params)) as Row | null
  }

  run(sql: string, params?: Params): { changes: number } {
    return this.#db.run(sql, bindings(params))
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

  close(): void {
    if (this.#db.isOpen) this.#db.close()
  }

  #migrate(schema: readonly Migration[]): void {
    const current = this.schemaVersion
    const newest = schema.at(-1)?.version ?? 0
    if (current > newest) {
      throw new Error(
        `This data was written by a newer Blogdesk (schema ${current}, this one knows ${newest}). Update Blogdesk to open it.`,
      )
    }
    for (const migration of schema) {
      if (migration.version <= current) continue
      this.transaction(() => {
        this.#db.exec(migration.sql)
        this.#db.exec(`PRAGMA user_version = ${migration.version}`)
      })
    }
  }
}

function bindings(params: Params | undefined): Record<string, Params[string]> | undefined {
  return params && Object.fromEntries(Object.entries(params).map(([name, value]) => [`:${name}`, value]))
}
