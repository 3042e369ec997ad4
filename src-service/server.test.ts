import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readLinkFeed } from '../src-protocol'
import { helpText, parseArguments, startService } from './server'
import { melody, readSandboxFile, signedGet, startTestService, type Sandbox } from './testing/service-fixture'
import { testDatabaseOption, testEngine } from './testing/postgres'

const repoRoot = join(import.meta.dirname, '..')

interface Cli {
  child: ChildProcess
  origin: string
  /** Everything the process printed, once it has exited. */
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>
}

function run(args: string[]): { child: ChildProcess; exited: Cli['exited'] } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-service/server.ts', ...args], { cwd: repoRoot })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  )
  return { child, exited }
}

/** Starts the CLI and waits for its `listening on` line. */
function start(args: string[]): Promise<Cli> {
  const { child, exited } = run(args)
  return new Promise((resolve, reject) => {
    let seen = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      const origin = /^listening on (\S+)\n/.exec(seen)?.[1]
      if (origin) resolve({ child, origin, exited })
    })
    void exited.then(({ code, stderr }) => reject(new Error(`exited (${code}) before listening: ${stderr}`)))
  })
}

async function stop(cli: Cli, signal: NodeJS.Signals = 'SIGTERM') {
  cli.child.kill(signal)
  return cli.exited
}

