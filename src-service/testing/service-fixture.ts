// A real service on 127.0.0.1 and a fresh temp data dir, for tests.
import { mkdtempSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs'
import { request, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { createWsseHeader, parseSandboxFile, parseXml, SANDBOX_FILE, type SandboxFile, type WsseCredentials } from '../../src-protocol'
import type { LookupOptions } from '../lookup'
import { startService, type StartOptions } from '../server'
import type { NewWeblog, Store } from '../store'
import { dropTestDatabase, openTestStore, testDatabaseOption } from './postgres'

export interface TestAccount extends WsseCredentials {
  displayName: string
  loginPassword: string
  weblogs: Omit<NewWeblog, 'ownerId'>[]
}

export interface ServiceFixture {
  origin: string
  dataDir: string
  /** Stops the service, runs `work` on its store (to look, or to arrange), and starts it again at the same origin. */
  withStore<T>(work: (store: Store) => Promise<T>): Promise<T>
  dispose(): Promise<void>
}

/**
 * Starts a service whose store holds `accounts` and their weblogs, and whatever `setUp` adds. List-item lookups are
 * offline unless a test passes its own `lookup`, aimed at 127.0.0.1: no test sends one off this machine.
 */
export async function startTestService(
  accounts: readonly TestAccount[] = [],
  setUp: (store: Store) => Promise<void> = async () => {},
  lookup: LookupOptions = { offline: true },
  limits: Pick<StartOptions, 'wsseNoncesPerUser' | 'oauthNoncesPerHolder' | 'liveStreams' | 'collectionFeeds' | 'categoriesPerPost' | 'clock'> = {},
): Promise<ServiceFixture> {
  const dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-service-'))
  const onStore = async <T>(work: (store: Store) => Promise<T>): Promise<T> => {
    const store = await openTestStore(dataDir)
    try {
      return await work(store)
    } finally {
      await store.close()
    }
  }
  await onStore(async (store) => {
    for (const { username, password, displayName, loginPassword, weblogs } of accounts) {
      const user = await store.users.add({ username, displayName, loginPassword, apiPassword: password })
      for (const weblog of weblogs) await store.weblogs.add({ ownerId: user.id, ...weblog })
    }
    await setUp(store)
  })
  const database = await testDatabaseOption(dataDir)
  const start = (port: number) => startService({ port, dataDir, ...database, lookup, ...limits })
  let running = await start(0)
  const { origin } = running
  return {
    origin,
    dataDir,
    withStore: async (work) => {
      await running.close()
      try {
        return await onStore(work)
      } finally {
        running = await start(Number(new URL(origin).port))
        await useUpClosedConnections(origin)
      }
    },
    dispose: async () => {
      await running.close()
      rmSync(dataDir, { recursive: true, force: true })
      await dropTestDatabase(dataDir)
    },
  }
}

/**
 * fetch keeps the connections of earlier requests for the next ones, and finds one closed by the stopped service only
 * when it writes a request into it ("other side closed"): requests to the health check use them up, so a test's own
 * requests after a restart go out on fresh connections.
 */
async function useUpClosedConnections(origin: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await (await fetch(`${origin}/health`)).arrayBuffer()
      return
    } catch (error) {
      if (attempt === 20) throw error
    }
  }
}

/** GET with a WSSE header made now (or as `options` say). */
export function signedGet(
  url: string,
  credentials: WsseCredentials,
  options?: Parameters<typeof createWsseHeader>[1],
): Promise<Response> {
  return fetch(url, { headers: { 'X-WSSE': createWsseHeader(credentials, options) } })
}

/** A request with a WSSE header made now; a string body is sent as an Atom entry unless `headers` say otherwise. */
export function signedRequest(
  url: string,
  credentials: WsseCredentials,
  { method = 'GET', body, headers = {} }: { method?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Response> {
  const contentType: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/x.atom+xml' }
  return fetch(url, {
    method,
    headers: { ...contentType, ...headers, 'X-WSSE': createWsseHeader(credentials) },
    ...(body === undefined ? {} : { body }),
  })
}

/** The response is an `<error>` document with this status, and its message matches `message`. */
export async function expectError(response: Response, status: number, message: RegExp): Promise<void> {
  const body = await response.text()
  expect({ status: response.status, body }).toMatchObject({ status, body: expect.stringMatching(/<error>[^<]+<\/error>/) })
  expect(parseXml(body).text).toMatch(message)
}

export type Sandbox = SandboxFile

export function readSandboxFile(dataDir: string): Sandbox {
  const file = parseSandboxFile(JSON.parse(readFileSync(join(dataDir, SANDBOX_FILE), 'utf8')))
  if (!file) throw new Error(`${SANDBOX_FILE} in ${dataDir} does not have the shape src-protocol/sandbox.ts declares`)
  return file
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** A request through node:http, for what fetch will not send (a forged Host, a Content-Length without a body). */
export function rawRequest(
  url: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    outgoing.on('error', reject)
    // A declared Content-Length is sent without its body: the service must judge the request by its headers.
    if (headers['Content-Length'] === undefined) outgoing.end()
    else outgoing.flushHeaders()
  })
}

export const melody: TestAccount = {
  username: 'melody',
  password: 'api-password-of-melody',
  displayName: 'Melody Nelson',
  loginPassword: 'login-password-of-melody',
  weblogs: [
    { title: 'Valse de Melody', slug: 'valse-de-melody' },
    { title: "L'hôtel particulier <& co>", slug: 'hotel-particulier' },
  ],
}

export const ivy: TestAccount = {
  username: 'ivy',
  password: 'api-password-of-ivy',
  displayName: 'Ivy Nelson',
  loginPassword: 'login-password-of-ivy',
  weblogs: [{ title: 'Cargo culte', slug: 'cargo-culte' }],
}

/** The files under `folder`, however deep (each instance's arrivals have a folder of their own in media/incoming/). */
export function filesUnder(folder: string): Dirent[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
}
