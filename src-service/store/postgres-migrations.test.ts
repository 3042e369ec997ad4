import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SqliteDatabase, type Migration, type SqlValue } from '../../src-shared/sqlite'
import { SetupError } from '../setup-error'
import { createTestDatabase, type TestDatabase } from '../testing/postgres'
import type { Engine, Params, Row } from './engine'
import { migrations } from './migrations'
import { openPostgresEngine } from './postgres-engine'
import { postgresMigrations, postgresSchemaVersion, WRITES_TABLE } from './postgres-migrations'

let database: TestDatabase
beforeEach(async () => {
  database = await createTestDatabase()
})
afterEach(() => database.drop())

describe('PostgreSQL migrations', () => {
  it('are numbered as the SQLite ones, so a version names the same schema on both engines', () => {
    expect(postgresMigrations.map(({ version, name }) => ({ version, name }))).toEqual(migrations.map(({ version, name }) => ({ version, name })))
  })

  it('are applied exactly once when four instances open a fresh database together, and every instance can use it', async () => {
    const engines = await Promise.all([1, 2, 3, 4].map(() => openPostgresEngine(database.url)))
    try {
      const applied = await engines[0]!.all('SELECT version FROM schema_migrations ORDER BY version')
      expect(applied.map((row) => row['version'])).toEqual(migrations.map((migration) => migration.version))
      const ids = await Promise.all(
        engines.map((engine, index) =>
          engine.get('INSERT INTO applications (name) VALUES (:name) RETURNING id', { ':name': `instance ${index}` }),
        ),
      )
      expect(new Set(ids.map((row) => row?.['id'])).size).toBe(4)
      expect(await postgresSchemaVersion(engines[3]!)).toBe(migrations.length)
    } finally {
      await Promise.all(engines.map((engine) => engine.close()))
    }
  })

  it('apply only what is pending when an instance with a newer schema opens the database', async () => {
    await (await openPostgresEngine(database.url, { migrations: postgresMigrations.slice(0, 3) })).close()
    const engine = await openPostgresEngine(database.url)
    try {
      expect(await postgresSchemaVersion(engine)).toBe(postgresMigrations.length)
      expect(await engine.all('SELECT version FROM schema_migrations')).toHaveLength(postgresMigrations.length)
    } finally {
      await engine.close()
    }
  })

  it('refuse a database written by a newer service, in the words the SQLite store uses', async () => {
    const engine = await openPostgresEngine(database.url)
    await engine.run("INSERT INTO schema_migrations (version, name) VALUES (:version, 'from the future')", {
      ':version': migrations.length + 1,
    })
    await engine.close()
    const refusal = await openPostgresEngine(database.url).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(SetupError)
    expect((refusal as Error).message).toBe(
      `This data was written by a newer Blogdesk service (schema ${migrations.length + 1}; this one knows up to ${migrations.length}). ` +
        'Update Blogdesk to use it.',
    )
  })

  it('roll back a migration that fails, whole, and say which one it was', async () => {
    const broken: Migration[] = [
      { version: 1, name: 'notebooks', sql: 'CREATE TABLE notebooks (id BIGINT PRIMARY KEY)' },
      { version: 2, name: 'half done', sql: 'CREATE TABLE notes (id BIGINT); INSERT INTO no_such_table VALUES (1)' },
    ]
    await expect(openPostgresEngine(database.url, { migrations: broken })).rejects.toThrow(
      /^Migration 2 \(half done\) failed and was rolled back: relation "no_such_table" does not exist/,
    )
    const engine = await openPostgresEngine(database.url, { migrations: broken.slice(0, 1) })
    try {
      expect(await postgresSchemaVersion(engine)).toBe(1)
      expect(await engine.get("SELECT to_regclass('notes') AS notes")).toEqual({ notes: null })
    } finally {
      await engine.close()
    }
  })
})

