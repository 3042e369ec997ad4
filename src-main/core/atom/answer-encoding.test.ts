// The core reads a server's answers in the encoding their XML declaration names, over real HTTP: an ISO-8859-1 or
// UTF-16 feed reads as written, and a successful answer whose bytes are not valid is refused in words rather than
// read with U+FFFD in place of the author's characters.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { NS, readFeed } from '../../../src-protocol'
import { readLimitedText, RequestFailure } from './index'

const feed = (declaration: string) => `${declaration}\n<feed xmlns="${NS.atom}" version="0.3"><title>Café crème</title></feed>\n`

describe('answers in the encoding they declare', () => {
  const bodies = new Map<string, { status: number; body: Buffer }>([
    ['/latin1', { status: 200, body: Buffer.from(feed('<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1') }],
    ['/utf16', { status: 200, body: Buffer.from(`\uFEFF${feed('<?xml version="1.0" encoding="UTF-16"?>')}`, 'utf16le') }],
    ['/broken', { status: 200, body: Buffer.from(feed('<?xml version="1.0" encoding="utf-8"?>'), 'latin1') }],
    ['/broken-error', { status: 503, body: Buffer.from('Service indisponible \xe0 cette heure', 'latin1') }],
  ])
  let server: Server
  let origin: string
  beforeAll(async () => {
    server = createServer((request, response) => {
      const answer = bodies.get(request.url ?? '')
      response.writeHead(answer?.status ?? 404, { 'Content-Type': 'application/x.atom+xml' })
      response.end(answer?.body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const read = async (path: string) => readLimitedText(await fetch(origin + path), origin + path)

  test('an ISO-8859-1 feed and a UTF-16 one read as written', async () => {
    expect(readFeed(await read('/latin1')).title).toBe('Café crème')
    expect(readFeed(await read('/utf16')).title).toBe('Café crème')
  })

  test('a successful answer that is not the UTF-8 it claims is refused, saying so', async () => {
    const failure = await read('/broken').then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(RequestFailure)
    expect(failure).toMatchObject({ kind: 'refused', status: 200, message: expect.stringMatching(/not valid UTF-8/) })
  })

  test('a failure’s body is still read, since only its status decides what happens next', async () => {
    expect(await read('/broken-error')).toMatch(/^Service indisponible/)
  })
})
