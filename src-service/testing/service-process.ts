// Runs the real service as a child process, the way `npm run service` does, on a free port with a fresh data dir.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { testDatabaseOption } from './postgres'
import { readSandboxFile, type Sandbox } from './service-fixture'

const repoRoot = join(import.meta.dirname, '..', '..')

export interface ServiceProcess extends ListeningProcess {
  port: number
  dataDir: string
  sandbox: Sandbox
}

const STARTUP_TIMEOUT_MS = 30_000
const SHUTDOWN_TIMEOUT_MS = 5_000

/** A child process that announced `listening on <url>`. */
export interface ListeningProcess {
  url: string
  pid: number
  /** Everything it printed, for the report of a failed test. */
  output(): string
  /** Resolves when it has exited, with its exit code (null when a signal ended it) and that signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  stop(): Promise<void>
}

/** Starts `node --import tsx <args>` in the repo and waits for its `listening on <url>` line. */
export async function spawnListening(args: readonly string[]): Promise<ListeningProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
  const lines: string[] = []
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => lines.push(chunk))
  const output = () => lines.join('')
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  try {
    const url = await listeningUrl(child, lines)
    return { url, pid: child.pid!, output, exited, stop: () => stop(child) }
  } catch (error) {
    await stop(child)
    throw new Error(`${args[0]} did not start: ${(error as Error).message}\n--- its output ---\n${output()}`, { cause: error })
  }
}

export interface ServiceProcessOptions {
  /** --simulate: the demo friends act every this many seconds. */
  simulateSeconds?: number
  /** --no-live: no live events streams, so clients poll. */
  noLiveStreams?: boolean
  /** --no-collection-feeds: no feeds of albums and lists, as servers other than Blogdesk's. */
  noCollectionFeeds?: boolean
  /** --categories-per-post: only the first this many of an entry's categories are kept, as Movable Type keeps one. */
  categoriesPerPost?: number
  /** --log json: a JSON line on stdout for each request, start, stop and error (output() has them). */
  logJson?: boolean
  /** --drain-delay: on SIGTERM, /ready answers 503 this long before the service stops listening. */
  drainDelaySeconds?: number
  /** --public-origin: where clients reach it (a load balancer), which every href starts with. */
  publicOrigin?: string
  /** On PostgreSQL, the data dir whose database this instance shares (several instances, one database); its own when absent. */
  databaseOf?: string
  /** A PostgreSQL URL (`--database`) whatever the engine under test: a bench's own cluster, or several instances. */
  database?: string
  /** --media-dir: uploads, photos and avatars in this folder (shared by instances) instead of the data dir. */
  mediaDir?: string
  /** --trust-proxy: addresses whose X-Forwarded-For names the client. */
  trustProxy?: readonly string[]
  /** --rate-limit: JSON requests a minute per client. */
  rateLimit?: number
}

/**
 * Starts the service on `port` (0: any free port); a data dir from an earlier run keeps its accounts and posts (on
 * PostgreSQL, under BLOGDESK_TEST_ENGINE=postgres, in the database testDatabaseOption gives that dir).
 * Offline: a test never sends a list-item lookup off this machine.
 */
export async function startServiceProcess(dataDir: string, port = 0, options: ServiceProcessOptions = {}): Promise<ServiceProcess> {
  await mkdir(dataDir, { recursive: true })
  const { database } = options.database === undefined ? await testDatabaseOption(options.databaseOf ?? dataDir) : options
  const simulate = options.simulateSeconds === undefined ? [] : ['--simulate', String(options.simulateSeconds)]
  const started = await spawnListening([
    'src-service/server.ts',
    ...['--port', String(port), '--data-dir', dataDir, '--demo', '--offline'],
    ...(database === undefined ? [] : ['--database', database]),
    ...simulate,
    ...(options.noLiveStreams ? ['--no-live'] : []),
    ...(options.noCollectionFeeds ? ['--no-collection-feeds'] : []),
    ...(options.categoriesPerPost === undefined ? [] : ['--categories-per-post', String(options.categoriesPerPost)]),
    ...(options.logJson ? ['--log', 'json'] : []),
    ...(options.drainDelaySeconds === undefined ? [] : ['--drain-delay', String(options.drainDelaySeconds)]),
    ...(options.publicOrigin === undefined ? [] : ['--public-origin', options.publicOrigin]),
    ...(options.mediaDir === undefined ? [] : ['--media-dir', options.mediaDir]),
    ...(options.trustProxy === undefined ? [] : ['--trust-proxy', options.trustProxy.join(',')]),
    ...(options.rateLimit === undefined ? [] : ['--rate-limit', String(options.rateLimit)]),
  ])
  return { ...started, port: Number(new URL(started.url).port), dataDir, sandbox: readSandboxFile(dataDir) }
}

/** Resolves with the URL of the `listening on <url>` line; keeps draining stdout afterwards so the pipe never fills. */
function listeningUrl(child: ChildProcess, lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within ${STARTUP_TIMEOUT_MS} ms`)), STARTUP_TIMEOUT_MS)
    const settle = (outcome: () => void) => {
      clearTimeout(timer)
      child.off('exit', onExit)
      outcome()
    }
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(() => reject(new Error(`it exited (${signal ?? `code ${code}`}) before listening`)))
    child.on('exit', onExit)
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(`${line}\n`)
      const match = /^listening on (http:\/\/\S+)$/.exec(line)
      if (match) settle(() => resolve(match[1]!))
    })
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), SHUTDOWN_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}