describe('npm run service', () => {
  let dataDir: string
  const running: Cli[] = []
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-cli-'))
  })
  afterEach(async () => {
    for (const cli of running.splice(0)) if (cli.child.exitCode === null) await stop(cli, 'SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })
  // On PostgreSQL (BLOGDESK_TEST_ENGINE), every start on this data dir also names its database.
  const startTracked = async (args: string[]) => {
    const { database } = await testDatabaseOption(dataDir)
    const cli = await start(database === undefined ? args : [...args, '--database', database])
    running.push(cli)
    return cli
  }
  const readSandbox = () => readSandboxFile(dataDir)
  const listTitles = async (origin: string, sandbox: Sandbox) => {
    const credentials = { username: sandbox.username, password: sandbox.apiPassword }
    const response = await signedGet(`${origin}/t/atom/weblog`, credentials)
    expect(response.status).toBe(200)
    return readLinkFeed(await response.text(), origin).map((link) => `${link.rel} ${link.title}`)
  }

  it('serves the demo account, keeps its data across restarts and seeds it only once', async () => {
    const first = await startTracked(['--port', '0', '--data-dir', dataDir, '--demo'])
    expect(first.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(statSync(join(dataDir, 'sandbox.json')).mode & 0o777).toBe(0o600)
    const sandbox = readSandbox()
    expect(sandbox).toEqual({
      atomBase: first.origin,
      jsonBase: first.origin,
      username: 'melody',
      apiPassword: expect.stringMatching(/^[\w-]{24}$/),
      apiKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      apiSecret: expect.stringMatching(/^[\w-]{32}$/),
      authToken: expect.stringMatching(/^[\w-]{16}$/),
      authTokenSecret: expect.stringMatching(/^[\w-]{32}$/),
      loginPassword: expect.stringMatching(/^[\w-]{24}$/),
    })
    const titles = await listTitles(first.origin, sandbox)
    expect(titles).toHaveLength(12) // six links for each of the two weblogs
    const weblogTitles = new Set(titles.map((entry) => entry.replace(/^\S+ /, '')))
    expect(weblogTitles).toEqual(new Set(['Valse de Melody', "L'hôtel particulier"]))

    const { code, stdout } = await stop(first)
    expect(code).toBe(0)
    expect(stdout).toBe(`listening on ${first.origin}\n`)
    // The SQLite file's bytes; PostgreSQL's rows have the same sealed and hashed columns (postgres-migrations.test.ts).
    if (testEngine() === 'sqlite') {
      const database = readFileSync(join(dataDir, 'service.sqlite'))
      expect(database.includes(sandbox.apiPassword)).toBe(false)
      expect(database.includes(sandbox.loginPassword)).toBe(false)
    }

    const second = await startTracked(['--port', '0', '--data-dir', dataDir, '--demo'])
    const again = readSandbox()
    expect(again).toEqual({ ...sandbox, atomBase: second.origin, jsonBase: second.origin })
    expect(await listTitles(second.origin, again)).toEqual(titles)
    expect((await stop(second, 'SIGINT')).code).toBe(0)
  })

  it('starts again after being killed, with its data', async () => {
    const killed = await startTracked(['--port', '0', '--data-dir', dataDir, '--demo'])
    const sandbox = readSandbox()
    expect((await stop(killed, 'SIGKILL')).code).toBeNull()

    const restarted = await startTracked(['--data-dir', dataDir, '--demo', '--port=0'])
    expect(readSandbox()).toEqual({ ...sandbox, atomBase: restarted.origin, jsonBase: restarted.origin })
    expect(await listTitles(restarted.origin, sandbox)).toHaveLength(12)
  })

  it('refuses to share a data dir with a running service', async () => {
    await startTracked(['--port', '0', '--data-dir', dataDir])
    const { code, stderr } = await run(['--port', '0', '--data-dir', dataDir]).exited
    expect(code).toBe(1)
    expect(stderr).toMatch(
      /^Cannot start the Blogdesk service: Another Blogdesk service \(process \d+\) is using .*\n$/,
    )
  })

  it.each([
    [['--port', '0', '--data-dir', 'x', '--bogus'], /unknown option --bogus/],
    [['--data-dir', 'x', '--port'], /--port needs a value/],
    [['--port', 'eighty', '--data-dir', 'x'], /--port must be a number from 0 to 65535/],
    [['--port', '0'], /--data-dir is missing/],
    [['--data-dir', 'x'], /--port is missing/],
    [['--port', '0', '--data-dir', 'x', '--categories-per-post', '0'], /--categories-per-post must be a whole number of categories above 0, not "0"/],
  ])('refuses %j with a one-line message', async (args, message) => {
    const { code, stdout, stderr } = await run(args).exited
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(message)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('takes a PostgreSQL URL with --database, and refuses anything else without repeating the password', async () => {
    const url = 'postgres://blogdesk:secret-pw@db.internal:5432/blogdesk'
    expect(parseArguments(['--port', '0', '--data-dir', 'x', '--database', url])).toEqual({ port: 0, dataDir: 'x', database: url })
    const { code, stderr } = await run(['--port', '0', '--data-dir', dataDir, '--database', 'mysql://u:secret-pw@h/db']).exited
    expect(code).toBe(1)
    expect(stderr).toMatch(/--database mysql:\/\/u:\*\*\*@h\/db is not a PostgreSQL URL/)
    expect(stderr).not.toContain('secret-pw')
  })

  it('lists every flag with --help, as the README\'s table does', async () => {
    const { code, stdout } = await run(['--help']).exited
    expect(code).toBe(0)
    expect(stdout).toBe(helpText())
    const listed = [...stdout.matchAll(/^ {2}(--[\w-]+)/gm)].map((match) => match[1])
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8')
    const documented = [...readme.matchAll(/^\| `(--[\w-]+)[^`]*` \|/gm)].map((match) => match[1])
    expect(new Set(documented)).toEqual(new Set(listed))
  })

  it('refuses a data dir that is a file', async () => {
    const file = join(dataDir, 'a-file')
    writeFileSync(file, '')
    const { code, stderr } = await run(['--port', '0', '--data-dir', file]).exited
    expect(code).toBe(1)
    expect(stderr).toBe(
      `Cannot start the Blogdesk service: Cannot keep data in ${file}: it is a file, not a folder. ` +
        'Choose a folder path (a missing folder is created).\n',
    )
  })

  it('refuses a port that is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const { code, stderr } = await run(['--port', String(port), '--data-dir', dataDir]).exited
      expect(code).toBe(1)
      expect(stderr).toMatch(new RegExp(`Port ${port} on 127.0.0.1 is already in use`))
    } finally {
      blocker.close()
    }
  })
})

describe('startService', () => {
  it('stops at once even while a client keeps its connection open', async () => {
    const service = await startTestService([melody])
    const dataDir = service.dataDir
    expect((await signedGet(`${service.origin}/t/atom/weblog`, melody)).status).toBe(200)

    const started = Date.now()
    await service.dispose()
    expect(Date.now() - started).toBeLessThan(1000)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('can be started again on the same data dir once stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-restart-'))
    try {
      const first = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true })
      await first.close()
      const second = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true })
      const { username, apiPassword } = readSandboxFile(dataDir)
      expect((await signedGet(`${second.origin}/t/atom/weblog`, { username, password: apiPassword })).status).toBe(200)
      await second.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('--resources', () => {
  const repoResources = join(repoRoot, 'resources')
  let folder: string
  let dataDir: string
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'blogdesk-resources-'))
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-resources-data-'))
  })
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('is read from the command line', () => {
    expect(parseArguments(['--port', '0', '--data-dir', 'x', '--resources', '/opt/Blogdesk/resources'])).toEqual({
      port: 0,
      dataDir: 'x',
      resources: '/opt/Blogdesk/resources',
    })
  })

  it('seeds the demo from the catalogue and photos in the named folder, as the packaged app lays them out', async () => {
    cpSync(join(repoResources, 'demo-photos'), join(folder, 'demo-photos'), { recursive: true })
    const catalogue = JSON.parse(readFileSync(join(repoResources, 'catalogue', 'books.json'), 'utf8')) as {
      books: { isbn13: string; title: string }[]
    }
    const cBook = catalogue.books.find((book) => book.isbn13 === '9780131103627')!
    cBook.title = 'The C Programming Language, from the packaged catalogue'
    mkdirSync(join(folder, 'catalogue'))
    writeFileSync(join(folder, 'catalogue', 'books.json'), JSON.stringify(catalogue))

    const service = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, resources: folder })
    try {
      const { username, apiPassword } = readSandboxFile(dataDir)
      const root = await signedGet(`${service.origin}/t/atom/lists`, { username, password: apiPassword })
      const links = readLinkFeed(await root.text(), service.origin)
      const bookPage = links.find((link) => link.rel === 'alternate' && link.title === 'On the desk')
      const page = await (await fetch(bookPage!.href)).text()
      expect(page).toContain('The C Programming Language, from the packaged catalogue')
    } finally {
      await service.close()
    }
  })

  it('refuses a folder that does not hold the resources, naming what is missing', async () => {
    await expect(startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, resources: folder })).rejects.toThrow(
      `The ISBN catalogue ${join(folder, 'catalogue', 'books.json')} could not be read`,
    )
    cpSync(join(repoResources, 'catalogue'), join(folder, 'catalogue'), { recursive: true })
    await expect(startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, resources: folder })).rejects.toThrow(join(folder, 'demo-photos'))
  })
})
