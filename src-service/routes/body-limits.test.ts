// Oversized bodies are refused while they stream in, so whatever clients send, the service holds at most each
// route's limit per request. Measured on the service as a child process, whose peak memory this test can read.
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWsseHeader } from '../../src-protocol'
import { rawRequest } from '../testing/service-fixture'
import { startServiceProcess, type ServiceProcess } from '../testing/service-process'

const MIB = 1024 * 1024
const CONCURRENT_POSTS = 8
const POST_BYTES = 60 * MIB

/** The service's peak resident memory so far, in bytes (Linux: VmHWM). */
function peakMemory(pid: number): number {
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Number(kib) * 1024
}

/**
 * POSTs `bytes` of an entry that never ends, chunked (no Content-Length), as fast as the service reads it; stops
 * sending once the service answers or closes the connection. Resolves with the status and the answer's text, or
 * status 0 for a closed connection.
 */
function postChunked(url: string, headers: Record<string, string>, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(MIB, 'a')
    let answered = false
    const outgoing = request(url, { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } }, (response) => {
      answered = true
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (text: string) => (body += text))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    outgoing.on('error', () => {
      if (!answered) resolve({ status: 0, body: '' })
    })
    outgoing.write('<entry xmlns="http://purl.org/atom/ns#"><title>')
    let sent = 0
    const sendMore = () => {
      while (!answered && sent < bytes) {
        sent += chunk.length
        if (!outgoing.write(chunk)) return void outgoing.once('drain', sendMore)
      }
      if (!answered) outgoing.end()
    }
    sendMore()
  })
}

describe('request bodies over a route’s limit', () => {
  let dataDir: string
  let service: ServiceProcess
  let feed: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'blogdesk-body-limits-'))
    service = await startServiceProcess(dataDir)
    feed = `${service.url}/t/atom/weblog/blog_id=1`
  })
  afterAll(async () => {
    await service.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  const credentials = () => ({ username: service.sandbox.username, password: service.sandbox.apiPassword })
  const atomHeaders = () => ({ 'Content-Type': 'application/x.atom+xml', 'X-WSSE': createWsseHeader(credentials()) })

  it('are refused by their Content-Length before any of them is read: 413 with the limit in words', async () => {
    const refused = await rawRequest(feed, { method: 'POST', headers: { ...atomHeaders(), 'Content-Length': String(20 * MIB) } })
    expect(refused.status).toBe(413)
    expect(refused.body).toMatch(/larger than 16 MiB/)
  })

  it('are refused while they stream in, so concurrent chunked uploads raise memory far less than their size', async () => {
    const before = peakMemory(service.pid)
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT_POSTS }, () => postChunked(feed, atomHeaders(), POST_BYTES)),
    )
    const growth = peakMemory(service.pid) - before
    const statuses = answers.map((answer) => answer.status)
    console.log(`${CONCURRENT_POSTS} chunked POSTs of ${POST_BYTES / MIB} MiB: peak RSS grew ${(growth / MIB).toFixed(0)} MiB`)
    for (const status of statuses) expect([413, 0]).toContain(status)
    expect(statuses).toContain(413)
    for (const { body } of answers.filter((answer) => answer.status === 413)) expect(body).toMatch(/larger than 16 MiB/)
    expect(growth).toBeLessThan((CONCURRENT_POSTS * POST_BYTES) / 3)
    // The service lives on and answers at once.
    expect((await fetch(`${service.url}/t/atom/weblog`, { headers: { 'X-WSSE': createWsseHeader(credentials()) } })).status).toBe(200)
  }, 120_000)
})
