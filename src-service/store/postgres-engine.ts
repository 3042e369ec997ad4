// The store's Engine over PostgreSQL, for several stateless instances sharing one database. Statements outside a
// transaction go to a pool of connections; a transaction holds one pooled connection for everything `work` does,
// however deep in its awaits, found through AsyncLocalStorage, so the store's modules never pass a client around.
import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'
import pg from 'pg'
import type { Migration } from '../../src-shared/sqlite'
import { SetupError } from '../setup-error'
import { readsInsertedId, type Engine, type Params, type Row, type Value } from './engine'
import { numberParameters, type NumberedStatement } from './postgres-parameters'
import { migratePostgres, postgresMigrations, WRITES_TABLE } from './postgres-migrations'

export interface PostgresEngineOptions {
  /** The schema to bring the database up to (default: the service's); `false` leaves the database as it is. */
  migrations?: readonly Migration[] | false
  /** Connections the pool may hold open at once (default 10). */
  maxConnections?: number
}

/** One connection, taken from the pool for a whole transaction; `depth` counts the savepoints inside it. */
interface TransactionScope {
  client: pg.PoolClient
  depth: number
  /** Nested transactions of this level, one after the other: two savepoints must never interleave. */
  nested: Promise<unknown>
  /** Shared by every level of one transaction: whether it ran a statement that counts as a write (engine.ts), and
   * what to call once it has committed. */
  outermost: { wrote: boolean; committed: (() => void)[] }
}

const MAX_CACHED_STATEMENTS = 512

/** A statement as sent: numbered, and named after its text, so each connection parses and plans it once. */
interface PreparedStatement extends NumberedStatement {
  name: string
}

const { builtins } = pg.types
const asText = (value: string) => value
/**
 * Values as the store's other engine gives them (engine.ts `Value`): integers and numerics as numbers (bigint beyond
 * 2^53, where a number would round), booleans as 0/1 like SQLite's, bytea as Buffer; everything else (dates, JSON,
 * arrays) as PostgreSQL spells it, since the schema keeps dates and JSON in TEXT columns anyway.
 */
const valueParsers = new Map<number, (value: string) => Value>([
  [builtins.INT2, Number],
  [builtins.INT4, Number],
  [builtins.OID, Number],
  [builtins.INT8, exactNumber],
  [builtins.NUMERIC, exactNumber],
  [builtins.FLOAT4, pg.types.getTypeParser(builtins.FLOAT4, 'text') as (value: string) => number],
  [builtins.FLOAT8, pg.types.getTypeParser(builtins.FLOAT8, 'text') as (value: string) => number],
  [builtins.BOOL, (value) => (value === 't' ? 1 : 0)],
  [builtins.BYTEA, pg.types.getTypeParser(builtins.BYTEA, 'text') as (value: string) => Buffer],
])
// Given to the pool alone: pg's global parsers stay as they are for any other client in the process.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number) => valueParsers.get(oid) ?? asText) as pg.CustomTypesConfig['getTypeParser'],
}

function exactNumber(text: string): number | bigint {
  const value = Number(text)
  if (Number.isSafeInteger(value) || !/^-?\d+$/.test(text)) return value
  return BigInt(text)
}

/**
 * Opens a pool on `url` (`postgres://user:password@host:port/database`), checks that the database answers and brings
 * its schema up to date (once, however many instances start together: see postgres-migrations.ts).
 */
export async function openPostgresEngine(url: string, options: PostgresEngineOptions = {}): Promise<PostgresEngine> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, types })
  // A pooled connection the server drops while idle (a restart, an administrator) is discarded by the pool and the
  // next statement gets a fresh one; without a listener Node would end the whole process over it.
  pool.on('error', () => {})
  // A database left as it is (migrations: false) has no count of writes to keep.
  const engine = new PostgresEngine(pool, options.migrations !== false)
  try {
    await pool.query('SELECT 1').catch((error: unknown) => {
      throw new SetupError(
        `Could not reach the PostgreSQL database ${describe(url)}: ${messageOf(error)}. ` +
          'Check --database and that PostgreSQL is running.',
        { cause: error },
      )
    })
    if (options.migrations !== false) await migratePostgres(engine, options.migrations ?? postgresMigrations)
  } catch (error) {
    await engine.close()
    throw error
  }
  return engine
}