describe('the PostgreSQL schema beside the SQLite one', () => {
  let folder: string
  let sqlite: SqliteDatabase
  let postgres: Engine
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'blogdesk-schema-'))
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  beforeEach(async () => {
    sqlite = SqliteDatabase.open(join(folder, `${Date.now()}-${Math.random()}.sqlite`), {
      migrations,
      newerSchemaError: () => new Error('unexpected'),
    })
    postgres = await openPostgresEngine(database.url)
  })
  afterEach(async () => {
    sqlite.close()
    await postgres.close()
  })

  it('has the same tables, columns (type, nullability, default), indexes and triggers', async () => {
    const affinity: Record<string, string> = { bigint: 'INTEGER', text: 'TEXT', citext: 'TEXT', bytea: 'BLOB', 'double precision': 'REAL' }
    const sqliteTables = sqlite
      .all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .map((row) => String(row['name']))
    const sqliteColumns = sqliteTables.flatMap((table) =>
      sqlite.all(`SELECT name, type, "notnull", pk, dflt_value FROM pragma_table_info('${table}')`).map((column) => ({
        column: `${table}.${String(column['name'])}`,
        type: String(column['type']),
        // SQLite lets most primary keys hold NULL (a quirk kept for compatibility); PostgreSQL never does.
        notNull: column['notnull'] === 1 || Number(column['pk']) > 0,
        hasDefault: column['dflt_value'] !== null,
      })),
    )
    const postgresColumns = (
      await postgres.all(
        `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name NOT IN ('schema_migrations', '${WRITES_TABLE}')`,
      )
    ).map((column) => ({
      column: `${String(column['table_name'])}.${String(column['column_name'])}`,
      type: affinity[column['data_type'] === 'USER-DEFINED' ? String(column['udt_name']) : String(column['data_type'])],
      notNull: column['is_nullable'] === 'NO',
      hasDefault: column['column_default'] !== null,
    }))
    const byName = (a: { column: string }, b: { column: string }) => a.column.localeCompare(b.column)
    expect(postgresColumns.sort(byName)).toEqual(sqliteColumns.sort(byName))

    const names = (rows: Row[], key: string) => rows.map((row) => String(row[key])).sort()
    expect(
      names(await postgres.all("SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%\\_key' AND indexname NOT LIKE '%\\_pkey'"), 'indexname'),
    ).toEqual(names(sqlite.all("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"), 'name'))
    expect(names(await postgres.all('SELECT DISTINCT trigger_name FROM information_schema.triggers'), 'trigger_name')).toEqual(
      names(sqlite.all("SELECT name FROM sqlite_master WHERE type = 'trigger'"), 'name'),
    )
  })

  /**
   * One row in every table, through the same SQL on both engines, and each table read back: the rows agree once what
   * is random (url ids) or the clock's (default dates) is replaced by its shape.
   */
  const rows: [table: string, sql: string, params: Params][] = [
    ['users', "INSERT INTO users (username, display_name, login_password_hash, api_password_sealed) VALUES ('Melody', 'Melody Nelson', 'hash', :sealed)", { ':sealed': new Uint8Array([1, 2, 3]) }],
    ['weblogs', "INSERT INTO weblogs (owner_id, title, slug) VALUES (1, 'Valse', 'valse')", {}],
    ['applications', "INSERT INTO applications (name) VALUES ('Blogdesk')", {}],
    ['api_keys', "INSERT INTO api_keys (api_key, application_id) VALUES ('key-1', 1)", {}],
    ['groups', "INSERT INTO groups (display_name, tagline) VALUES ('Serge fans', NULL)", {}],
    ['posts', "INSERT INTO posts (weblog_id, author_id, title, content, content_kind, issued, modified, scheduled) VALUES (1, 1, 'Hi', '<p>hi</p>', 'xhtml', '2026-11-27T10:00:00Z', '2026-11-27T10:00:00Z', :scheduled)", { ':scheduled': true }],
    ['events', "INSERT INTO events (url_id, actor_id, verb, object_type, object_id, published, group_id) VALUES ('e-1', 1, 'NewAsset', 'Post', 1, '2026-11-27T10:00:00Z', 1)", {}],
    ['categories', "INSERT INTO categories (weblog_id, name) VALUES (1, 'Chansons')", {}],
    ['post_categories', 'INSERT INTO post_categories (post_id, category_id) VALUES (1, 1)', {}],
    ['idempotency_keys', "INSERT INTO idempotency_keys (user_id, key, request, fingerprint, status, headers, body, created) VALUES (1, 'k', 'POST /x', 'f', 201, '{}', '', '2026-11-27T10:00:00Z')", {}],
    ['albums', "INSERT INTO albums (owner_id, title) VALUES (1, 'Paris')", {}],
    ['photos', "INSERT INTO photos (album_id, title, filename, media_type, byte_size, sha256, width, height, latitude, longitude, issued, stored_name, thumbnail_name, thumbnail_width, thumbnail_height, created) VALUES (1, 'Pont', 'p.jpg', 'image/jpeg', 20000000, 'abc', 4000, 3000, 48.8566, 2.3522, '2026-11-27T10:00:00Z', 's1', 't1', 160, 120, '2026-11-27T10:00:00Z')", {}],
    ['uploads', "INSERT INTO uploads (weblog_id, filename, media_type, byte_size, sha256, stored_name, created) VALUES (1, 'a.png', 'image/png', 10, 'def', 's2', '2026-11-27T10:00:00Z')", {}],
    ['lists', "INSERT INTO lists (owner_id, title, type) VALUES (1, 'Records', 'music')", {}],
    ['list_items', `INSERT INTO list_items (list_id, fields, rating, notes, notes_format, issued, created) VALUES (1, '{"title":"Histoire"}', 5, 'n', 'text', '2026-11-27T10:00:00Z', '2026-11-27T10:00:00Z')`, {}],
    ['user_profiles', "INSERT INTO user_profiles (user_id, about_me, interests, avatar_color) VALUES (1, 'me', '[\"music\"]', '#a0b1c2')", {}],
    ['group_memberships', "INSERT INTO group_memberships (group_id, user_id, role, created) VALUES (1, 1, 'Admin', '2026-11-27T10:00:00Z')", {}],
    ['relationships', "INSERT INTO users (username, display_name, login_password_hash, api_password_sealed) VALUES ('jane', 'Jane', 'h', :sealed)", { ':sealed': new Uint8Array([4]) }],
    ['relationships', "INSERT INTO relationships (source_id, target_id, kind, created) VALUES (1, 2, 'neighbor', '2026-11-27T10:00:00Z')", {}],
    ['favorites', "INSERT INTO favorites (user_id, post_id, created) VALUES (2, 1, '2026-11-27T10:00:00Z')", {}],
    ['comments', "INSERT INTO comments (post_id, author_id, in_reply_to, content, text_format, published) VALUES (1, 2, NULL, 'nice', 'html', '2026-11-27T10:00:00Z')", {}],
    ['oauth_consumers', 'INSERT INTO oauth_consumers (api_key, secret_sealed) VALUES (:key, :secret)', { ':key': 'key-1', ':secret': new Uint8Array([9]) }],
    ['oauth_request_tokens', "INSERT INTO oauth_request_tokens (token, secret_sealed, api_key, callback, state, user_id, verifier, created, expires) VALUES ('rt', :secret, 'key-1', 'oob', 'approved', 1, 'v', '2026-11-27T10:00:00Z', '2026-11-27T11:00:00Z')", { ':secret': new Uint8Array([8]) }],
    ['oauth_access_tokens', "INSERT INTO oauth_access_tokens (token, api_key, user_id, secret_sealed) VALUES ('at', 'key-1', 1, :secret)", { ':secret': new Uint8Array([7]) }],
    ['oauth_nonces', "INSERT INTO oauth_nonces (api_key, nonce, timestamp) VALUES ('key-1', 'n', 1795000000)", {}],
  ]
  const tables = [...new Set(rows.map(([table]) => table)), 'url_ids', 'event_totals']

  it('stores and reads back the same rows as SQLite in every table, its triggers included', async () => {
    for (const [, sql, params] of rows) {
      sqlite.run(sql, params as Record<string, SqlValue | boolean>)
      await postgres.run(sql, params)
    }
    const shapeOf = (row: Row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => {
          if (value instanceof Uint8Array) return [key, [...value]]
          if (key === 'url_id' && typeof value === 'string' && value.startsWith('6')) return [key, value.replace(/[0-9a-f]/g, 'x')]
          if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(value) && !value.startsWith('2026-11-27T1')) {
            return [key, 'W3CDTF now']
          }
          return [key, value]
        }),
      )
    for (const table of tables) {
      const order = table === 'url_ids' ? 'object_type, object_id' : '1, 2'
      const fromSqlite = sqlite.all(`SELECT * FROM ${table} ORDER BY ${order}`).map(shapeOf)
      const fromPostgres = (await postgres.all(`SELECT * FROM ${table} ORDER BY ${order}`)).map(shapeOf)
      expect(fromSqlite.length, table).toBeGreaterThan(0)
      expect(fromPostgres, table).toEqual(fromSqlite)
    }
  })

  it('refuses what SQLite refuses: names differing only in case, bad JSON, bad colours, events about deleted rows', async () => {
    for (const [, sql, params] of rows.slice(0, 16)) await postgres.run(sql, params)
    const refused = (sql: string) => expect(postgres.run(sql), sql).rejects.toThrow()
    await refused("INSERT INTO users (username, display_name, login_password_hash, api_password_sealed) VALUES ('MELODY', 'x', 'h', '\\x00')")
    await refused("INSERT INTO categories (weblog_id, name) VALUES (1, 'chansons')")
    await refused("INSERT INTO list_items (list_id, fields, issued, created) VALUES (1, '{not json', 'x', 'x')")
    await refused("INSERT INTO list_items (list_id, fields, issued, created) VALUES (1, '[1]', 'x', 'x')")
    await refused("INSERT INTO list_items (list_id, fields, rating, issued, created) VALUES (1, '{}', 6, 'x', 'x')")
    await refused("UPDATE user_profiles SET avatar_color = '#A0B1C2'")
    expect(await postgres.get("SELECT id FROM users WHERE username = 'MELODY'")).toEqual({ id: 1 })

    expect(await postgres.get('SELECT total FROM event_totals WHERE actor_id = 1')).toEqual({ total: 1 })
    await postgres.run('DELETE FROM posts WHERE id = 1')
    expect(await postgres.get("SELECT count(*) AS n FROM url_ids WHERE object_type = 'Post'")).toEqual({ n: 0 })
    expect(await postgres.get('SELECT count(*) AS n FROM events')).toEqual({ n: 0 })
    expect(await postgres.get('SELECT total FROM event_totals WHERE actor_id = 1')).toEqual({ total: 0 })
  })
})
