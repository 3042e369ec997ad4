// Runs the service on a socket: `npm run service -- --port <n> --data-dir <dir> [options]` (`--help` lists them).
// startService is also what the app's sandbox process calls; the CLI below runs only when this file is the entry.
import type { EventEmitter } from 'node:events'
import { realpathSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { isIP, type AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { SANDBOX_STOP_MESSAGE } from '../src-protocol'
import { createService, type ServiceOptions } from './app'
import { writeSandboxFile } from './demo'
import type { LookupOptions } from './lookup'
import { JsonLog, LOG_FORMATS } from './operations/log'
import { trackRequestsForShutdown } from './operations/shutdown'
import { SetupError } from './setup-error'
import { DATABASE_FLAG, parseDatabaseUrl } from './store/database-url'

/** What the service needs (`createService`), and where to listen. */
export interface StartOptions extends ServiceOptions {
  /** 0 picks a free port. */
  port: number
  /** Defaults to 127.0.0.1: the service is for this machine unless asked otherwise. */
  host?: string
  /** On close, how long readiness answers 503 while requests are still served, before the service stops listening:
   * a load balancer's checks take it out of rotation first, so none of its new connections is refused. */
  drainDelayMs?: number
  /** Where clients reach the service when that is not where it listens (a load balancer's origin): every href the
   * service sends starts with it. The listening address when absent. */
  publicOrigin?: string
}

export interface RunningService {
  /** e.g. http://127.0.0.1:4321 — the Atom root is <origin>/t/atom/weblog. */
  origin: string
  /** Answers /ready with 503 (for drainDelayMs while still serving), stops accepting connections, lets requests in
   * flight finish, then closes the store. Safe to call twice. */
  close(): Promise<void>
}

/** Requests still running this long after close() are cut off, so one stuck client cannot keep the service up. */
const SHUTDOWN_GRACE_MS = 10_000

export async function startService({
  port,
  host = '127.0.0.1',
  drainDelayMs = 0,
  publicOrigin,
  ...serviceOptions
}: StartOptions): Promise<RunningService> {
  const { dataDir } = serviceOptions
  const service = await createService(serviceOptions)
  const server = createServer()
  try {
    const origin = originOf(await listen(server, port, host))
    const stopServer = trackRequestsForShutdown(server, SHUTDOWN_GRACE_MS)
    server.on('request', service.requestListener(publicOrigin ?? origin))
    if (service.sandbox) writeSandboxFile(dataDir, publicOrigin ?? origin, service.sandbox)
    let closed: Promise<void> | undefined
    const close = async () => {
      service.drain()
      if (drainDelayMs > 0) await sleep(drainDelayMs)
      const stopped = stopServer()
      await stopped
      await service.close()
    }
    return { origin, close: () => (closed ??= close()) }
  } catch (error) {
    server.close()
    await service.close()
    throw error
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(describeListenError(error, port, host))
    server.once('error', fail)
    server.listen(port, host, () => {
      server.off('error', fail)
      resolve(server.address() as AddressInfo)
    })
  })
}

function describeListenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new SetupError(`Port ${port} on ${host} is already in use. Choose another port, or 0 for any free one.`)
    case 'EACCES':
      return new SetupError(`Port ${port} needs more privileges than this user has. Choose a port above 1023, or 0.`)
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new SetupError(`${host} is not an address of this machine. Use 127.0.0.1, or leave the host out.`)
    default:
      return error
  }
}