export class PostgresEngine implements Engine {
  readonly dialect = 'postgres'
  readonly #pool: pg.Pool
  readonly #scope = new AsyncLocalStorage<TransactionScope>()
  // The store sends the same few hundred statements over and over: each is read for its parameters once.
  readonly #statements = new Map<string, PreparedStatement>()
  readonly #countsWrites: boolean
  /** Part of every statement's name; a new one when a table a prepared statement reads has changed (#query). */
  #preparedGeneration = 0
  #closed = false

  constructor(pool: pg.Pool, countsWrites: boolean) {
    this.#pool = pool
    this.#countsWrites = countsWrites
  }

  async all(sql: string, params?: Params): Promise<Row[]> {
    return (await this.#statement(sql, params, readsInsertedId(sql))).rows
  }

  async get(sql: string, params?: Params): Promise<Row | null> {
    return (await this.#statement(sql, params, readsInsertedId(sql))).rows[0] ?? null
  }

  async run(sql: string, params?: Params): Promise<number> {
    return (await this.#statement(sql, params, true)).rowCount ?? 0
  }

  /**
   * The database's count of committed transactions that wrote what a rendering may show, by any instance: one
   * indexed read of one row. It grows at each such commit, in the same transaction, so a reader that sees the new
   * count also sees what was written.
   */
  async writeVersion(): Promise<number> {
    return (await this.writeVersionWith('NULL', {})).version
  }

  /** `writeVersion` and the value of the SQL expression `expression` (with `params`), in one round trip. */
  async writeVersionWith(expression: string, params: Params): Promise<{ version: number; value: Value }> {
    const row = await this.get(`SELECT version, ${expression} AS value FROM ${WRITES_TABLE}`, params)
    return { version: Number(row?.['version'] ?? 0), value: row?.['value'] ?? null }
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.#scope.getStore()
    if (!outer) return this.#outermost(work)
    const turn = outer.nested.then(() => this.#savepoint(outer, work))
    outer.nested = turn.catch(() => {})
    return turn
  }

  inTransaction(): boolean {
    return this.#scope.getStore() !== undefined
  }

  afterCommit(callback: () => void): void {
    const scope = this.#scope.getStore()
    if (scope) scope.outermost.committed.push(callback)
    else callback()
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#pool.end()
  }

  async #outermost<T>(work: () => Promise<T>): Promise<T> {
    const client = await this.#connect()
    let broken: unknown
    try {
      await client.query('BEGIN')
      const outermost = { wrote: false, committed: [] as (() => void)[] }
      const result = await this.#scope.run({ client, depth: 0, nested: Promise.resolve(), outermost }, work)
      // Last, just before COMMIT: the one row every writing transaction updates is locked only while committing, and
      // a transaction waiting for it holds nothing the holder still needs, so it cannot deadlock.
      // One round trip for both (the simple protocol runs several statements; an error skips those after it).
      await client.query(outermost.wrote ? `UPDATE ${WRITES_TABLE} SET version = version + 1; COMMIT` : 'COMMIT')
      for (const callback of outermost.committed) callback()
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError))
      throw error
    } finally {
      // A connection that could not even roll back is in an unknown state: the pool closes it rather than reuse it.
      client.release(broken instanceof Error ? broken : undefined)
    }
  }

  async #savepoint<T>(outer: TransactionScope, work: () => Promise<T>): Promise<T> {
    const scope: TransactionScope = {
      client: outer.client,
      depth: outer.depth + 1,
      nested: Promise.resolve(),
      outermost: outer.outermost,
    }
    const name = `nested_${scope.depth}`
    await scope.client.query(`SAVEPOINT ${name}`)
    try {
      const result = await this.#scope.run(scope, work)
      await scope.client.query(`RELEASE SAVEPOINT ${name}`)
      return result
    } catch (error) {
      await scope.client.query(`ROLLBACK TO SAVEPOINT ${name}`)
      await scope.client.query(`RELEASE SAVEPOINT ${name}`)
      throw error
    }
  }

