// Graceful shutdown of the real service process over real HTTP: SIGTERM stops new connections at once, lets the
// request in flight finish (a slow upload still gets its 201), and the process exits 0 well within its deadline.
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createWsseHeader, readLinkFeed } from '../../src-protocol'
import { startServiceProcess, type ServiceProcess } from '../testing/service-process'

/** server.ts's SHUTDOWN_GRACE_MS: requests still running then are cut off. */
const SHUTDOWN_DEADLINE_MS = 10_000

describe('graceful shutdown', () => {
  let dir: string
  let service: ServiceProcess

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blogdesk-shutdown-'))
    service = await startServiceProcess(join(dir, 'service'), 0, { logJson: true })
  })
  afterEach(async () => {
    await service.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it('finishes a slow upload in flight with 201 after SIGTERM, refuses new connections, and exits 0', async () => {
    const credentials = { username: service.sandbox.username, password: service.sandbox.apiPassword }
    const root = await fetch(`${service.url}/t/atom/weblog`, { headers: { 'X-WSSE': createWsseHeader(credentials) } })
    const feed = readLinkFeed(await root.text(), service.url).find((link) => link.rel === 'service.feed')!.href

    const paragraphs = Array.from({ length: 2000 }, (_, n) => `&lt;p&gt;Paragraph ${n} of a long post.&lt;/p&gt;`).join('')
    const entry = `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#"><title>Sent slowly</title><content mode="escaped">${paragraphs}</content></entry>`
    const body = Buffer.from(entry)
    const upload = request(feed, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x.atom+xml', 'Content-Length': body.length, 'X-WSSE': createWsseHeader(credentials), 'X-Request-Id': 'slow-upload' },
    })
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      upload.on('response', (response) => {
        let text = ''
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
      })
      upload.on('error', reject)
    })
    const half = Math.floor(body.length / 2)
    upload.write(body.subarray(0, half))
    await sleep(300)

    const signalled = performance.now()
    process.kill(service.pid, 'SIGTERM')
    await sleep(300)
    await expect(connectionRefused(service.port)).resolves.toBe(true)

    // The rest of the body trickles in after the signal.
    for (let at = half; at < body.length; at += 4096) {
      upload.write(body.subarray(at, Math.min(at + 4096, body.length)))
      await sleep(20)
    }
    upload.end()
    const { status, text } = await answered
    expect(status).toBe(201)
    expect(text).toContain('Sent slowly')

    const { code, signal } = await service.exited
    const tookMs = performance.now() - signalled
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    expect(tookMs).toBeLessThan(SHUTDOWN_DEADLINE_MS)

    const lines = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    const events = lines.map((line) => line['event'])
    // The service document's GET, then the signal, then the upload it finished, then the exit.
    expect(events).toEqual(['start', 'request', 'stopping', 'request', 'stop'])
    expect(lines).toContainEqual(expect.objectContaining({ event: 'stopping', reason: 'SIGTERM' }))
    expect(lines).toContainEqual(expect.objectContaining({ event: 'request', requestId: 'slow-upload', method: 'POST', status: 201 }))
    expect(lines.at(-1)).toEqual(expect.objectContaining({ event: 'stop', exitCode: 0 }))
  })

  it('cuts off a request that never finishes at the deadline, and still exits 0', async () => {
    const credentials = { username: service.sandbox.username, password: service.sandbox.apiPassword }
    // Signed, so the service reads the body (an unsigned one is refused at once), which never comes whole.
    const stuck = request(`${service.url}/t/atom/weblog/blog_id=1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x.atom+xml', 'Content-Length': 1000, 'X-WSSE': createWsseHeader(credentials) },
    })
    const cutOff = new Promise<string>((resolve) => {
      stuck.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
      stuck.on('response', (response) => resolve(`answered ${response.statusCode}`))
    })
    stuck.write('<?xml version="1.0"?><entry')
    await sleep(300)
    const signalled = performance.now()
    process.kill(service.pid, 'SIGTERM')
    const { code, signal } = await service.exited
    const tookMs = performance.now() - signalled
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    // It waited for the request until the deadline, not less, and not much more.
    expect(tookMs).toBeGreaterThanOrEqual(SHUTDOWN_DEADLINE_MS - 100)
    expect(tookMs).toBeLessThan(SHUTDOWN_DEADLINE_MS * 1.5)
    expect(await cutOff).toBe('ECONNRESET')
  })
})

/** True when a new TCP connection to the port is refused: the service no longer listens. */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}
