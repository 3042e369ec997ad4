// The built-in sandbox: the publishing service, run with --demo in an Electron utility process (a Node process that
// Electron manages, which can load the bundled service from inside the app's asar), listening on loopback only.
//
// It keeps the port of its last run when it can, so the demo account's addresses that core stored stay valid from
// one start of Blogdesk to the next.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { utilityProcess, type UtilityProcess } from 'electron'
import { parseSandboxFile, SANDBOX_FILE, SANDBOX_STOP_MESSAGE, type SandboxFile } from '../../src-protocol'
import { CoreError, type SandboxDetails } from '../core'
import { readJsonFile } from './json-file'

export interface SandboxLauncherOptions {
  /** The bundled service, out/main/service.js. */
  serviceEntry: string
  /** Its data folder: <userData>/sandbox. */
  dataDir: string
  /** The folder with the service's catalogue/ and demo-photos/ (--resources). */
  resourcesDir: string
  /** How long to wait for its `listening on` line. */
  startupTimeoutMs?: number
}

const STARTUP_TIMEOUT_MS = 60_000
/** How long the service may take to close its store once asked; the service itself cuts requests off after 10 s. */
const SHUTDOWN_TIMEOUT_MS = 12_000
/** After a kill, how long to wait for the exit. */
const KILL_TIMEOUT_MS = 2_000

interface Child {
  service: UtilityProcess
  exited: Promise<void>
  /** It said it was listening, and its sandbox.json matched. */
  ready: boolean
}

export class SandboxLauncher {
  readonly #options: SandboxLauncherOptions
  #started: Promise<SandboxDetails> | null = null
  #child: Child | null = null

  constructor(options: SandboxLauncherOptions) {
    this.#options = options
  }

  /** What the last run wrote to sandbox.json, or null when the sandbox never ran. */
  previous(): SandboxDetails | null {
    const file = parseSandboxFile(readJsonFile(join(this.#options.dataDir, SANDBOX_FILE), isJson))
    return file && detailsOf(file)
  }

  /** Starts the service (once: while it runs, later calls get the same one) and returns its sandbox.json. */
  start(): Promise<SandboxDetails> {
    if (this.#started) return this.#started
    const started = this.#launch()
    this.#started = started
    // One that failed to start is tried afresh the next time it is asked for (as is one that stopped: see #fork).
    started.catch(() => {
      if (this.#started === started) this.#started = null
    })
    return started
  }

  /**
   * Stops the service, even mid-start; resolves once it has exited. It is asked over its message port first, so it
   * closes its store: kill() is no graceful stop everywhere (on Windows it ends the process at once). Only a service
   * that does not end in time is killed.
   */
  async stop(): Promise<void> {
    const child = this.#child
    if (!child) return
    child.service.postMessage(SANDBOX_STOP_MESSAGE)
    if (await exitsWithin(child, SHUTDOWN_TIMEOUT_MS)) return
    console.error(`Blogdesk sandbox did not stop within ${SHUTDOWN_TIMEOUT_MS / 1000} seconds of being asked; ending it.`)
    child.service.kill()
    await exitsWithin(child, KILL_TIMEOUT_MS)
  }

  async #launch(): Promise<SandboxDetails> {
    mkdirSync(this.#options.dataDir, { recursive: true })
    const previousPort = portOf(this.previous())
    if (previousPort !== null) {
      try {
        return await this.#fork(previousPort)
      } catch (error) {
        if (!(error instanceof PortTaken)) throw error
      }
    }
    return this.#fork(0)
  }

  async #fork(port: number): Promise<SandboxDetails> {
    const { serviceEntry, dataDir, resourcesDir, startupTimeoutMs = STARTUP_TIMEOUT_MS } = this.#options
    const args = ['--port', String(port), '--data-dir', dataDir, '--demo', '--resources', resourcesDir]
    const service = utilityProcess.fork(serviceEntry, args, { stdio: 'pipe', serviceName: 'Blogdesk sandbox' })
    const said: string[] = []
    service.stderr?.setEncoding('utf8')
    service.stderr?.on('data', (chunk: string) => {
      // The last few are enough to say why it stopped.
      if (said.push(chunk) > 20) said.shift()
      console.error(`Blogdesk sandbox: ${chunk.trimEnd()}`)
    })
    // What it said up to its end: the pipe may still hold the reason when 'exit' comes.
    const stderrRead = service.stderr ? new Promise<void>((resolve) => service.stderr!.once('close', resolve)) : Promise.resolve()
    const exitCode = new Promise<number>((resolve) => service.once('exit', resolve))
    const child: Child = { service, exited: exitCode.then(() => undefined), ready: false }
    this.#child = child
    service.once('exit', () => {
      if (this.#child !== child) return
      this.#child = null
      // A sandbox that stopped is started afresh the next time it is asked for.
      if (child.ready) this.#started = null
    })

    const origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        service.kill()
        reject(failure(`it did not say it was listening within ${Math.round(startupTimeoutMs / 1000)} seconds`))
      }, startupTimeoutMs)
      void exitCode.then(async (code) => {
        clearTimeout(timer)
        await Promise.race([stderrRead, new Promise((resolve) => setTimeout(resolve, 1_000))])
        const output = said.join('').trim()
        reject(port !== 0 && /already in use/.test(output) ? new PortTaken() : failure(output || `it stopped (code ${code})`))
      })
      if (!service.stdout) return reject(failure('its output could not be read'))
      createInterface({ input: service.stdout }).on('line', (line) => {
        const listening = /^listening on (http:\/\/\S+)$/.exec(line)
        if (!listening) return
        clearTimeout(timer)
        resolve(listening[1]!)
      })
    })
    const details = this.previous()
    if (details?.atomBase !== origin) {
      service.kill()
      throw failure(`its sandbox.json in ${dataDir} does not describe the service listening on ${origin}`)
    }
    child.ready = true
    return details
  }
}

class PortTaken extends Error {}

function failure(reason: string): CoreError {
  return new CoreError(
    'bug',
    `The built-in sandbox did not start: ${reason.replace(/[.\s]+$/, '')}. Try again; if it keeps failing, please report it.`,
  )
}

function portOf(details: SandboxDetails | null): number | null {
  if (!details || !URL.canParse(details.atomBase)) return null
  const port = Number(new URL(details.atomBase).port)
  return Number.isInteger(port) && port > 0 ? port : null
}

/** Any JSON: parseSandboxFile is the judge of its shape. */
function isJson(_value: unknown): _value is unknown {
  return true
}

/** Only what core needs: the file also holds the demo login password, which stays in the sandbox's folder. */
function detailsOf({ loginPassword: _kept, ...details }: SandboxFile): SandboxDetails {
  return details
}

function exitsWithin(child: Child, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    void child.exited.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
