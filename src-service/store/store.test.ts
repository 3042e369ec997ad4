import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SetupError } from '../setup-error'
import { Connection } from './connection'
import { DATABASE_FILE, openStore, SECRET_KEY_FILE } from '.'
import { migrations, type Migration } from './migrations'

const account = {
  username: 'melody',
  displayName: 'Melody Nelson',
  loginPassword: 'login-password-0123456789',
  apiPassword: 'api-password-9876543210',
}

describe('the service store', () => {
  let dataDir: string
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-store-'))
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  it('creates the data dir, its key and database on first use, and keeps the data on reopening', () => {
    const nested = join(dataDir, 'not', 'yet', 'there')
    const store = openStore(nested)
    const user = store.users.add(account)
    store.weblogs.add({ ownerId: user.id, title: 'Valse de Melody', slug: 'valse-de-melody' })
    const apiKey = store.applications.issueApiKey(store.applications.add('Blogdesk').id)
    store.close()

    const reopened = openStore(nested)
    expect(reopened.users.find('melody')).toEqual(user)
    expect(reopened.users.apiPasswordOf('melody')).toBe(account.apiPassword)
    expect(reopened.weblogs.ownedBy(user.id).map((weblog) => weblog.title)).toEqual(['Valse de Melody'])
    expect(reopened.applications.apiKeysOf('Blogdesk')).toEqual([apiKey])
    reopened.close()
  })

  it('never stores the API password or the login password in the clear', () => {
    const store = openStore(dataDir)
    store.users.add(account)
    store.close()

    for (const file of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, file))
      for (const secret of [account.apiPassword, account.loginPassword]) {
        expect(bytes.includes(Buffer.from(secret)), `${secret} in ${file}`).toBe(false)
      }
    }
    const db = Connection.open(join(dataDir, DATABASE_FILE))
    expect(db.get('SELECT login_password_hash FROM users')?.['login_password_hash']).toMatch(/^scrypt\$/)
    db.close()
  })

  it('keeps its key owner-only, and cannot read the passwords with another key', () => {
    const store = openStore(dataDir)
    store.users.add(account)
    store.close()
    const keyFile = join(dataDir, SECRET_KEY_FILE)
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)

    writeFileSync(keyFile, Buffer.alloc(32, 7))
    const withOtherKey = openStore(dataDir)
    expect(() => withOtherKey.users.apiPasswordOf('melody')).toThrow()
    withOtherKey.close()
  })

  it('refuses a damaged key file with a message saying what to do', () => {
    writeFileSync(join(dataDir, SECRET_KEY_FILE), 'short')
    expect(() => openStore(dataDir)).toThrow(/damaged.*Restore it from a backup/)
  })

  it('really runs SQLite in WAL mode', () => {
    openStore(dataDir).close()
    const db = Connection.open(join(dataDir, DATABASE_FILE))
    expect(db.get('PRAGMA journal_mode')?.['journal_mode']).toBe('wal')
    expect(db.get('PRAGMA locking_mode')?.['locking_mode']).toBe('exclusive')
    db.close()
  })

  it('refuses a data dir another live service is using, and frees it on close', () => {
    const first = openStore(dataDir)
    expect(() => openStore(dataDir)).toThrow(SetupError)
    expect(() => openStore(dataDir)).toThrow(/Another Blogdesk service \(process \d+\) is using/)
    first.close()
    openStore(dataDir).close()
  })

  it('takes over a data dir whose service died holding the locks', () => {
    openStore(dataDir).close()
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid
    writeFileSync(join(dataDir, 'service.pid'), `${deadPid}\n`)
    mkdirSync(join(dataDir, `${DATABASE_FILE}.lock`))

    const store = openStore(dataDir)
    expect(store.users.find('melody')).toBeNull()
    store.close()
  })

  it('refuses a data dir that is a file', () => {
    const file = join(dataDir, 'a-file')
    writeFileSync(file, '')
    expect(() => openStore(file)).toThrow(/it is a file, not a folder/)
  })
})

describe('migrations', () => {
  let file: string
  beforeEach(() => {
    file = join(mkdtempSync(join(tmpdir(), 'blogdesk-migrations-')), DATABASE_FILE)
  })
  afterEach(() => rmSync(join(file, '..'), { recursive: true, force: true }))

  it('brings a fresh database to the newest schema, and reopens it without migrating again', () => {
    const db = Connection.open(file)
    expect(db.schemaVersion).toBe(migrations.at(-1)!.version)
    db.run("INSERT INTO applications (name) VALUES ('Blogdesk')")
    db.close()

    const reopened = Connection.open(file)
    expect(reopened.schemaVersion).toBe(migrations.at(-1)!.version)
    expect(reopened.all('SELECT name FROM applications')).toEqual([{ name: 'Blogdesk' }])
    reopened.close()
  })

  it('leaves the database unchanged when a migration fails', () => {
    Connection.open(file).close()
    const broken: Migration[] = [
      ...migrations,
      { version: migrations.length + 1, name: 'half done', sql: 'CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);' },
    ]
    const rolledBack = /Migration \d+ \(half done\) failed and was rolled back: .*no_such_table/
    expect(() => Connection.open(file, broken)).toThrow(rolledBack)

    const db = Connection.open(file)
    expect(db.schemaVersion).toBe(migrations.at(-1)!.version)
    expect(db.get("SELECT name FROM sqlite_master WHERE name = 'half'")).toBeNull()
    db.close()
  })

  it('refuses a database written by a newer service instead of damaging it', () => {
    Connection.open(file, [...migrations, { version: migrations.length + 1, name: 'future', sql: 'CREATE TABLE future (x)' }]).close()
    expect(() => Connection.open(file)).toThrow(/newer Blogdesk service/)
  })
})
