// Each way a request can fail, produced for real by a loopback server that misbehaves on purpose, and what the
// client calls it: whether the server can have acted on the request decides between "send again" and "check first".
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest'
import { writeEntry } from '../../../src-protocol'
import { AtomClient } from './client'

interface ScriptedServer {
  origin: string
  requests: { method: string; url: string; bodyBytes: number }[]
  close(): Promise<void>
}

/** A server that answers each request as `script` says; `script` may also cut the connection. */
async function startScriptedServer(script: (request: IncomingMessage, response: ServerResponse, body: Buffer) => void): Promise<ScriptedServer> {
  const requests: ScriptedServer['requests'] = []
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk)
    const body = Buffer.concat(chunks)
    requests.push({ method: request.method ?? '', url: request.url ?? '', bodyBytes: body.length })
    script(request, response, body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

const credentials = { username: 'melody', password: 'secret' }
const post = { title: 'Tram 28', content: '<p>Uphill all the way.</p>', categories: [] }
const entryXml = (editUri: string) =>
  writeEntry({
    title: 'Tram 28',
    content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>Uphill all the way.</p>' },
    links: [{ rel: 'service.edit', href: editUri, type: 'application/x.atom+xml', title: 'Tram 28' }],
  })

describe('failures the client tells apart', () => {
  let server: ScriptedServer | undefined
  let folder: string
  let smallFile: string
  let largeFile: string
  const client = (timeoutMs?: number) => new AtomClient({ fetch, credentials: async () => credentials, ...(timeoutMs ? { timeoutMs } : {}) })
  const upload = (uri: string, path: string, atom = client()) =>
    atom.upload(uri, { path, name: 'file.bin', type: 'application/octet-stream' }, { idempotencyKey: randomUUID() })

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'blogdesk-failures-'))
    smallFile = join(folder, 'small.bin')
    writeFileSync(smallFile, Buffer.alloc(3000, 7))
    // Far more than loopback socket buffers hold: the server cannot have had it all when it cut the connection early.
    largeFile = join(folder, 'large.bin')
    writeFileSync(largeFile, Buffer.alloc(24 * 1024 * 1024, 9))
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('calls a connection reset after the whole request arrived outcome-unknown, for fetch and streamed posts', async () => {
    server = await startScriptedServer((request) => request.socket.resetAndDestroy())
    await expect(client().createPost(`${server.origin}/blog_id=1`, post, { idempotencyKey: randomUUID() })).rejects.toMatchObject({
      kind: 'outcome-unknown',
      code: 'offline',
      message: expect.stringMatching(/^The connection to 127\.0\.0\.1:\d+ broke before it answered .*may or may not have reached it/),
    })
    await expect(upload(`${server.origin}/svc=upload`, smallFile)).rejects.toMatchObject({ kind: 'outcome-unknown' })
    expect(server.requests.map((request) => request.bodyBytes)).toEqual([expect.any(Number), expect.any(Number)])
  })

  it('calls a connection cut while the body was still being sent unreachable: the server cannot have acted on it', async () => {
    const origin = await new Promise<{ origin: string; close: () => Promise<void> }>((resolve) => {
      // Cut as soon as the headers are in, before reading the body.
      const early = createServer((request) => request.socket.resetAndDestroy())
      early.listen(0, '127.0.0.1', () =>
        resolve({
          origin: `http://127.0.0.1:${(early.address() as AddressInfo).port}`,
          close: () => new Promise((done) => early.close(() => done())),
        }),
      )
    })
    try {
      await expect(upload(`${origin.origin}/svc=upload`, largeFile)).rejects.toMatchObject({
        kind: 'unreachable',
        message: expect.stringMatching(/broke while sending, before the server had all of it, so nothing was changed there/),
      })
    } finally {
      await origin.close()
    }
  })

  it('calls a server that takes the request and never answers outcome-unknown once the time is up', async () => {
    server = await startScriptedServer(() => undefined)
    const patient = client(300)
    await expect(patient.createPost(`${server.origin}/blog_id=1`, post, { idempotencyKey: randomUUID() })).rejects.toMatchObject({
      kind: 'outcome-unknown',
      message: expect.stringMatching(/^127\.0\.0\.1:\d+ did not answer within 300 ms; the request may or may not have reached it\.$/),
    })
    await expect(upload(`${server.origin}/svc=upload`, smallFile, patient)).rejects.toMatchObject({ kind: 'outcome-unknown' })
  })

  it.each([
    ['seconds', () => '120', 120_000],
    ['an HTTP date', () => new Date(Date.now() + 90_000).toUTCString(), 90_000],
  ])('reads Retry-After as %s on a 503, for fetch and streamed posts', async (_form, retryAfter, expectedMs) => {
    server = await startScriptedServer((_request, response) =>
      response.writeHead(503, { 'Retry-After': retryAfter(), 'Content-Type': 'text/xml' }).end('<error>Down for maintenance.</error>'),
    )
    for (const attempt of [client().feedPage(`${server.origin}/blog_id=1`), upload(`${server.origin}/svc=upload`, smallFile)]) {
      const failure = await attempt.catch((error: unknown) => error)
      expect(failure).toMatchObject({
        kind: 'server-busy',
        status: 503,
        message: expect.stringMatching(/had a problem answering \(HTTP 503\) \(the server said: "Down for maintenance\."\)\. It asked to wait/),
      })
      expect((failure as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(expectedMs - 3000)
      expect((failure as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(expectedMs)
    }
  })

  it.each([
    [429, 'server-busy'],
    [500, 'server-busy'],
    [409, 'conflict'],
    [412, 'conflict'],
    [410, 'not-found'],
    [413, 'refused'],
    [422, 'refused'],
  ])('calls HTTP %i %s', async (status, kind) => {
    server = await startScriptedServer((_request, response) => response.writeHead(status, { 'Content-Type': 'text/xml' }).end('<error>No.</error>'))
    await expect(client().createPost(`${server.origin}/blog_id=1`, post, { idempotencyKey: randomUUID() })).rejects.toMatchObject({
      kind,
      status,
      retryAfterMs: null,
      message: expect.stringContaining('(the server said: "No.")'),
    })
  })

  it('does not follow a redirect with a change: it asks the person to check the address', async () => {
    server = await startScriptedServer((_request, response) => response.writeHead(301, { Location: '/elsewhere' }).end())
    await expect(client().createPost(`${server.origin}/blog_id=1`, post, { idempotencyKey: randomUUID() })).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/\/blog_id=1 has moved to \/elsewhere \(HTTP 301\)\. Check the account's Atom address/),
    })
    expect(server.requests.map((request) => request.method)).toEqual(['POST'])
  })
})

describe('answers the client reads tolerantly', () => {
  let server: ScriptedServer
  afterEach(() => server.close())
  const client = () => new AtomClient({ fetch, credentials: async () => credentials })

  it('reads a 201 without a body by getting its Location', async () => {
    server = await startScriptedServer((request, response) => {
      if (request.method === 'POST') response.writeHead(201, { Location: '/blog_id=1/entry_id=7' }).end()
      else response.writeHead(200, { 'Content-Type': 'application/xml' }).end(entryXml(`http://${request.headers.host}/blog_id=1/entry_id=7`))
    })
    const created = await client().createPost(`${server.origin}/blog_id=1`, post, { idempotencyKey: randomUUID() })
    expect(created).toMatchObject({ editUri: `${server.origin}/blog_id=1/entry_id=7`, title: 'Tram 28', content: '<p>Uphill all the way.</p>' })
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /blog_id=1', 'GET /blog_id=1/entry_id=7'])
  })

  it('calls a 201 that says neither what nor where outcome-unknown: the post exists somewhere', async () => {
    server = await startScriptedServer((_request, response) => response.writeHead(201).end())
    await expect(client().createPost(`${server.origin}/blog_id=1`, post, { idempotencyKey: randomUUID() })).rejects.toMatchObject({
      kind: 'outcome-unknown',
      status: 201,
      message: expect.stringMatching(/accepted the post \(HTTP 201\) but did not say where it is/),
    })
  })

  it('reads the post again when an update is answered without it', async () => {
    server = await startScriptedServer((request, response) => {
      if (request.method === 'PUT') response.writeHead(200).end()
      else response.writeHead(200, { 'Content-Type': 'text/xml' }).end(entryXml(`http://${request.headers.host}${request.url}`))
    })
    const updated = await client().updatePost(`${server.origin}/blog_id=1/entry_id=7`, post)
    expect(updated.editUri).toBe(`${server.origin}/blog_id=1/entry_id=7`)
    expect(server.requests.map((request) => request.method)).toEqual(['PUT', 'GET'])
  })

  it('refuses an answer that is not Atom, saying what came instead', async () => {
    server = await startScriptedServer((_request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Sign in to the hotel Wi-Fi</body></html>'),
    )
    await expect(client().feedPage(`${server.origin}/blog_id=1`)).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/answered \/blog_id=1, but not with an Atom feed \(Expected an Atom feed/),
    })
  })

  it('ends a feed without paging links whose address has no Movable Type segments after its one page', async () => {
    server = await startScriptedServer((request, response) =>
      response.writeHead(200, { 'Content-Type': 'application/atom+xml' }).end(
        `<feed xmlns="http://purl.org/atom/ns#"><title>t</title><entry><title>Only</title>` +
          `<link rel="service.edit" href="http://${request.headers.host}/posts/1"/></entry></feed>`,
      ),
    )
    expect(await client().feedPage(`${server.origin}/feeds/diary`)).toMatchObject({ posts: [{ title: 'Only' }], next: null, prev: null })
  })
})
