// The service's SQLite engine, on the layer shared with the desktop store (src-shared/sqlite), which verifies its
// pragmas, runs its migrations and caches its statements. SQLite is one connection that runs each statement at once,
// so transactions whose work awaits take turns: while one is open, only statements issued from inside it (however
// deep in its awaits: AsyncLocalStorage follows them) run; every other caller's wait until it has ended, so none ever
// lands in someone else's transaction. Nested transactions are savepoints, and take turns likewise.
// Group commit: BEGIN and COMMIT (with its log write and sync) cost as much as a post's statements, so transactions
// that queued while one ran go next inside the same SQLite transaction, each in a savepoint of its own (a member that
// throws rolls back only its savepoint), and one COMMIT ends the group. Nobody hears that their transaction succeeded
// (and no afterCommit listener runs) before that COMMIT has; if it fails, every member of the group fails. Statements
// from outside any transaction wait for the group's end, so nothing outside reads what may still be rolled back.
import { AsyncLocalStorage } from 'node:async_hooks'
import { SqliteDatabase } from '../../src-shared/sqlite'
import { readsInsertedId, type Engine, type Params, type Row } from './engine'
import { migrations, type Migration } from './migrations'
import { newerSchemaError } from './newer-schema'

/** The most transactions one COMMIT ends: bounds how long statements from outside wait behind a group. */
const MAX_GROUP = 32

/** A group's member (no parent) or a savepoint inside one. */
interface Level {
  readonly parent: Level | null
  readonly savepoint: string | null
  open: boolean
  /** What to call once the group has committed (kept on the member's level only). */
  readonly committed: (() => void)[]
}

/** One SQLite transaction holding the transactions that took turns back to back. */
interface Group {
  /** Members that have begun, failed ones included. */
  begun: number
  /** Members whose work succeeded: they wait for the COMMIT. */
  succeeded: number
  /** Set when SQLite ended the transaction itself (an error it answers by rolling back): every member fails. */
  lost: Error | null
  readonly writesAtBegin: number
  readonly committed: (() => void)[]
  readonly done: Deferred
}

/** A caller from outside every transaction, waiting for the connection. */
interface Waiter {
  readonly transaction: boolean
  readonly take: () => void
}

export class SqliteEngine implements Engine {
  readonly dialect = 'sqlite'
  readonly #db: SqliteDatabase
  readonly #context = new AsyncLocalStorage<Level>()
  /** The innermost open member or savepoint: only statements from it may run. Null when none is open. */
  #innermost: Level | null = null
  #innermostChanged = deferred()
  /** The open SQLite transaction, while its members run and between them. */
  #group: Group | null = null
  /** Whether a caller from outside every transaction has the connection (or has been given it and is resuming). */
  #held = false
  /** Callers from outside every transaction, first come first served (transactions may go ahead into a group). */
  readonly #waiting: Waiter[] = []
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
   * this is unchanged. It also grows when a group that wrote ends, so nothing read inside the group stays current.
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
    for (let level = this.#callersLevel(); level; level = this.#callersLevel()) {
      if (level === this.#innermost) return this.#savepoint(level, work)
      await this.#innermostChanged.promise
    }
    const { result, group } = await this.#member(work)
    await group.done.promise
    return result
  }

  inTransaction(): boolean {
    return this.#context.getStore() !== undefined
  }

  afterCommit(callback: () => void): void {
    let member = this.#callersLevel()
    while (member?.parent) member = member.parent
    if (member) member.committed.push(callback)
    else callback()
  }

  /** Closes the file once no transaction is open. */
  async close(): Promise<void> {
    await this.#take(false)
    try {
      this.#db.close()
    } finally {
      this.#release()
    }
  }

