import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LocalStore } from './database'
import { migrations, type Migration } from './migrations'

const insertAccount = (store: LocalStore, id: string) =>
  store.run(
    "INSERT INTO accounts (id, atom_base, weblog_root, username, created_at) VALUES (:id, 'http://x', 'http://x/t/atom/weblog', :id, '2026-01-01')",
    { id },
  )

describe('LocalStore', () => {
  let dir: string
  let file: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-store-'))
    file = join(dir, 'blogdesk.sqlite')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('creates every table of the newest schema in a fresh file, and reopens it with the data kept', () => {
    const store = LocalStore.open(file)
    expect(store.schemaVersion).toBe(migrations.at(-1)!.version)
    insertAccount(store, 'melody')
    store.close()

    const reopened = LocalStore.open(file)
    expect(reopened.all('SELECT username FROM accounts')).toEqual([{ username: 'melody' }])
    reopened.close()
  })

  it('keeps its writes in a write-ahead log, holding the file for itself (the mode it was asked for, not a fallback)', () => {
    const store = LocalStore.open(file)
    expect(store.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' })
    expect(store.get('PRAGMA locking_mode')).toEqual({ locking_mode: 'exclusive' })
    expect(store.get('PRAGMA synchronous')).toEqual({ synchronous: 1 })
    expect(store.get('PRAGMA foreign_keys')).toEqual({ foreign_keys: 1 })
    store.close()
  })

  it('leaves the schema untouched when a migration fails', () => {
    LocalStore.open(file).close()
    const broken: Migration[] = [
      ...migrations,
      { version: migrations.length + 1, name: 'half done', sql: 'CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);' },
    ]
    expect(() => LocalStore.open(file, broken)).toThrow(/Migration \d+ \(half done\) failed and was rolled back: .*no_such_table/)

    const store = LocalStore.open(file)
    expect(store.schemaVersion).toBe(migrations.at(-1)!.version)
    expect(store.get("SELECT name FROM sqlite_master WHERE name = 'half'")).toBeNull()
    store.close()
  })

  it('refuses to open data written by a newer Blogdesk instead of damaging it', () => {
    LocalStore.open(file, [...migrations, { version: migrations.length + 1, name: 'future', sql: 'CREATE TABLE future (x)' }]).close()
    expect(() => LocalStore.open(file)).toThrow(/newer Blogdesk/)
  })
})

describe('migrations', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-migrations-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  // Rows a person would have at each version; each must still be there after every later migration.
  const seeds: Record<number, { sql: string; check: string }> = {
    1: {
      sql: "INSERT INTO accounts (id, atom_base, weblog_root, username, created_at) VALUES ('acc', 'http://x', 'http://x/t/atom/weblog', 'melody', '2026-01-01')",
      check: "SELECT COUNT(*) AS n FROM accounts WHERE username = 'melody'",
    },
    2: {
      sql: `INSERT INTO drafts (id, account_id, weblog_post_uri, title, content, categories, state, created_at, updated_at)
              VALUES ('d1', 'acc', 'http://x/t/atom/weblog/blog_id=1', 'Tram 28', '<p>up the hill</p>', '["Lisbon"]', 'draft', '2026-01-01', '2026-01-01');
            INSERT INTO draft_revisions (draft_id, title, content, categories, started_at, saved_at)
              VALUES ('d1', 'Tram 28', '<p>up the hill</p>', '["Lisbon"]', '2026-01-01', '2026-01-01');
            INSERT INTO caches (account_id, kind, key, value, fetched_at) VALUES ('acc', 'categories', 'http://x/w/1', '["Lisbon"]', '2026-01-01');`,
      check: `SELECT (SELECT COUNT(*) FROM drafts) + (SELECT COUNT(*) FROM draft_revisions) + (SELECT COUNT(*) FROM caches) - 2 AS n`,
    },
    5: {
      sql: `INSERT INTO media_copies (hash, type, extension, size, added_at) VALUES ('ab12', 'image/jpeg', 'jpg', 10, '2026-01-01');
            INSERT INTO uploaded_media (weblog_post_uri, hash, url, uploaded_at) VALUES ('http://x/w/1', 'ab12', 'http://x/u/a.jpg', '2026-01-01');`,
      check: 'SELECT (SELECT COUNT(*) FROM media_copies) + (SELECT COUNT(*) FROM uploaded_media) - 1 AS n',
    },
  }

  it('bring a fresh file to the newest version', () => {
    const store = LocalStore.open(join(dir, 'fresh.sqlite'))
    expect(store.schemaVersion).toBe(migrations.at(-1)!.version)
    expect(store.get('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' })
    expect(store.all('PRAGMA foreign_key_check')).toEqual([])
    store.close()
  })

  it.each(migrations.slice(1).map((migration, index) => [migration.version, migration.name, index + 1] as const))(
    'apply %i (%s) to a file at the version before it, keeping its data',
    (version, _name, index) => {
      const file = join(dir, `at-${version}.sqlite`)
      const before = LocalStore.open(file, migrations.slice(0, index))
      for (const migration of migrations.slice(0, index)) {
        const seed = seeds[migration.version]
        if (seed) before.transaction(() => runScript(before, seed.sql))
      }
      before.close()

      const after = LocalStore.open(file, migrations.slice(0, index + 1))
      expect(after.schemaVersion).toBe(version)
      for (const migration of migrations.slice(0, index)) {
        const seed = seeds[migration.version]
        if (seed) expect(after.get(seed.check), `data of version ${migration.version}`).toEqual({ n: 1 })
      }
      expect(after.get('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' })
      expect(after.all('PRAGMA foreign_key_check')).toEqual([])
      after.close()
    },
  )

  it('keep loading remote images for friends followed before 7 asked, and ask for everyone followed after', () => {
    const file = join(dir, 'friends.sqlite')
    const addFriend = (store: LocalStore, id: string) =>
      store.run(`INSERT INTO friends (id, account_id, url_id, profile, added_at) VALUES (:id, 'acc', :id, '{}', '2026-01-01')`, { id })
    const before = LocalStore.open(file, migrations.filter((migration) => migration.version < 7))
    before.transaction(() => {
      runScript(before, seeds[1]!.sql)
      addFriend(before, 'jane')
    })
    before.close()

    const after = LocalStore.open(file)
    addFriend(after, 'chet')
    expect(after.all('SELECT id, load_remote_images FROM friends ORDER BY id')).toEqual([
      { id: 'chet', load_remote_images: 0 },
      { id: 'jane', load_remote_images: 1 },
    ])
    after.close()
  })
})

