import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { openPostgresEngine } from '../store/postgres-engine'
import { postgresMigrations, postgresSchemaVersion } from '../store/postgres-migrations'
import { createTestDatabase, testStoreDatabase } from './postgres'

describe('test databases on the throwaway cluster', () => {
  it('are fresh, separate, migrated when asked, and gone once dropped', async () => {
    const [first, second] = await Promise.all([createTestDatabase({ migrated: true }), createTestDatabase({ migrated: true })])
    const empty = await createTestDatabase()
    const [a, b, c] = await Promise.all([first, second, empty].map(({ url }) => openPostgresEngine(url, { migrations: false })))
    try {
      expect(await postgresSchemaVersion(a!)).toBe(postgresMigrations.length)
      expect(await postgresSchemaVersion(c!)).toBe(0)
      await a!.run("INSERT INTO applications (name) VALUES ('only in the first')")
      expect(await b!.all('SELECT name FROM applications')).toEqual([])
    } finally {
      await Promise.all([a, b, c].map((engine) => engine!.close()))
    }
    await Promise.all([first, second, empty].map((database) => database.drop()))
    await expect(openPostgresEngine(first.url, { migrations: false })).rejects.toThrow(/does not exist/)
  })
})

describe('the engine test stores use', () => {
  const withEngine = async <T>(engine: string | undefined, work: () => Promise<T>): Promise<T> => {
    const before = process.env['BLOGDESK_TEST_ENGINE']
    if (engine === undefined) delete process.env['BLOGDESK_TEST_ENGINE']
    else process.env['BLOGDESK_TEST_ENGINE'] = engine
    try {
      return await work()
    } finally {
      if (before === undefined) delete process.env['BLOGDESK_TEST_ENGINE']
      else process.env['BLOGDESK_TEST_ENGINE'] = before
    }
  }

  it('is SQLite unless BLOGDESK_TEST_ENGINE says postgres, which gives each store a migrated database', async () => {
    expect(await withEngine(undefined, testStoreDatabase)).toBeNull()
    expect(await withEngine('sqlite', testStoreDatabase)).toBeNull()
    const database = await withEngine('postgres', testStoreDatabase)
    try {
      const engine = await openPostgresEngine(database!.url, { migrations: false })
      expect(await postgresSchemaVersion(engine)).toBe(postgresMigrations.length)
      await engine.close()
    } finally {
      await database!.drop()
    }
  })

  it('fails loudly when it names an engine it does not know, or PostgreSQL without its URL', async () => {
    await expect(withEngine('postgresql', testStoreDatabase)).rejects.toThrow('BLOGDESK_TEST_ENGINE is "postgresql": use sqlite or postgres.')
    const url = process.env['BLOGDESK_TEST_POSTGRES_URL']
    delete process.env['BLOGDESK_TEST_POSTGRES_URL']
    try {
      await expect(withEngine('postgres', testStoreDatabase)).rejects.toThrow(/^BLOGDESK_TEST_POSTGRES_URL is not set, and this test needs PostgreSQL/)
    } finally {
      process.env['BLOGDESK_TEST_POSTGRES_URL'] = url
    }
  })
})

// Each of these starts a cluster of its own, which takes seconds on a busy machine.
describe('scripts/postgres.sh', { timeout: 60_000 }, () => {
  const script = (command: string[], env: NodeJS.ProcessEnv = process.env) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const run = spawn('bash', ['scripts/postgres.sh', ...command], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      run.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      run.on('error', reject)
      run.on('close', (status) => resolve({ status, stdout, stderr }))
    })

  it("runs the command beside a cluster on 127.0.0.1, then stops it and removes its folder, ending as the command did", async () => {
    const run = await script(['node', '-e', 'console.log(process.env.BLOGDESK_TEST_POSTGRES_URL); process.exit(3)'])
    expect(run.status).toBe(3)
    const url = new URL(run.stdout.trim())
    expect(url.hostname).toBe('127.0.0.1')
    const folder = /cluster in (\S+)\)/.exec(run.stderr)?.[1]
    expect(folder).toBeDefined()
    expect(existsSync(folder!)).toBe(false)
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(url.port), '127.0.0.1')
      socket.on('connect', () => (socket.destroy(), resolve(false)))
      socket.on('error', () => resolve(true))
    })
    expect(refused).toBe(true)
  })

  it('stops the command and the cluster when it is told to stop (a CI timeout)', async () => {
    const run = spawn('bash', ['scripts/postgres.sh', 'node', '-e', 'console.log(process.pid); setInterval(() => {}, 1000)'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const commandPid = Number(await new Promise<string>((resolve) => run.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))))
    const ended = new Promise<number | null>((resolve) => run.on('exit', (code) => resolve(code)))
    run.kill('SIGTERM')
    expect(await ended).toBe(143)
    const folder = /cluster in (\S+)\)/.exec(stderr)?.[1]
    expect(folder).toBeDefined()
    expect(existsSync(folder!)).toBe(false)
    expect(() => process.kill(commandPid, 0)).toThrow()
  })

  it('says what to install when PostgreSQL is missing', async () => {
    const run = await script(['true'], { ...process.env, BLOGDESK_POSTGRES_BIN: '/nonexistent/postgresql/bin' })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('PostgreSQL is not installed (/nonexistent/postgresql/bin/initdb is missing)')
    expect(run.stderr).toContain('apt-get install postgresql')
  })
})
