// The real service as a child process with its demo data (--demo) in a temp dir, for tests of the JSON side: its
// sandbox.json holds an API key, its consumer secret and an access token the demo user approved.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from '../../../src-service/testing/service-process'
import type { Sandbox } from '../../../src-service/testing/service-fixture'
import { JsonClient, type JsonClientOptions } from '../json'

export interface SandboxService {
  readonly sandbox: Sandbox
  readonly dataDir: string
  /** A client signing with the sandbox's consumer secret and approved access token. */
  jsonClient(options?: Partial<JsonClientOptions>): JsonClient
  /** Stops the service, keeping its data. */
  stop(): Promise<void>
  /** Starts it again on the same port with the same data, as `options` say (no --simulate unless asked again). */
  restart(options?: ServiceProcessOptions): Promise<void>
  dispose(): Promise<void>
}

export async function startSandboxService(options: ServiceProcessOptions = {}): Promise<SandboxService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-sandbox-'))
  let running: ServiceProcess | null = await startServiceProcess(dataDir, 0, options)
  const { port, sandbox } = running
  const stop = async () => {
    await running?.stop()
    running = null
  }
  return {
    sandbox,
    dataDir,
    jsonClient: (overrides = {}) =>
      new JsonClient({
        fetch: globalThis.fetch,
        jsonBase: sandbox.jsonBase,
        credentials: async () => ({
          consumerKey: sandbox.apiKey,
          consumerSecret: sandbox.apiSecret,
          token: { key: sandbox.authToken, secret: sandbox.authTokenSecret },
        }),
        ...overrides,
      }),
    stop,
    restart: async (again = {}) => {
      await stop()
      running = await startServiceProcess(dataDir, port, again)
    },
    dispose: async () => {
      await stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
