import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SetupError } from '../setup-error'
import { SqliteEngine } from './sqlite-engine'
import { DATABASE_FILE, openStore, SECRET_KEY_FILE } from '.'
import { migrations, type Migration } from './migrations'
import { testEngine } from '../testing/postgres'

const account = {
  username: 'melody',
  displayName: 'Melody Nelson',
  loginPassword: 'login-password-0123456789',
  apiPassword: 'api-password-9876543210',
}

// About the data dir and the SQLite file in it (its key, WAL mode, pid lock, migrations): PostgreSQL's counterparts are
// postgres-engine.test.ts, postgres-migrations.test.ts and postgres-writes.test.ts, so the PostgreSQL run skips these.
describe.skipIf(testEngine() === 'postgres')('the service store', () => {
  let dataDir: string
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-store-'))
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  it('creates the data dir, its key and database on first use, and keeps the data on reopening', async () => {
    const nested = join(dataDir, 'not', 'yet', 'there')
    const store = await openStore(nested)
    const user = await store.users.add(account)
    await store.weblogs.add({ ownerId: user.id, title: 'Valse de Melody', slug: 'valse-de-melody' })
    const apiKey = await store.applications.issueApiKey((await store.applications.add('Blogdesk')).id)
    await store.close()

    const reopened = await openStore(nested)
    expect(await reopened.users.find('melody')).toEqual(user)
    expect(await reopened.users.apiPasswordOf('melody')).toBe(account.apiPassword)
    expect((await reopened.weblogs.ownedBy(user.id)).map((weblog) => weblog.title)).toEqual(['Valse de Melody'])
    expect(await reopened.applications.apiKeysOf('Blogdesk')).toEqual([apiKey])
    await reopened.close()
  })

  it('never stores the API password or the login password in the clear', async () => {
    const store = await openStore(dataDir)
    await store.users.add(account)
    await store.close()

    for (const file of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, file))
      for (const secret of [account.apiPassword, account.loginPassword]) {
        expect(bytes.includes(Buffer.from(secret)), `${secret} in ${file}`).toBe(false)
      }
    }
    const db = SqliteEngine.open(join(dataDir, DATABASE_FILE))
    expect((await db.get('SELECT login_password_hash FROM users'))?.['login_password_hash']).toMatch(/^scrypt\$/)
    await db.close()
  })

  it('keeps its key owner-only, and cannot read the passwords with another key', async () => {
    const store = await openStore(dataDir)
    await store.users.add(account)
    await store.close()
    const keyFile = join(dataDir, SECRET_KEY_FILE)
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)

    writeFileSync(keyFile, Buffer.alloc(32, 7))
    const withOtherKey = await openStore(dataDir)
    await expect(withOtherKey.users.apiPasswordOf('melody')).rejects.toThrow()
    await withOtherKey.close()
  })

  it('refuses a damaged key file with a message saying what to do', async () => {
    writeFileSync(join(dataDir, SECRET_KEY_FILE), 'short')
    await expect(openStore(dataDir)).rejects.toThrow(/damaged.*Restore it from a backup/)
  })

  it('really runs SQLite in WAL mode', async () => {
    await (await openStore(dataDir)).close()
    const db = SqliteEngine.open(join(dataDir, DATABASE_FILE))
    expect((await db.get('PRAGMA journal_mode'))?.['journal_mode']).toBe('wal')
    expect((await db.get('PRAGMA locking_mode'))?.['locking_mode']).toBe('exclusive')
    await db.close()
  })

  it('refuses a data dir another live service is using, and frees it on close', async () => {
    const first = await openStore(dataDir)
    await expect(openStore(dataDir)).rejects.toThrow(SetupError)
    await expect(openStore(dataDir)).rejects.toThrow(/Another Blogdesk service \(process \d+\) is using/)
    await first.close()
    await (await openStore(dataDir)).close()
  })

  it('takes over a data dir whose service died holding the locks', async () => {
    await (await openStore(dataDir)).close()
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid
    writeFileSync(join(dataDir, 'service.pid'), `${deadPid}\n`)
    mkdirSync(join(dataDir, `${DATABASE_FILE}.lock`))

    const store = await openStore(dataDir)
    expect(await store.users.find('melody')).toBeNull()
    await store.close()
  })

  it('refuses a data dir that is a file', async () => {
    const file = join(dataDir, 'a-file')
    writeFileSync(file, '')
    await expect(openStore(file)).rejects.toThrow(/it is a file, not a folder/)
  })
})

// The SQLite file's migrations; postgres-migrations.test.ts has PostgreSQL's.
describe.skipIf(testEngine() === 'postgres')('migrations', () => {
  let file: string
  beforeEach(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'blogdesk-migrations-')), DATABASE_FILE)
  })
  afterEach(() => rmSync(join(file, '..'), { recursive: true, force: true }))

  it('brings a fresh database to the newest schema, and reopens it without migrating again', async () => {
    const db = SqliteEngine.open(file)
    expect(db.schemaVersion).toBe(migrations.at(-1)!.version)
    await db.run("INSERT INTO applications (name) VALUES ('Blogdesk')")
    await db.close()

    const reopened = SqliteEngine.open(file)
    expect(reopened.schemaVersion).toBe(migrations.at(-1)!.version)
    expect(await reopened.all('SELECT name FROM applications')).toEqual([{ name: 'Blogdesk' }])
    await reopened.close()
  })

  it('leaves the database unchanged when a migration fails', async () => {
    await SqliteEngine.open(file).close()
    const broken: Migration[] = [
      ...migrations,
      { version: migrations.length + 1, name: 'half done', sql: 'CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);' },
    ]
    const rolledBack = /Migration \d+ \(half done\) failed and was rolled back: .*no_such_table/
    expect(() => SqliteEngine.open(file, broken)).toThrow(rolledBack)

    const db = SqliteEngine.open(file)
    expect(db.schemaVersion).toBe(migrations.at(-1)!.version)
    expect(await db.get("SELECT name FROM sqlite_master WHERE name = 'half'")).toBeNull()
    await db.close()
  })

  it('refuses a database written by a newer service instead of damaging it', async () => {
    await SqliteEngine.open(file, [...migrations, { version: migrations.length + 1, name: 'future', sql: 'CREATE TABLE future (x)' }]).close()
    expect(() => SqliteEngine.open(file)).toThrow(/newer Blogdesk service/)
  })
})
