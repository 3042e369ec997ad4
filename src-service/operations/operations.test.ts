// Health, readiness, request ids and the JSON log of the real service over real HTTP, with a real SQLite store.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createService, type Service } from '../app'
import { parseArguments } from '../server'
import { melody, signedRequest } from '../testing/service-fixture'
import { JsonLog } from './log'
import { openTestStore, testDatabaseOption } from '../testing/postgres'

const ENTRY = `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#"><title>Logged</title><content mode="escaped">Body</content></entry>`

describe('operating the service', () => {
  let dataDir: string
  let service: Service
  let server: Server
  let origin: string
  let lines: string[]
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>)

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-operations-'))
    const store = await openTestStore(dataDir)
    const user = await store.users.add({ username: melody.username, displayName: melody.displayName, loginPassword: melody.loginPassword, apiPassword: melody.password })
    for (const weblog of melody.weblogs) await store.weblogs.add({ ownerId: user.id, ...weblog })
    await store.close()
    lines = []
    service = await createService({ dataDir, ...(await testDatabaseOption(dataDir)), rateLimit: 1, log: new JsonLog((line) => lines.push(line)) })
    server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    server.on('request', service.requestListener(origin))
  })
  afterEach(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await service.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers /health and /ready with 200 to anyone, as often as asked: no rate limit counts them', async () => {
    // The limit of one JSON request a minute is spent at once, and then refuses.
    expect((await fetch(`${origin}/users/nobody/events.json`)).status).toBe(404)
    expect((await fetch(`${origin}/users/nobody/events.json`)).status).toBe(503)
    for (let n = 0; n < 5; n++) {
      const health = await fetch(`${origin}/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok' })
      const ready = await fetch(`${origin}/ready?from=balancer`)
      expect(ready.status).toBe(200)
      expect(ready.headers.get('cache-control')).toBe('no-store')
      expect(await ready.json()).toEqual({ status: 'ready' })
    }
    expect((await fetch(`${origin}/ready`, { method: 'HEAD' })).status).toBe(200)
    const post = await fetch(`${origin}/ready`, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })

  it('answers /ready with 503 and says why once the service drains, while /health still answers 200', async () => {
    service.drain()
    const ready = await fetch(`${origin}/ready`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'draining', error: expect.stringMatching(/shutting down/) })
    expect((await fetch(`${origin}/health`)).status).toBe(200)
  })

  it('answers /ready with 503 when the store cannot answer, and logs the failure of a request with its id', async () => {
    await service.close()
    const ready = await fetch(`${origin}/ready`)
    expect(ready.status).toBe(503)
    const body = (await ready.json()) as { reason: string; error: string }
    expect(body).toEqual({ status: 'unavailable', reason: 'store', error: expect.stringMatching(/database does not answer/) })
    // What went wrong stays in the log: the client learns nothing of the store's internals.
    expect(JSON.stringify(body)).not.toMatch(/sqlite|closed/i)
    expect(logged()).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'error', message: expect.stringMatching(/readiness probe/), error: expect.stringMatching(/closed/) }),
    )

    const failed = await signedRequest(`${origin}/t/atom/weblog`, melody, { headers: { 'X-Request-Id': 'trace-500' } })
    expect(failed.status).toBe(500)
    expect(logged()).toContainEqual(expect.objectContaining({ level: 'error', event: 'error', requestId: 'trace-500' }))
    expect(logged()).toContainEqual(expect.objectContaining({ level: 'error', event: 'request', requestId: 'trace-500', status: 500 }))
  })

  it('takes a sane X-Request-Id from the client and echoes it, and makes its own for anything else', async () => {
    const given = await fetch(`${origin}/health`, { headers: { 'X-Request-Id': 'lb-7F000001.42_a-b' } })
    expect(given.headers.get('x-request-id')).toBe('lb-7F000001.42_a-b')
    for (const insane of ['has space', 'quote"d', 'x'.repeat(129), '']) {
      const made = (await fetch(`${origin}/health`, { headers: { 'X-Request-Id': insane } })).headers.get('x-request-id')
      expect(made).toMatch(/^[0-9a-f-]{36}$/)
    }
    const first = (await fetch(`${origin}/health`)).headers.get('x-request-id')
    const second = (await fetch(`${origin}/health`)).headers.get('x-request-id')
    expect(first).not.toBe(second)
  })

  it('logs one JSON line per request with its id, method, path, status, duration and bytes, and no secrets', async () => {
    const feed = `${origin}/t/atom/weblog/blog_id=1`
    const created = await signedRequest(`${feed}?token=secret-in-query`, melody, { method: 'POST', body: ENTRY, headers: { 'X-Request-Id': 'create-1' } })
    expect(created.status).toBe(201)
    const createdBytes = (await created.arrayBuffer()).byteLength
    const listed = await signedRequest(feed, melody)
    const listedBytes = (await listed.arrayBuffer()).byteLength
    await fetch(`${origin}/health`)
    await fetch(`${origin}/ready`)

    const requests = logged().filter((line) => line['event'] === 'request')
    expect(requests).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        level: 'info',
        event: 'request',
        requestId: 'create-1',
        method: 'POST',
        path: '/t/atom/weblog/blog_id=1',
        status: 201,
        durationMs: expect.any(Number),
        bytes: createdBytes,
      },
      expect.objectContaining({ method: 'GET', path: '/t/atom/weblog/blog_id=1', status: 200, bytes: listedBytes }),
    ])
    expect(requests[1]!['requestId']).toBe(listed.headers.get('x-request-id'))
    const everything = lines.join('')
    for (const secret of ['secret-in-query', melody.password, 'X-WSSE', 'PasswordDigest', 'Logged']) expect(everything).not.toContain(secret)
  })
})

describe('the operations flags', () => {
  const base = ['--port', '0', '--data-dir', 'x']

  it('reads --log, --drain-delay and --public-origin', () => {
    const options = parseArguments([...base, '--log', 'json', '--drain-delay', '2.5', '--public-origin', 'https://blogs.example.org/'])
    expect(options.log).toBeInstanceOf(JsonLog)
    expect(options).toMatchObject({ drainDelayMs: 2500, publicOrigin: 'https://blogs.example.org' })
    expect(parseArguments([...base, '--log', 'none']).log).toBeUndefined()
  })

  it.each([
    [['--log', 'text'], /--log must be none or json, not "text"/],
    [['--drain-delay', 'soon'], /--drain-delay must be a number of seconds above 0/],
    [['--public-origin', 'https://blogs.example.org/atom'], /--public-origin must be an origin such as https:\/\/blogs\.example\.org/],
    [['--public-origin', 'ftp://blogs.example.org'], /--public-origin must be an origin/],
    [['--public-origin', 'blogs.example.org'], /--public-origin must be an origin/],
  ])('refuses %j with a message that says what it takes', (flags, message) => {
    expect(() => parseArguments([...base, ...flags])).toThrow(message)
  })
})
