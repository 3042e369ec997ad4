// The built-in sandbox: the publishing service, run with --demo in an Electron utility process (a Node process that
// Electron manages, which can load the bundled service from inside the app's asar), listening on loopback only.
//
// It keeps the port of its last run when it can, so the demo account's addresses that core stored stay valid from
// one start of Blogdesk to the next.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { utilityProcess, type UtilityProcess } from 'electron'
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
const SHUTDOWN_TIMEOUT_MS = 10_000

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
    const file = readJsonFile(join(this.#options.dataDir, 'sandbox.json'), isSandboxDetails)
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

  /** Stops the service, even mid-start, letting it close its store; resolves once it has exited. */
  async stop(): Promise<void> {
    const child = this.#child
    if (!child) return
    child.service.kill()
    const patience = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref())
    await Promise.race([child.exited, patience])
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
      void exitCode.then((code) => {
        clearTimeout(timer)
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

const sandboxFields = ['atomBase', 'jsonBase', 'username', 'apiPassword', 'apiKey', 'apiSecret', 'authToken', 'authTokenSecret'] as const

function isSandboxDetails(value: unknown): value is SandboxDetails {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return sandboxFields.every((field) => typeof record[field] === 'string')
}

/** Only what core needs: the file also holds the demo login password, which stays in the sandbox's folder. */
function detailsOf(file: SandboxDetails): SandboxDetails {
  const { atomBase, jsonBase, username, apiPassword, apiKey, apiSecret, authToken, authTokenSecret } = file
  return { atomBase, jsonBase, username, apiPassword, apiKey, apiSecret, authToken, authTokenSecret }
}
