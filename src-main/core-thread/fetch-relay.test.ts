// Core's HTTP relayed through the main thread, over a real message channel to real local servers: what arrives, what
// a refused connection looks like to core, and that stopping on core's side stops the main thread's request.
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MessageChannel } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Fetch } from '../core'
import { relayedFetch, serveFetch } from './fetch-relay'
import { Peer } from './peer'

let channel: MessageChannel
let relayed: Fetch
let server: Server
let origin: string
/** How each request to the server ended: its body as received, and whether the client went away before the end. */
let seen: Promise<{ body: string; closedEarly: boolean }>[]
let answer: (request: IncomingMessage, response: ServerResponse) => void

beforeEach(async () => {
  channel = new MessageChannel()
  relayed = relayedFetch(new Peer(channel.port1))
  serveFetch(new Peer(channel.port2), globalThis.fetch)
  seen = []
  server = createServer((request, response) => {
    seen.push(
      new Promise((resolve) => {
        const chunks: Buffer[] = []
        request.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('close', () => resolve({ body: Buffer.concat(chunks).toString(), closedEarly: !response.writableFinished }))
      }),
    )
    answer(request, response)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterEach(async () => {
  channel.port1.close()
  channel.port2.close()
  server.closeAllConnections()
  server.close()
})

describe('fetch relayed through the main thread', () => {
  it('sends the request as made and gives back the answer with its status, headers and body', async () => {
    answer = (request, response) =>
      request.on('end', () =>
        response.writeHead(201, { 'Content-Type': 'application/x.atom+xml', 'Content-Length': 8, 'X-Seen': request.method! }).end('<entry/>'),
      )
    const response = await relayed(`${origin}/post`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'héllo' })
    expect(response.status).toBe(201)
    expect(response.headers.get('x-seen')).toBe('POST')
    expect(response.url).toBe(`${origin}/post`)
    expect(await response.text()).toBe('<entry/>')
    expect((await seen[0]!).body).toBe('héllo')
  })

  it('answers a redirect with the 3xx itself when asked to, as core needs for a move', async () => {
    answer = (_request, response) => response.writeHead(302, { Location: '/elsewhere' }).end()
    const response = await relayed(`${origin}/moved`, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/elsewhere')
  })

  it('streams an answer of no stated length, or a long one, whole and in order', async () => {
    const parts = Array.from({ length: 200 }, (_, n) => `${n}:${'é'.repeat(1000)}\n`)
    answer = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' })
      const write = (n: number): void => {
        if (n === parts.length) return void response.end()
        response.write(parts[n])
        setImmediate(write, n + 1)
      }
      write(0)
    }
    expect(await (await relayed(`${origin}/long`)).text()).toBe(parts.join(''))
  })

  it('lets the answer flow as core reads it, and ends the request when core stops reading', async () => {
    answer = (_request, response) => {
      response.writeHead(200)
      const chunk = 'x'.repeat(64 * 1024)
      const write = () => response.write(chunk) && !response.destroyed && setImmediate(write)
      response.on('drain', write)
      write()
    }
    const response = await relayed(`${origin}/endless`)
    const reader = response.body!.getReader()
    let received = 0
    while (received < 1024 * 1024) received += (await reader.read()).value!.length
    await reader.cancel()
    expect((await seen[0]!).closedEarly).toBe(true)
  })

  it('ends the request when core aborts it before the answer, rejecting with core’s reason', async () => {
    answer = () => {}
    const controller = new AbortController()
    const pending = relayed(`${origin}/slow`, { signal: controller.signal })
    await expect.poll(() => seen.length).toBe(1)
    controller.abort(new DOMException('took too long', 'TimeoutError'))
    await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' })
    expect((await seen[0]!).closedEarly).toBe(true)
  })

  it('gives core a refused connection as the transport reported it: the code core tells unreachable servers by', async () => {
    server.close()
    await once(server, 'close')
    const failure = await relayed(`${origin}/gone`).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(TypeError)
    expect((failure as Error).cause).toMatchObject({ code: 'ECONNREFUSED' })
  })
})