  async #connect(): Promise<pg.PoolClient> {
    if (this.#closed) throw new Error('The PostgreSQL engine is closed: open a new one to use the database again.')
    return this.#pool.connect()
  }

  /** A write outside any transaction becomes one of its own, so the count grows with it (see `#outermost`). */
  async #statement(sql: string, params: Params | undefined, write: boolean): Promise<pg.QueryResult<Row>> {
    const scope = this.#scope.getStore()
    if (!write || !this.#countsWrites) return this.#query(sql, params)
    if (!scope) return this.#outermost(() => this.#statement(sql, params, write))
    scope.outermost.wrote = true
    return this.#query(sql, params)
  }

  async #query(sql: string, params: Params = {}): Promise<pg.QueryResult<Row>> {
    if (this.#closed) throw new Error('The PostgreSQL engine is closed: open a new one to use the database again.')
    const statement = this.#numbered(sql)
    const values = statement.names.map((name) => {
      if (!(name in params)) {
        throw new Error(`The statement uses ${name} but no value was given for it (spell the key '${name}', colon included): ${sql}`)
      }
      return toParameter(params[name]!)
    })
    const scope = this.#scope.getStore()
    const client = scope?.client ?? this.#pool
    // Without values pg sends the simple protocol, which also runs several statements at once (migrations do). With
    // values the statement is named after its text: each connection parses and plans it once (ARCHITECTURE.md,
    // "Statements prepared once per connection").
    const send = () =>
      values.length > 0
        ? client.query<Row>({ name: `${statement.name}.${this.#preparedGeneration}`, text: statement.text, values })
        : client.query<Row>(statement.text)
    try {
      return await send()
    } catch (error) {
      if (!changedUnderPreparedStatement(error)) throw withStatement(error, sql)
      // A table changed (another instance's migration, say) so that this statement's rows have other columns
      // (`SELECT *`), and PostgreSQL refuses to run what it prepared before. Every statement is prepared again under
      // new names. One outside a transaction is sent again at once; one inside has aborted its transaction, and its
      // caller fails as for any error there.
      this.#preparedGeneration++
      if (scope) throw withStatement(error, sql)
      return send().catch((again: unknown) => {
        throw withStatement(again, sql)
      })
    }
  }

  #numbered(sql: string): PreparedStatement {
    let statement = this.#statements.get(sql)
    if (!statement) {
      const numbered = numberParameters(sql)
      const hash = createHash('sha256').update(numbered.text).digest('hex').slice(0, 32)
      statement = { ...numbered, name: `blogdesk_${hash}` }
      // SQL built per call (a list of n placeholders) would grow the cache without end: the oldest entry goes.
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.delete(this.#statements.keys().next().value!)
      this.#statements.set(sql, statement)
    }
    return statement
  }
}

/** PostgreSQL's refusal to run a prepared statement whose result's columns have changed since it was prepared. */
function changedUnderPreparedStatement(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown }
  return code === '0A000' && /cached plan must not change result type/.test(String(message))
}

/** Booleans are stored as 0/1 integers, as in SQLite; bigints and bytes go as pg sends them. */
function toParameter(value: Value | boolean): Value {
  if (typeof value === 'boolean') return value ? 1 : 0
  return value
}

/**
 * PostgreSQL's error (its SQLSTATE `code`, `constraint`, `detail` kept, so callers can tell a unique violation,
 * 23505, from the rest) with the statement that caused it added to the message.
 */
function withStatement(error: unknown, sql: string): unknown {
  if (!(error instanceof Error)) return error
  error.message = `${error.message} (in: ${sql.replace(/\s+/g, ' ').trim().slice(0, 300)})`
  return error
}

/** The database's address without its password, for messages. */
function describe(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`
  } catch {
    return '(unreadable URL)'
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.constructor.name : String(error)
}
