// The service's SQLite engine, on the layer shared with the desktop store (src-shared/sqlite), which verifies its
// pragmas, runs its migrations and caches its statements. SQLite is one connection that runs each statement at once,
// so transactions whose work awaits take turns: while one is open, only statements issued from inside it (however
// deep in its awaits: AsyncLocalStorage follows them) run; every other caller's wait until it has committed or rolled
// back, so none ever lands in someone else's transaction. Nested transactions are savepoints, and take turns likewise.
import { AsyncLocalStorage } from 'node:async_hooks'
import { SqliteDatabase } from '../../src-shared/sqlite'
import { readsInsertedId, type Engine, type Params, type Row } from './engine'
import { migrations, type Migration } from './migrations'
import { newerSchemaError } from './newer-schema'

/** An open transaction (no parent) or a savepoint inside one. */
interface Level {
  readonly parent: Level | null
  readonly savepoint: string | null
  open: boolean
  /** What to call once the outermost transaction has committed (kept on the outermost level only). */
  readonly committed: (() => void)[]
}

export class SqliteEngine implements Engine {
  readonly dialect = 'sqlite'
  readonly #db: SqliteDatabase
  readonly #context = new AsyncLocalStorage<Level>()
  /** The innermost open transaction or savepoint: only statements from it may run. Null when none is open. */
  #innermost: Level | null = null
  #innermostChanged = deferred()
  #savepoints = 0
  #writes = 0

  private constructor(db: SqliteDatabase) {
    this.#db = db
  }

  /** Opens (creating if needed) the database at `file` and brings its schema up to date. */
  static open(file: string, schema: readonly Migration[] = migrations): SqliteEngine {
    return new SqliteEngine(
      SqliteDatabase.open(file, {
        migrations: schema,
        // A post writes a dozen log pages; checkpoints every 1,000 pages kept the event loop waiting on fsync for 10 %
        // of the post-create bench (2.5 % at 10,000; ARCHITECTURE.md, "The write path"). The log may grow to 40 MB.
        walAutocheckpointPages: 10_000,
        newerSchemaError,
      }),
    )
  }

  get schemaVersion(): number {
    return this.#db.schemaVersion
  }

  /**
   * How many statements have run that may have written what a rendering shows: what was read before is current while
   * this is unchanged.
   */
  get writes(): number {
    return this.#writes
  }

  get isOpen(): boolean {
    return this.#db.isOpen
  }

  all(sql: string, params?: Params): Promise<Row[]> {
    return this.#inTurn(() => {
      this.#count(sql)
      return this.#db.all(sql, params)
    })
  }

  get(sql: string, params?: Params): Promise<Row | null> {
    return this.#inTurn(() => {
      this.#count(sql)
      return this.#db.get(sql, params)
    })
  }

  run(sql: string, params?: Params): Promise<number> {
    return this.#inTurn(() => {
      this.#writes++
      return this.#db.run(sql, params).changes
    })
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    // Waited for here, not in a helper: the turn must be taken in the same synchronous step as it is found free.
    while (this.#callersLevel() !== this.#innermost) await this.#innermostChanged.promise
    const parent = this.#innermost
    const savepoint = parent ? `nested_${++this.#savepoints}` : null
    this.#db.control(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN IMMEDIATE')
    const level: Level = { parent, savepoint, open: true, committed: [] }
    this.#setInnermost(level)
    try {
      let result: T
      try {
        result = await this.#context.run(level, work)
      } finally {
        // A savepoint `work` started and did not await ends before this level does.
        while (this.#innermost !== level) await this.#innermostChanged.promise
      }
      this.#db.control(savepoint ? `RELEASE ${savepoint}` : 'COMMIT')
      if (!parent) for (const callback of level.committed) callback()
      return result
    } catch (error) {
      // A failed COMMIT, or an error SQLite answers by rolling back itself, may have ended the transaction already.
      if (this.#db.inTransaction) {
        if (savepoint) {
          this.#db.control(`ROLLBACK TO ${savepoint}`)
          this.#db.control(`RELEASE ${savepoint}`)
        } else this.#db.control('ROLLBACK')
      }
      throw error
    } finally {
      level.open = false
      this.#setInnermost(parent)
    }
  }

  afterCommit(callback: () => void): void {
    let outermost = this.#callersLevel()
    while (outermost?.parent) outermost = outermost.parent
    if (outermost) outermost.committed.push(callback)
    else callback()
  }

  /** Closes the file once no transaction (other than the caller's own) is open. */
  async close(): Promise<void> {
    while (this.#callersLevel() !== this.#innermost) await this.#innermostChanged.promise
    this.#db.close()
  }

  /** Runs `statement` as soon as it is the caller's turn: at once, unless another caller's transaction is open. */
  async #inTurn<T>(statement: () => T): Promise<T> {
    // Checked and run in one synchronous step, so no other transaction can begin in between.
    while (this.#callersLevel() !== this.#innermost) await this.#innermostChanged.promise
    return statement()
  }

  /** The open level the caller's statements belong to: a statement left running by an ended savepoint goes to its parent. */
  #callersLevel(): Level | null {
    let level = this.#context.getStore() ?? null
    while (level && !level.open) level = level.parent
    return level
  }

  #setInnermost(level: Level | null): void {
    this.#innermost = level
    const waiting = this.#innermostChanged
    this.#innermostChanged = deferred()
    waiting.resolve()
  }

  #count(sql: string): void {
    if (readsInsertedId(sql)) this.#writes++
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((settle) => (resolve = settle))
  return { promise, resolve }
}
