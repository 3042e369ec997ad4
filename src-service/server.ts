// Runs the service on a socket: `npm run service -- --port <n> --data-dir <dir> [--demo] [--host <address>]`.
// startService is also what the app's sandbox process calls; the CLI below runs only when this file is the entry.
import { realpathSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createService, type ServiceOptions } from './app'
import { writeSandboxFile } from './demo'
import type { LookupOptions } from './lookup'
import { SetupError } from './setup-error'

export interface StartOptions {
  /** 0 picks a free port. */
  port: number
  /** Defaults to 127.0.0.1: the service is for this machine unless asked otherwise. */
  host?: string
  dataDir: string
  /** Seed the demo account and write <dataDir>/sandbox.json with its credentials. */
  demo?: boolean
  /** List item lookups: hosts allowed to be private or loopback, the HTTP ISBN catalogue, limits. */
  lookup?: LookupOptions
  /** Requests a minute each client may make of the JSON interface (503 beyond); unlimited when absent. */
  rateLimit?: number
  /** With `demo`: the demo friends act every this many seconds (a post, comment, favourite or neighbour). */
  simulate?: number
  /** The folder with catalogue/ and demo-photos/, when the service does not run from the repo (the app's sandbox). */
  resources?: string
  /** WSSE nonces remembered per user within the clock window; tests lower it to reach the bound quickly. */
  wsseNoncesPerUser?: number
  /** Live events streams' heartbeat and bounds, or false to serve none. */
  liveStreams?: ServiceOptions['liveStreams']
}

export interface RunningService {
  /** e.g. http://127.0.0.1:4321 — the Atom root is <origin>/t/atom/weblog. */
  origin: string
  /** Stops accepting connections, lets requests in flight finish, then closes the store. Safe to call twice. */
  close(): Promise<void>
}

/** Requests still running this long after close() are cut off, so one stuck client cannot keep the service up. */
const SHUTDOWN_GRACE_MS = 10_000

export async function startService({
  port,
  host = '127.0.0.1',
  dataDir,
  demo = false,
  lookup,
  rateLimit,
  simulate,
  resources,
  wsseNoncesPerUser,
  liveStreams,
}: StartOptions): Promise<RunningService> {
  const service = await createService({ dataDir, demo, lookup, rateLimit, simulate, resources, wsseNoncesPerUser, liveStreams })
  const server = createServer()
  try {
    const origin = originOf(await listen(server, port, host))
    const stopServer = trackRequestsForShutdown(server)
    server.on('request', service.requestListener(origin))
    if (service.sandbox) writeSandboxFile(dataDir, origin, service.sandbox)
    let closed: Promise<void> | undefined
    const close = async () => {
      const stopped = stopServer()
      service.endLiveStreams()
      await stopped
      service.close()
    }
    return { origin, close: () => (closed ??= close()) }
  } catch (error) {
    server.close()
    service.close()
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

/**
 * Returns the function that stops `server`: it stops accepting connections, closes idle keep-alive connections, and
 * tells each request in flight to close its connection once answered, so shutdown waits only for those requests.
 */
function trackRequestsForShutdown(server: Server): () => Promise<void> {
  const inFlight = new Set<ServerResponse>()
  server.on('request', (_request, response: ServerResponse) => {
    inFlight.add(response)
    response.on('close', () => inFlight.delete(response))
  })
  return () =>
    new Promise((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()))
      server.closeIdleConnections()
      for (const response of inFlight) if (!response.headersSent) response.setHeader('Connection', 'close')
      setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref()
    })
}