function originOf({ address, family, port }: AddressInfo): string {
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`
}

/** Every flag of the command line, with what `--help` says of it (README.md's table says the same). */
const flags = {
  port: { type: 'string', value: '<n>', help: 'port to listen on; 0 picks a free one (required)' },
  'data-dir': { type: 'string', value: '<dir>', help: 'SQLite database, media, avatars and keys; created if missing (required)' },
  database: DATABASE_FLAG,
  'media-dir': { type: 'string', value: '<dir>', help: 'uploads, photos and avatars here instead of in --data-dir: one folder every instance shares' },
  demo: { type: 'boolean', help: 'seed the demo account on first start and write <data-dir>/sandbox.json with its credentials' },
  simulate: { type: 'string', value: '<seconds>', help: 'with --demo: the demo friends post, comment, favour and add neighbours this often' },
  host: { type: 'string', value: '<address>', help: 'address to bind; 127.0.0.1 by default' },
  offline: { type: 'boolean', help: 'list-item lookups never leave this machine (the local catalogue still answers)' },
  'lookup-allow': { type: 'string', value: '<host,...>', help: 'hosts that lookups may reach even on private or loopback addresses' },
  'isbn-provider': { type: 'string', value: '<url>', help: 'an HTTP book catalogue instead of the bundled one; {isbn} becomes the ISBN-13' },
  'trust-proxy': { type: 'string', value: '<address,...>', help: 'proxies (a load balancer) whose X-Forwarded-For names the client, for --rate-limit and sign-in pauses' },
  'rate-limit': { type: 'string', value: '<n>', help: 'JSON requests a minute per client (by API key when signed, else by address); 503 beyond' },
  resources: { type: 'string', value: '<dir>', help: "the folder holding catalogue/ and demo-photos/; the repo's resources/ by default" },
  'no-live': { type: 'boolean', help: 'serve no live event streams (events.json is polled), as a server without that extension' },
  'no-collection-feeds': { type: 'boolean', help: 'serve no feeds of albums and lists (no service.feed), as a server without that extension' },
  'categories-per-post': { type: 'string', value: '<n>', help: "keep only the first n of an entry's categories (Movable Type keeps 1); all by default" },
  'public-origin': { type: 'string', value: '<url>', help: "where clients reach the service, if not at its own address (a load balancer's); hrefs start with it" },
  'drain-delay': { type: 'string', value: '<seconds>', help: 'on SIGTERM, answer /ready with 503 this long before no longer listening (behind a balancer)' },
  log: { type: 'string', value: 'json|none', help: 'json: a JSON line on stdout for each request, start, stop and error; none (default): only the listening line' },
  help: { type: 'boolean', help: 'show this and exit' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; value?: string; help: string }>

const USAGE = 'usage: npm run service -- --port <n> --data-dir <dir> [options]; --help lists them'

/** What `--help` prints: the usage line and every flag. NODE_DEBUG=blogdesk-lookup shows why a lookup failed. */
export function helpText(): string {
  const names = Object.entries(flags).map(([name, flag]) => `--${name}${'value' in flag ? ` ${flag.value}` : ''}`)
  const width = Math.max(...names.map((name) => name.length)) + 2
  const lines = Object.values(flags).map((flag, index) => `  ${names[index]!.padEnd(width)}${flag.help}`)
  return ['usage: npm run service -- --port <n> --data-dir <dir> [options]', '', ...lines, ''].join('\n')
}

class UsageError extends SetupError {}

/** Reads the command line; `--flag value` and `--flag=value` both work. */
export function parseArguments(args: readonly string[]): StartOptions {
  const { values } = readFlags(args)
  const text = (name: keyof typeof flags): string | undefined => {
    const value = values[name]
    if (value === '') throw new UsageError(`--${name} needs a value (${USAGE})`)
    return typeof value === 'string' ? value : undefined
  }
  const port = text('port')
  const dataDir = text('data-dir')
  if (port === undefined) throw new UsageError(`--port is missing; use 0 for any free port (${USAGE})`)
  if (dataDir === undefined) throw new UsageError(`--data-dir is missing; name the folder for the service's data (${USAGE})`)
  const options: StartOptions = { port: parsePort(port), dataDir }
  const database = text('database')
  if (database !== undefined) options.database = parseDatabaseUrl(database)
  const mediaDir = text('media-dir')
  if (mediaDir !== undefined) options.mediaDir = mediaDir
  const trustProxy = text('trust-proxy')
  if (trustProxy !== undefined) options.trustProxy = parseAddresses('--trust-proxy', trustProxy)
  const lookup: LookupOptions = {}
  if (values.offline) lookup.offline = true
  const allow = text('lookup-allow')
  if (allow !== undefined) lookup.allowHosts = allow.split(',').map((host) => host.trim()).filter(Boolean)
  const isbnProvider = text('isbn-provider')
  if (isbnProvider !== undefined) lookup.isbnProviderUrl = isbnProvider
  if (Object.keys(lookup).length > 0) options.lookup = lookup
  if (values.demo) options.demo = true
  const host = text('host')
  if (host !== undefined) options.host = host
  const rateLimit = text('rate-limit')
  if (rateLimit !== undefined) options.rateLimit = parsePositive('--rate-limit', rateLimit, /^\d+$/, 'a whole number of requests a minute')
  const simulate = text('simulate')
  if (simulate !== undefined) options.simulate = parsePositive('--simulate', simulate, /^\d+(\.\d+)?$/, 'a number of seconds')
  const resources = text('resources')
  if (resources !== undefined) options.resources = resources
  if (values['no-live']) options.liveStreams = false
  if (values['no-collection-feeds']) options.collectionFeeds = false
  const categoriesPerPost = text('categories-per-post')
  if (categoriesPerPost !== undefined) {
    options.categoriesPerPost = parsePositive('--categories-per-post', categoriesPerPost, /^\d+$/, 'a whole number of categories')
  }
  const publicOrigin = text('public-origin')
  if (publicOrigin !== undefined) options.publicOrigin = parseOrigin(publicOrigin)
  const drainDelay = text('drain-delay')
  if (drainDelay !== undefined) options.drainDelayMs = 1000 * parsePositive('--drain-delay', drainDelay, /^\d+(\.\d+)?$/, 'a number of seconds')
  const log = text('log')
  if (log !== undefined && !(LOG_FORMATS as readonly string[]).includes(log)) {
    throw new UsageError(`--log must be ${LOG_FORMATS.join(' or ')}, not "${log}"`)
  }
  if (log === 'json') options.log = new JsonLog()
  return options
}