  /** Runs `work` as the group's next member (opening a group if none is open); resolves once it is released. */
  async #member<T>(work: () => Promise<T>): Promise<{ result: T; group: Group }> {
    await this.#take(true)
    let group: Group | null = null
    let level: Level | null = null
    try {
      group = this.#group ??= this.#begin()
      // The first member needs no savepoint: rolling the whole transaction back takes only its writes.
      const savepoint = group.begun++ > 0 ? `member_${++this.#savepoints}` : null
      if (savepoint) this.#db.control(`SAVEPOINT ${savepoint}`)
      level = { parent: null, savepoint, open: true, committed: [] }
      this.#setInnermost(level)
      const result = await this.#work(level, work)
      if (savepoint) this.#db.control(`RELEASE ${savepoint}`)
      group.succeeded++
      group.committed.push(...level.committed)
      return { result, group }
    } catch (error) {
      if (group) this.#rollBackMember(group, level?.savepoint ?? null, error)
      throw error
    } finally {
      if (level) {
        level.open = false
        this.#setInnermost(null)
      }
      this.#release()
    }
  }

  #begin(): Group {
    this.#db.control('BEGIN IMMEDIATE')
    const done = deferred()
    // A group whose members all failed has nobody waiting for its end.
    done.promise.catch(() => {})
    return { begun: 0, succeeded: 0, lost: null, writesAtBegin: this.#writes, committed: [], done }
  }

  #rollBackMember(group: Group, savepoint: string | null, error: unknown): void {
    if (!this.#db.inTransaction) {
      // SQLite rolled back the whole transaction: whatever earlier members wrote is gone with it.
      if (group.succeeded === 0) this.#group = null
      else group.lost = new Error('Rolled back with another transaction of its group, which failed.', { cause: error })
    } else if (savepoint) {
      this.#db.control(`ROLLBACK TO ${savepoint}`)
      this.#db.control(`RELEASE ${savepoint}`)
    } else {
      this.#db.control('ROLLBACK')
      this.#group = null
    }
  }

  async #savepoint<T>(parent: Level, work: () => Promise<T>): Promise<T> {
    const savepoint = `nested_${++this.#savepoints}`
    this.#db.control(`SAVEPOINT ${savepoint}`)
    const level: Level = { parent, savepoint, open: true, committed: [] }
    this.#setInnermost(level)
    try {
      const result = await this.#work(level, work)
      this.#db.control(`RELEASE ${savepoint}`)
      return result
    } catch (error) {
      // An error SQLite answers by rolling back itself may have ended the whole transaction already.
      if (this.#db.inTransaction) {
        this.#db.control(`ROLLBACK TO ${savepoint}`)
        this.#db.control(`RELEASE ${savepoint}`)
      }
      throw error
    } finally {
      level.open = false
      this.#setInnermost(parent)
    }
  }

  /** Runs `work` in `level`; returns once every savepoint it started has ended, even those it did not await. */
  async #work<T>(level: Level, work: () => Promise<T>): Promise<T> {
    try {
      return await this.#context.run(level, work)
    } finally {
      while (this.#innermost !== level) await this.#innermostChanged.promise
    }
  }

  /** Runs `statement` as soon as it is the caller's turn: at once, unless another caller's transaction is open. */
  async #inTurn<T>(statement: () => T): Promise<T> {
    // Checked and run in one synchronous step, so no other transaction can begin in between.
    for (let level = this.#callersLevel(); level; level = this.#callersLevel()) {
      if (level === this.#innermost) return statement()
      await this.#innermostChanged.promise
    }
    if (!this.#held && !this.#group && this.#waiting.length === 0) return statement()
    await this.#take(false)
    try {
      return statement()
    } finally {
      this.#release()
    }
  }

  /** Resolves once the caller (from outside every transaction) has the connection: at once when it is free. */
  #take(transaction: boolean): Promise<void> {
    if (!this.#held && !this.#group && this.#waiting.length === 0) {
      this.#held = true
      return Promise.resolve()
    }
    return new Promise<void>((take) => this.#waiting.push({ transaction, take }))
  }

  /**
   * Gives the connection to whoever is next: the first waiting transaction while the open group may grow, otherwise
   * (after the group's COMMIT) the first waiter. Given at once, so nobody can take it before the waiter resumes.
   */
  #release(): void {
    this.#held = false
    const group = this.#group
    if (group) {
      const next = !group.lost && group.begun < MAX_GROUP ? this.#waiting.findIndex((waiter) => waiter.transaction) : -1
      if (next >= 0) return this.#give(this.#waiting.splice(next, 1)[0]!)
      this.#end(group)
    }
    const next = this.#waiting.shift()
    if (next) this.#give(next)
  }

  #give(waiter: Waiter): void {
    this.#held = true
    waiter.take()
  }

  /** Commits the group, then tells its listeners and members; or, when it cannot, rolls it back and fails them all. */
  #end(group: Group): void {
    this.#group = null
    // Whatever was read inside the group, its own uncommitted writes included, is not current any more.
    if (this.#writes !== group.writesAtBegin) this.#writes++
    try {
      if (group.lost) throw group.lost
      this.#db.control('COMMIT')
    } catch (error) {
      if (this.#db.inTransaction) this.#db.control('ROLLBACK')
      group.done.reject(error)
      return
    }
    for (const callback of group.committed) callback()
    group.done.resolve()
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

interface Deferred {
  readonly promise: Promise<void>
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

function deferred(): Deferred {
  let resolve!: () => void
  let reject!: (error: unknown) => void
  const promise = new Promise<void>((settle, fail) => {
    resolve = settle
    reject = fail
  })
  return { promise, resolve, reject }
}
