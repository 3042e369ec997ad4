// A schema only moves forward, by migrations numbered 1, 2, 3… Each runs in its own transaction and records its
// number in `PRAGMA user_version`, so a file tells which of them it has had.
import type sqlite from 'node-sqlite3-wasm'

export interface Migration {
  version: number
  name: string
  sql: string
}

/** Refuses a list that is out of order or has a gap: a file's version must name exactly the migrations it has had. */
export function checkMigrations(schema: readonly Migration[]): void {
  schema.forEach((migration, index) => {
    const previous = schema[index - 1]
    if (previous && previous.version >= migration.version) {
      throw new Error(`Migration ${migration.version} (${migration.name}) is listed after ${previous.version}; keep them in order.`)
    }
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration ${migration.version} (${migration.name}) is number ${index + 1} in the list; number migrations 1, 2, 3… without gaps.`,
      )
    }
  })
}

/** Brings `db` from `current` to the newest of `schema`; a migration that fails leaves the file as it was before it. */
export function migrate(
  db: sqlite.Database,
  current: number,
  schema: readonly Migration[],
  inTransaction: (work: () => void) => void,
): void {
  for (const migration of schema) {
    if (migration.version <= current) continue
    try {
      inTransaction(() => {
        db.exec(migration.sql)
        db.exec(`PRAGMA user_version = ${migration.version}`)
      })
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(`Migration ${migration.version} (${migration.name}) failed and was rolled back: ${reason}`, { cause: error })
    }
  }
}
