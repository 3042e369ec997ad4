import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SqliteDatabase } from './database'
import type { Migration } from './migrations'

const schema: readonly Migration[] = [
  { version: 1, name: 'notebooks', sql: 'CREATE TABLE notebooks (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE);' },
  {
    version: 2,
    name: 'notes',
    sql: `CREATE TABLE notes (id INTEGER PRIMARY KEY, notebook_id INTEGER NOT NULL REFERENCES notebooks (id), text TEXT);
          INSERT INTO notebooks (title) VALUES ('Inbox');`,
  },
]

class NewerSchema extends Error {}
const newerSchemaError = (found: number, known: number) => new NewerSchema(`schema ${found}, code knows ${known}`)
const open = (file: string, migrations: readonly Migration[] = schema) => SqliteDatabase.open(file, { migrations, newerSchemaError })
const addNotebook = (db: SqliteDatabase, title: string) => db.run('INSERT INTO notebooks (title) VALUES (:title)', { ':title': title })
const titles = (db: SqliteDatabase) => db.all('SELECT title FROM notebooks ORDER BY id').map((row) => row['title'])

describe('SqliteDatabase', () => {
  let dir: string
  let file: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-sqlite-'))
    file = join(dir, 'test.sqlite')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('brings a fresh file to the newest schema, and reopens it without migrating again', () => {
    const db = open(file)
    expect(db.schemaVersion).toBe(2)
    addNotebook(db, 'Travel')
    db.close()

    const reopened = open(file)
    expect(titles(reopened)).toEqual(['Inbox', 'Travel'])
    reopened.close()
  })

  it('migrates a file from the version it is at, keeping its data', () => {
    const old = open(file, schema.slice(0, 1))
    addNotebook(old, 'Travel')
    old.close()

    const db = open(file)
    expect(db.schemaVersion).toBe(2)
    expect(titles(db)).toEqual(['Travel', 'Inbox'])
    db.close()
  })

  it('runs with the pragmas it verified: an exclusive write-ahead log, synchronous NORMAL, foreign keys enforced', () => {
    const db = open(file)
    expect(db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' })
    expect(db.get('PRAGMA locking_mode')).toEqual({ locking_mode: 'exclusive' })
    expect(db.get('PRAGMA synchronous')).toEqual({ synchronous: 1 })
    expect(() => db.run("INSERT INTO notes (notebook_id, text) VALUES (99, 'orphan')")).toThrow(/FOREIGN KEY constraint failed/)
    db.close()
  })

  it('leaves the file as it was when a migration fails', () => {
    open(file).close()
    const broken = [...schema, { version: 3, name: 'half done', sql: 'CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);' }]
    expect(() => open(file, broken)).toThrow(/^Migration 3 \(half done\) failed and was rolled back: .*no_such_table/)

    const db = open(file)
    expect(db.schemaVersion).toBe(2)
    expect(db.get("SELECT name FROM sqlite_master WHERE name = 'half'")).toBeNull()
    db.close()
  })

  it('refuses a file written by newer code with the caller\'s error, leaving it untouched', () => {
    open(file, [...schema, { version: 3, name: 'future', sql: 'CREATE TABLE future (x)' }]).close()
    expect(() => open(file)).toThrow(new NewerSchema('schema 3, code knows 2'))
    const newer = open(file, [...schema, { version: 3, name: 'future', sql: 'CREATE TABLE future (x)' }])
    expect(newer.get("SELECT name FROM sqlite_master WHERE name = 'future'")).toEqual({ name: 'future' })
    newer.close()
  })

  it.each([
    [[schema[0]!, schema[1]!, schema[0]!], /Migration 1 \(notebooks\) is listed after 2; keep them in order/],
    [[schema[0]!, schema[0]!], /Migration 1 \(notebooks\) is listed after 1; keep them in order/],
    [[schema[0]!, { ...schema[1]!, version: 3 }], /Migration 3 \(notes\) is number 2 in the list; number migrations 1, 2, 3… without gaps/],
    [[{ ...schema[0]!, version: 0 }], /Migration 0 \(notebooks\) is number 1 in the list/],
  ])('refuses migrations out of order or with gaps, before touching the file (%#)', (migrations, refusal) => {
    expect(() => open(file, migrations)).toThrow(refusal)
    expect(existsSync(file)).toBe(false)
  })

  it('rolls back all of a transaction that throws', () => {
    const db = open(file)
    expect(() =>
      db.transaction(() => {
        addNotebook(db, 'Travel')
        throw new Error('power cut')
      }),
    ).toThrow('power cut')
    expect(titles(db)).toEqual(['Inbox'])
    db.close()
  })

  it('nests transactions as savepoints: an inner one that throws undoes only its own writes', () => {
    const db = open(file)
    db.transaction(() => {
      addNotebook(db, 'outer')
      expect(() =>
        db.transaction(() => {
          addNotebook(db, 'inner')
          db.transaction(() => addNotebook(db, 'innermost'))
          throw new Error('inner failed')
        }),
      ).toThrow('inner failed')
      db.transaction(() => addNotebook(db, 'second inner'))
    })
    expect(titles(db)).toEqual(['Inbox', 'outer', 'second inner'])
    db.close()
  })

  it('refuses asynchronous work in a transaction, undoing what it wrote before it first waited', () => {
    const db = open(file)
    const work = async () => addNotebook(db, 'too late')
    expect(() => db.transaction(work)).toThrow(/must do its work synchronously/)
    expect(titles(db)).toEqual(['Inbox'])
    db.close()
  })

  it('keeps serving a statement after a run of it failed a constraint', () => {
    const db = open(file)
    expect(() => addNotebook(db, 'Inbox')).toThrow(/UNIQUE constraint failed/)
    expect(addNotebook(db, 'Travel')).toEqual({ changes: 1, lastInsertRowid: 2 })
    expect(titles(db)).toEqual(['Inbox', 'Travel'])
    db.close()
  })

  it('keeps answering when more distinct statements are run than it keeps prepared', () => {
    const db = open(file)
    for (let n = 0; n < 300; n++) expect(db.get(`SELECT ${n} AS n`)).toEqual({ n })
    expect(db.get('SELECT 0 AS n')).toEqual({ n: 0 })
    db.close()
  })

  it('flushes what was committed to the disk on request, sharing flushes among callers', async () => {
    const db = open(file)
    addNotebook(db, 'a')
    const first = db.syncToDisk()
    addNotebook(db, 'b')
    const second = db.syncToDisk()
    const third = db.syncToDisk()
    expect(third).toBe(second)
    await Promise.all([first, second, third])
    db.close()
    await expect(db.syncToDisk()).rejects.toThrow(`The database ${file} is closed.`)
  })
})