function runScript(store: LocalStore, sql: string): void {
  for (const statement of sql.split(';').map((part) => part.trim()).filter(Boolean)) store.run(statement)
}

describe('migration 9: drafts of published posts move to Posts', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-migration-9-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('marks every live draft saved since it last settled as holding changes, so none hides unmarked', () => {
    const file = join(dir, 'drafts.sqlite')
    const before = LocalStore.open(file, migrations.filter((migration) => migration.version < 9))
    const draft = (id: string, state: string, remote: string | null, updatedAt: string, savedAt: string) => {
      before.run(
        `INSERT INTO drafts (id, account_id, weblog_post_uri, title, content, categories, state, remote_edit_uri, created_at, updated_at)
         VALUES (:id, 'acc', 'http://x/w/1', :id, '<p>text</p>', '[]', :state, :remote, '2026-01-01T00:00:00Z', :updatedAt)`,
        { id, state, remote, updatedAt },
      )
      before.run(
        `INSERT INTO draft_revisions (draft_id, title, content, categories, started_at, saved_at)
         VALUES (:id, :id, '<p>text</p>', '[]', :savedAt, :savedAt)`,
        { id, savedAt },
      )
    }
    before.transaction(() => {
      insertAccount(before, 'acc')
      draft('settled', 'published', 'http://x/e/1', '2026-02-02T10:00:00Z', '2026-02-02T09:00:00Z')
      draft('edited-after', 'published', 'http://x/e/2', '2026-02-02T11:00:00Z', '2026-02-02T11:00:00Z')
      draft('update-queued', 'queued', 'http://x/e/3', '2026-02-02T12:00:00Z', '2026-02-02T11:00:00Z')
      draft('never-published', 'draft', null, '2026-02-02T13:00:00Z', '2026-02-02T13:00:00Z')
    })
    before.close()

    const after = LocalStore.open(file)
    const marked = after.all('SELECT id FROM drafts WHERE unpublished_changes = 1 ORDER BY id').map((row) => row['id'])
    expect(marked).toEqual(['edited-after', 'update-queued'])
    expect(after.get("SELECT summary, issued, dropped_categories FROM drafts WHERE id = 'settled'")).toEqual({
      summary: '',
      issued: null,
      dropped_categories: '[]',
    })
    after.close()
  })
})
