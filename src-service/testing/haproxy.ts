// Runs haproxy with deploy/haproxy.cfg in front of service instances on loopback, for tests: the file is rendered
// for them (its bind address, its servers, faster health checks) and nothing else in it changes. And two instances
// behind it, as the tests of several instances start them.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { WsseCredentials } from '../../src-protocol'
import { dropTestDatabase } from './postgres'
import { startServiceProcess, type ServiceProcess } from './service-process'

export const HAPROXY = '/usr/sbin/haproxy'
const CONFIG = join(import.meta.dirname, '..', '..', 'deploy', 'haproxy.cfg')
const STARTUP_TIMEOUT_MS = 10_000
const STOP_TIMEOUT_MS = 5_000

/** Checks every 200 ms instead of 2 s, so a test sees an instance go down and come back within a second. */
export const TEST_CHECK_TIMING = 'inter 200ms fastinter 200ms downinter 200ms fall 2 rise 1'

export interface Haproxy {
  /** http://127.0.0.1:<port>, where it listens. */
  url: string
  /** Its process, for what it costs (bench/instances.ts reads its CPU time). */
  pid: number
  /** Everything it logged, for the report of a failed test. */
  output(): string
  stop(): Promise<void>
}

/** deploy/haproxy.cfg with haproxy on 127.0.0.1:`port` and `backends` (ports on 127.0.0.1) as its servers. */
export function renderConfig(config: string, port: number, backends: readonly number[], checkTiming = TEST_CHECK_TIMING): string {
  const servers = backends.map((backend, index) => `    server app${index + 1} 127.0.0.1:${backend}`).join('\n')
  return replaceOnce(
    replaceOnce(
      replaceOnce(config, /^ {4}bind .+$/m, `    bind 127.0.0.1:${port}`),
      /^( {4}default-server check) .+$/m,
      `$1 ${checkTiming}`,
    ),
    /(?:^ {4}server .+\n?)+/m,
    `${servers}\n`,
  )
}

function replaceOnce(text: string, pattern: RegExp, replacement: string): string {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags}g`))?.length ?? 0
  if (matches !== 1) throw new Error(`deploy/haproxy.cfg should have one line matching ${pattern}, not ${matches}: update testing/haproxy.ts`)
  return text.replace(pattern, replacement)
}

/**
 * Starts haproxy in the foreground on `port` (freePort() gives one, so the instances can be told it first) in front
 * of `backends`; resolves once it accepts connections.
 */
export async function startHaproxy(port: number, backends: readonly number[]): Promise<Haproxy> {
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: install Debian's haproxy (apt-get install haproxy); .ci/run does`)
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-haproxy-'))
  const configFile = join(dir, 'haproxy.cfg')
  await writeFile(configFile, renderConfig(await readFile(CONFIG, 'utf8'), port, backends))
  const child = spawn(HAPROXY, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
  const chunks: string[] = []
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk))
  const output = () => chunks.join('')
  const exited = once(child, 'exit')
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
      await exited
      clearTimeout(timer)
    }
    await rm(dir, { recursive: true, force: true })
  }
  try {
    await waitForListener(port, () => child.exitCode !== null || child.signalCode !== null)
  } catch (error) {
    await stop()
    throw new Error(`haproxy did not start: ${(error as Error).message}\n--- its output ---\n${output()}`, { cause: error })
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, output, stop }
}

/** A port free on loopback now, for haproxy to bind a moment later. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function waitForListener(port: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (exited()) throw new Error('it exited')
    try {
      await fetch(`http://127.0.0.1:${port}/health`)
      return
    } catch {
      await sleep(50)
    }
  }
  throw new Error(`nothing listened on port ${port} within ${STARTUP_TIMEOUT_MS} ms`)
}

/** Two service instances, a and b, behind haproxy, as deploy/haproxy.cfg balances them. */
export interface BalancedInstances {
  haproxy: Haproxy
  /** a, then b; a test that restarts one puts the new process in its place, and `stop` stops whatever is there. */
  instances: ServiceProcess[]
  /** The demo account's, good on both. */
  credentials: WsseCredentials
  /** Starts instance `name` again on `port` (its old one, so that haproxy finds it). */
  start(name: 'a' | 'b', port: number): Promise<ServiceProcess>
  /** Waits for haproxy to log, after the first `after` characters of its log, that `server` (app1, app2) is `state`. */
  waitForState(server: string, state: 'UP' | 'DOWN', after: number): Promise<void>
  /** Stops haproxy and both instances (each even if another fails to stop) and removes their data dirs. */
  stop(): Promise<void>
}

/**
 * Two instances behind haproxy, each logging JSON lines and draining for a second on SIGTERM (readiness answers 503
 * first, so haproxy's checks see it before a connection meets a closed port), every link they send leading back
 * through haproxy. On `database` when given; otherwise on the engine under test: both on a's database on PostgreSQL,
 * or b on a copy of a's SQLite data dir. The demo is seeded once, by a first start of a; b starts from a copy of a's
 * data dir (its media, and on SQLite its database), so the same credentials sign requests for both.
 */
export async function startBalancedInstances(database?: string): Promise<BalancedInstances> {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-balanced-'))
  const balancerPort = await freePort()
  const start = (name: 'a' | 'b', port = 0) =>
    startServiceProcess(join(dir, name), port, {
      logJson: true,
      drainDelaySeconds: 1,
      publicOrigin: `http://127.0.0.1:${balancerPort}`,
      ...(database === undefined ? { databaseOf: join(dir, 'a') } : { database }),
    })
  const instances: ServiceProcess[] = []
  let haproxy: Haproxy | undefined
  const stop = async () => {
    await Promise.allSettled([haproxy?.stop(), ...instances.map((instance) => instance.stop())])
    await rm(dir, { recursive: true, force: true })
    if (database === undefined) await dropTestDatabase(join(dir, 'a'))
  }
  try {
    const seeded = await start('a')
    const credentials = { username: seeded.sandbox.username, password: seeded.sandbox.apiPassword }
    await seeded.stop()
    await cp(join(dir, 'a'), join(dir, 'b'), { recursive: true })
    // One at a time, so that an instance already started is stopped afterwards even if the next one fails to start.
    instances.push(await start('a'))
    instances.push(await start('b'))
    haproxy = await startHaproxy(balancerPort, instances.map((instance) => instance.port))
    const balancer = haproxy
    const waitForState = async (server: string, state: 'UP' | 'DOWN', after: number) => {
      const pattern = new RegExp(`Server blogdesk/${server} is ${state}`)
      for (let waited = 0; waited < 10_000; waited += 20) {
        if (pattern.test(balancer.output().slice(after))) return
        await sleep(20)
      }
      throw new Error(`haproxy did not mark ${server} ${state}:\n${balancer.output()}`)
    }
    return { haproxy, instances, credentials, start, waitForState, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
