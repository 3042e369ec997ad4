// One SQLite file through node-sqlite3-wasm (WebAssembly, so no native module has to be rebuilt for Electron): the
// layer both the desktop store and the service's store stand on. Its schema only moves forward, by numbered migrations.
import { closeSync, fsync, openSync } from 'node:fs'
import sqlite from 'node-sqlite3-wasm'
import { checkMigrations, migrate, type Migration } from './migrations'

export type SqlValue = number | bigint | string | Uint8Array | null
export type Row = Record<string, SqlValue>
/** Parameters by the name SQL gives them, prefix included: `{ ':id': 7 }` for `WHERE id = :id`. */
export type Bindings = Record<string, SqlValue | boolean>

export interface OpenOptions {
  migrations: readonly Migration[]
  /** The refusal of a file written by newer code (schema `found`, this code knowing up to `known`), in its users' words. */
  newerSchemaError(found: number, known: number): Error
  /** SQL functions the schema's triggers call, registered before the migrations run. Each must be deterministic. */
  functions?: Record<string, (...args: SqlValue[]) => SqlValue>
  /** Log pages written before SQLite copies them into the file (a checkpoint: two fsyncs); SQLite's default 1,000. */
  walAutocheckpointPages?: number
}

/** The statements that open and end a transaction or savepoint, for a caller that orders its statements itself. */
export type TransactionControl =
  | 'BEGIN IMMEDIATE'
  | 'COMMIT'
  | 'ROLLBACK'
  | `SAVEPOINT ${string}`
  | `RELEASE ${string}`
  | `ROLLBACK TO ${string}`

/** Statements kept prepared; SQL built per call would only ever evict the oldest. */
const MAX_PREPARED_STATEMENTS = 256

export class SqliteDatabase {
  readonly file: string
  readonly #db: sqlite.Database
  // Preparing costs as much as a small insert through the WebAssembly boundary, so each SQL text is prepared once.
  readonly #statements = new Map<string, sqlite.Statement>()
  #transactionDepth = 0
  #walFd: number | null = null
  #diskSync: Promise<void> | null = null
  #diskSyncAgain: Promise<void> | null = null

  private constructor(db: sqlite.Database, file: string) {
    this.#db = db
    this.file = file
  }