/** node:util's parseArgs, its errors said in one line of our own. */
function readFlags(args: readonly string[]) {
  try {
    return parseArgs({ args: [...args], options: flags, strict: true, allowPositionals: false })
  } catch (error) {
    const { code, message } = error as { code?: string; message: string }
    const flag = /'(--?[\w-]+)/.exec(message)?.[1] ?? ''
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option ${flag} (${USAGE})`)
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError(`${message.split('.')[0]} (${USAGE})`)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const takesNoValue = flags[flag.slice(2) as keyof typeof flags]?.type === 'boolean'
      throw new UsageError(`${flag} ${takesNoValue ? 'takes no value' : 'needs a value'} (${USAGE})`)
    }
    throw error
  }
}

function parsePositive(flag: string, text: string, shape: RegExp, what: string): number {
  if (!shape.test(text) || !(Number(text) > 0)) throw new UsageError(`${flag} must be ${what} above 0, not "${text}"`)
  return Number(text)
}

/** A comma-separated list of IP addresses (a name could resolve to anyone). */
function parseAddresses(flag: string, text: string): string[] {
  const addresses = text.split(',').map((address) => address.trim())
  const wrong = addresses.find((address) => isIP(address) === 0)
  if (wrong !== undefined) throw new UsageError(`${flag} takes IP addresses separated by commas, and "${wrong}" is not one`)
  return addresses
}

/** An http(s) origin; a URL with a path names more than where the service is, so it is refused. */
function parseOrigin(text: string): string {
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash) {
    throw new UsageError(`--public-origin must be an origin such as https://blogs.example.org, not "${text}"`)
  }
  return url.origin
}

function parsePort(text: string): number {
  const port = Number(text)
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535, not "${text}"`)
  }
  return port
}

/**
 * Runs the service until it is told to stop, then ends the process itself — also after a failed start: in the app's
 * utility process, a Node process does not end when its work runs out (electron/electron#47228).
 */
async function runCli(args: readonly string[]): Promise<void> {
  if (args.includes('--help')) {
    process.stdout.write(helpText())
    return exitAfterOutput(0)
  }
  let running: RunningService
  let options: StartOptions | undefined
  try {
    options = parseArguments(args)
    running = await startService(options)
  } catch (error) {
    if (!(error instanceof SetupError)) throw error
    console.error(`Cannot start the Blogdesk service: ${error.message}`)
    options?.log?.write('error', 'start-failed', { message: error.message })
    return exitAfterOutput(error instanceof UsageError ? 2 : 1)
  }
  const { log, drainDelayMs = 0 } = options
  // The handshake line stays plain text in every log format: the app's sandbox and the tests wait for it.
  console.log(`listening on ${running.origin}`)
  log?.write('info', 'start', { origin: running.origin, pid: process.pid })

  let stopping = false
  const stop = (reason: string): void => {
    if (stopping) return
    stopping = true
    log?.write('info', 'stopping', { reason, drainDelayMs, graceMs: SHUTDOWN_GRACE_MS })
    running.close().then(
      () => {
        log?.write('info', 'stop', { exitCode: 0 })
        exitAfterOutput(0)
      },
      (error: unknown) => {
        console.error('The Blogdesk service did not stop cleanly:', error)
        log?.write('error', 'stop', { exitCode: 1, error: error instanceof Error ? error.message : String(error) })
        exitAfterOutput(1)
      },
    )
  }
  // `once`: a second Ctrl-C falls through to Node's default and ends the process at once.
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  // The app's sandbox asks over the utility process's message port, the same way on every system.
  parentPort()?.on('message', ({ data }: { data: unknown }) => {
    if (data === SANDBOX_STOP_MESSAGE) stop('sandbox stop message')
  })
}

/** process.parentPort, which Electron gives a utility process (and Node does not know). */
function parentPort(): EventEmitter | undefined {
  return (process as { parentPort?: EventEmitter }).parentPort
}

/** Ends the process once what it printed has been handed to the pipes, so the reason for an exit is not lost. */
function exitAfterOutput(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
}

function isEntryPoint(): boolean {
  const script = process.argv[1]
  if (script === undefined) return false
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (isEntryPoint()) {
  runCli(process.argv.slice(2)).catch((error: unknown) => {
    console.error('The Blogdesk service failed to start:', error)
    exitAfterOutput(1)
  })
}