// --lookup-allow: hosts that list item lookups may reach even on private or loopback addresses (comma-separated).
// --isbn-provider: an HTTP book catalogue instead of the local one; {isbn} in the URL becomes the ISBN-13, and it
// answers JSON {"title", "author", "thumbnail"} (lookup/catalogue.ts). Set NODE_DEBUG=blogdesk-lookup to see why a
// lookup failed. --offline: no lookup leaves this machine (the local catalogue still answers); tests run this way.
// --rate-limit: requests a minute each JSON client may make (by API key when signed, else by address); 503 beyond.
// --simulate: with --demo, the demo friends post, comment, favour and add neighbours every so many seconds.
// --resources: the folder holding catalogue/ and demo-photos/; a bundled service (the app's sandbox) cannot find the
// repo's resources/ from where it runs.
// --no-live: serve no live events streams (events.json is polled), as a service without that extension would.
const USAGE =
  'usage: npm run service -- --port <n> --data-dir <dir> [--demo] [--host <address>] ' +
  '[--lookup-allow <host,...>] [--isbn-provider <url with {isbn}>] [--offline] ' +
  '[--rate-limit <requests a minute>] [--simulate <seconds>] [--resources <dir>] [--no-live]'

class UsageError extends SetupError {}

/** Reads the command line; `--flag value` and `--flag=value` both work. */
export function parseArguments(args: readonly string[]): StartOptions {
  const options: Partial<StartOptions> = {}
  for (let index = 0; index < args.length; index++) {
    const [flag = '', inline] = args[index]!.split(/=(.*)/s, 2)
    const value = (): string => {
      const next = inline ?? args[++index]
      if (next === undefined || next === '' || (inline === undefined && next.startsWith('--'))) {
        throw new UsageError(`${flag} needs a value (${USAGE})`)
      }
      return next
    }
    switch (flag) {
      case '--port':
        options.port = parsePort(value())
        break
      case '--data-dir':
        options.dataDir = value()
        break
      case '--host':
        options.host = value()
        break
      case '--demo':
        if (inline !== undefined) throw new UsageError(`--demo takes no value (${USAGE})`)
        options.demo = true
        break
      case '--offline':
        if (inline !== undefined) throw new UsageError(`--offline takes no value (${USAGE})`)
        options.lookup = { ...options.lookup, offline: true }
        break
      case '--lookup-allow':
        options.lookup = { ...options.lookup, allowHosts: value().split(',').map((host) => host.trim()).filter(Boolean) }
        break
      case '--isbn-provider':
        options.lookup = { ...options.lookup, isbnProviderUrl: value() }
        break
      case '--rate-limit':
        options.rateLimit = parsePositive(flag, value(), /^\d+$/, 'a whole number of requests a minute')
        break
      case '--simulate':
        options.simulate = parsePositive(flag, value(), /^\d+(\.\d+)?$/, 'a number of seconds')
        break
      case '--resources':
        options.resources = value()
        break
      case '--no-live':
        if (inline !== undefined) throw new UsageError(`--no-live takes no value (${USAGE})`)
        options.liveStreams = false
        break
      default:
        throw new UsageError(`unknown option ${args[index]} (${USAGE})`)
    }
  }
  const { port, dataDir } = options
  if (port === undefined) throw new UsageError(`--port is missing; use 0 for any free port (${USAGE})`)
  if (dataDir === undefined) {
    throw new UsageError(`--data-dir is missing; name the folder for the service's data (${USAGE})`)
  }
  return { ...options, port, dataDir }
}

function parsePositive(flag: string, text: string, shape: RegExp, what: string): number {
  if (!shape.test(text) || !(Number(text) > 0)) throw new UsageError(`${flag} must be ${what} above 0, not "${text}"`)
  return Number(text)
}

function parsePort(text: string): number {
  const port = Number(text)
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535, not "${text}"`)
  }
  return port
}

async function runCli(): Promise<void> {
  let running: RunningService
  try {
    running = await startService(parseArguments(process.argv.slice(2)))
  } catch (error) {
    if (!(error instanceof SetupError)) throw error
    console.error(`Cannot start the Blogdesk service: ${error.message}`)
    process.exitCode = error instanceof UsageError ? 2 : 1
    return
  }
  console.log(`listening on ${running.origin}`)

  const stop = (): void => {
    running.close().then(
      () => {
        process.exitCode = 0
      },
      (error: unknown) => {
        console.error('The Blogdesk service did not stop cleanly:', error)
        process.exitCode = 1
      },
    )
  }
  // `once`: a second Ctrl-C falls through to Node's default and ends the process at once.
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
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
  runCli().catch((error: unknown) => {
    console.error('The Blogdesk service failed to start:', error)
    process.exitCode = 1
  })
}