  /**
   * Opens (creating if needed) the database at `file`, verifies its pragmas and brings its schema up to date. The
   * connection holds the file exclusively: the caller owns the folder it lives in (ownership.ts).
   */
  static open(file: string, options: OpenOptions): SqliteDatabase {
    const { migrations, newerSchemaError, functions = {}, walAutocheckpointPages } = options
    checkMigrations(migrations)
    const database = new SqliteDatabase(new sqlite.Database(file), file)
    try {
      database.#configure(walAutocheckpointPages)
      for (const [name, func] of Object.entries(functions)) database.#db.function(name, func, { deterministic: true })
      const current = database.schemaVersion
      const newest = migrations.at(-1)?.version ?? 0
      if (current > newest) throw newerSchemaError(current, newest)
      migrate(database.#db, current, migrations, (work) => database.transaction(work))
    } catch (error) {
      database.close()
      throw error
    }
    return database
  }

  get schemaVersion(): number {
    return Number(this.get('PRAGMA user_version')?.['user_version'] ?? 0)
  }

  get isOpen(): boolean {
    return this.#db.isOpen
  }

  all(sql: string, bindings?: Bindings): Row[] {
    return this.#withStatement(sql, (statement) => statement.all(bindings) as Row[])
  }

  /** The first row. Read through `all`, so the statement is run to its end and holds nothing open afterwards. */
  get(sql: string, bindings?: Bindings): Row | null {
    return this.#withStatement(sql, (statement) => (statement.all(bindings)[0] as Row | undefined) ?? null)
  }

  run(sql: string, bindings?: Bindings): { changes: number; lastInsertRowid: number } {
    return this.#withStatement(sql, (statement) => {
      const { changes, lastInsertRowid } = statement.run(bindings)
      return { changes, lastInsertRowid: Number(lastInsertRowid) }
    })
  }

  /**
   * Runs `work` in one transaction: all of it is stored, or (when it throws) none of it. `work` must be synchronous.
   * Transactions nest as savepoints: an inner one that throws undoes only its own writes, and the outer one decides.
   */
  transaction<T>(work: () => T): T {
    const depth = this.#transactionDepth
    const savepoint = `nested_${depth}`
    this.#execute(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`)
    this.#transactionDepth++
    try {
      const result = work()
      if (isPromiseLike(result)) {
        throw new Error('A store transaction must do its work synchronously; it was given an async function.')
      }
      this.#execute(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`)
      return result
    } catch (error) {
      // A failed COMMIT, or an error SQLite answers by rolling back itself, may have ended the transaction already.
      if (this.#db.inTransaction) {
        if (depth === 0) this.#execute('ROLLBACK')
        else {
          this.#execute(`ROLLBACK TO ${savepoint}`)
          this.#execute(`RELEASE ${savepoint}`)
        }
      }
      throw error
    } finally {
      this.#transactionDepth = depth
    }
  }

  /**
   * Opens or ends a transaction or savepoint by hand, for a caller whose transactions do asynchronous work (the
   * service's SQLite engine): it alone decides which statements belong to them. Use `transaction` otherwise.
   */
  control(statement: TransactionControl): void {
    this.#execute(statement)
  }

  /** False once a transaction has ended, including when SQLite rolled one back by itself after an error. */
  get inTransaction(): boolean {
    return this.#db.inTransaction
  }

  /**
   * Resolves once everything committed before the call is on the disk itself. A commit survives the process crashing
   * or being killed as soon as it returns; this also makes it survive a power cut or an OS crash. The disk flush runs
   * off the event loop, and callers that arrive while one is running share the next.
   */
  syncToDisk(): Promise<void> {
    if (!this.#db.isOpen) return Promise.reject(new Error(`The database ${this.file} is closed.`))
    if (!this.#diskSync) {
      this.#diskSync = this.#flushLog().finally(() => {
        this.#diskSync = null
      })
      return this.#diskSync
    }
    // A flush already running may have started before this caller's commit: it gets the one after.
    this.#diskSyncAgain ??= this.#diskSync
      .catch(() => undefined) // its callers have its failure; these get a flush of their own
      .then(() => {
        this.#diskSyncAgain = null
        return this.syncToDisk()
      })
    return this.#diskSyncAgain
  }

  close(): void {
    if (!this.#db.isOpen) return
    try {
      for (const statement of this.#statements.values()) finalizeQuietly(statement)
      this.#statements.clear()
      this.#db.close()
    } finally {
      this.#closeLog()
    }
  }

  // Journal settings, measured with `npm run bench enqueue` on this project's 2-core Linux VM (ext4 on a virtio disk,
  // fsync ≈ 1.3 ms p50): 3,000 single outbox inserts per setting, the settings taking turns (ms):   p50    p99
  //   journal_mode=DELETE (SQLite's default), synchronous=FULL                                      1.6   20
  //   journal_mode=DELETE, synchronous=NORMAL                                                       1.6   20
  //   journal_mode=WAL, locking_mode=EXCLUSIVE, synchronous=FULL                                    0.28   4.6
  //   journal_mode=WAL, locking_mode=EXCLUSIVE, synchronous=NORMAL (chosen)                         0.075  0.6
  //   the chosen setting, then syncToDisk() awaited                                                 0.33   4.6
  // (p99s move with what else the machine is doing: 0.6–3.8 ms for the chosen setting over runs while other test
  // suites ran; the order never changed.) node-sqlite3-wasm's file layer has no shared memory, so SQLite silently
  // keeps the rollback journal when asked for WAL unless the connection holds the file exclusively. With the journal
  // every commit creates, fsyncs and deletes a journal file and creates and removes the layer's lock directory, all
  // on the event loop. WAL appends to one log: 20× faster here, not slower — what looks slower is a fresh process,
  // whose first few hundred statements run while V8 still compiles SQLite's WebAssembly (17–40 ms pauses).
  // Synchronous NORMAL, as SQLite advises for WAL: a commit is in the log when it returns, so it survives the process
  // crashing or being killed, and the file stays consistent through anything; only a power cut or an OS crash can
  // take back commits the OS had not yet written out. For what must survive even that (a post the person was told is
  // "queued"), syncToDisk() flushes the log off the event loop. FULL would fsync on the event loop at every commit.
  // Holding the file exclusively suits both processes anyway: each is the only user of its data folder (ownership.ts).
  #configure(walAutocheckpointPages: number | undefined): void {
    const expect = (pragma: string, wanted: string | number) => {
      const answer = Object.values(this.get(`PRAGMA ${pragma}`) ?? {})[0]
      if (String(answer) !== String(wanted)) {
        throw new Error(`SQLite answered ${String(answer)} to "PRAGMA ${pragma}" where Blogdesk needs ${wanted}.`)
      }
    }
    expect('locking_mode = EXCLUSIVE', 'exclusive')
    expect('journal_mode = WAL', 'wal')
    this.#execute('PRAGMA synchronous = NORMAL')
    expect('synchronous', 1)
    this.#execute('PRAGMA foreign_keys = ON')
    expect('foreign_keys', 1)
    if (walAutocheckpointPages !== undefined) {
      expect(`wal_autocheckpoint = ${walAutocheckpointPages}`, walAutocheckpointPages)
    }
  }

  #execute(sql: string): void {
    this.#withStatement(sql, (statement) => statement.run())
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
    if (statement) finalizeQuietly(statement)
  }

  async #flushLog(): Promise<void> {
    if (this.#walFd === null) {
      try {
        this.#walFd = openSync(`${this.file}-wal`, 'r+')
      } catch (error) {
        // No log yet: nothing has been committed since the last close, whose checkpoint flushed everything.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
        throw error
      }
    }
    const fd = this.#walFd
    // A checkpoint flushes the database file before it lets the log start over, so flushing the log is enough.
    await new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())))
  }

  #closeLog(): void {
    const fd = this.#walFd
    if (fd === null) return
    this.#walFd = null
    // Closing under a running flush could hand its descriptor number to another file; close after it instead.
    if (this.#diskSync) void this.#diskSync.then(() => closeSync(fd), () => closeSync(fd))
    else closeSync(fd)
  }
}

function finalizeQuietly(statement: sqlite.Statement): void {
  try {
    statement.finalize()
  } catch {
    // Finalizing reports the statement's last failed step again; its caller has that error already.
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}
