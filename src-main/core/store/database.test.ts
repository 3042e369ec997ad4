import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LocalStore } from './database'
import { migrations, type Migration } from './migrations'

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
    store.run(
      "INSERT INTO accounts (id, atom_base, weblog_root, username, created_at) VALUES ('a', 'http://x', 'http://x/t/atom/weblog', 'melody', '2026-01-01')",
    )
    store.close()

    const reopened = LocalStore.open(file)
    expect(reopened.all('SELECT username FROM accounts')).toEqual([{ username: 'melody' }])
    reopened.close()
  })

  it('leaves the schema untouched when a migration fails', () => {
    LocalStore.open(file).close()
    const broken: Migration[] = [
      ...migrations,
      { version: 1000, name: 'half done', sql: 'CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);' },
    ]
    expect(() => LocalStore.open(file, broken)).toThrow(/no_such_table/)

    const store = LocalStore.open(file)
    expect(store.schemaVersion).toBe(migrations.at(-1)!.version)
    expect(store.get("SELECT name FROM sqlite_master WHERE name = 'half'")).toBeNull()
    store.close()
  })

  it('refuses to open data written by a newer Blogdesk instead of damaging it', () => {
    LocalStore.open(file, [...migrations, { version: 999, name: 'future', sql: 'CREATE TABLE future (x)' }]).close()
    expect(() => LocalStore.open(file)).toThrow(/newer Blogdesk/)
  })

  it('rolls back all of a transaction that throws', () => {
    const store = LocalStore.open(file)
    expect(() =>
      store.transaction(() => {
        store.run(
          "INSERT INTO accounts (id, atom_base, weblog_root, username, created_at) VALUES ('a', 'http://x', 'http://x/w', 'm', 'now')",
        )
        throw new Error('power cut')
      }),
    ).toThrow('power cut')
    expect(store.all('SELECT * FROM accounts')).toEqual([])
    store.close()
  })
})
