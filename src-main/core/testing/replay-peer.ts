// Serves recorded responses of real servers (test-fixtures/peers) from a loopback port, so the client is
// tested against the exact bytes those servers sent.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFixture } from '../../../src-protocol/test-fixtures'

export interface RecordedResponse {
  status: number
  headers: [string, string][]
  body: string
}

/** Reads response `number` (`######## response <number>`, then an HTTP response) of a capture in test-fixtures/peers. */
export function readCapturedResponse(relativePath: string, number = 1): RecordedResponse {
  const text = readFixture(`peers/${relativePath}`)
  const marker = `######## response ${number}\n`
  const response = text.split(/^(?=######## )/m).find((section) => section.startsWith(marker))?.slice(marker.length)
  if (!response) throw new Error(`${relativePath} holds no response ${number}`)
  const [head, ...bodyParts] = response.split(/\r?\n\r?\n/)
  const [statusLine, ...headerLines] = head!.split(/\r?\n/)
  const status = Number(/^HTTP\/\S+ (\d{3})/.exec(statusLine!)?.[1])
  const headers = headerLines.map((line) => {
    const colon = line.indexOf(':')
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()] as [string, string]
  })
  return { status, headers, body: bodyParts.join('\n\n').replace(/\s+$/, '\n') }
}

export interface ReplayPeer {
  origin: string
  requests: IncomingMessage[]
  close(): Promise<void>
}

/**
 * Answers `routes[path]` for each request. The recorded origin in bodies is rewritten to the replay server's, and
 * hop-specific headers are dropped. `Date` is now, moved by `serverClockOffsetMs` to play a server with a wrong clock.
 */
export async function startReplayPeer(
  routes: Record<string, RecordedResponse>,
  options: { recordedOrigin: string; serverClockOffsetMs?: number },
): Promise<ReplayPeer> {
  const requests: IncomingMessage[] = []
  let origin = ''
  const server: Server = createServer((request, response) => {
    requests.push(request)
    const recorded = routes[new URL(request.url ?? '/', origin).pathname]
    if (!recorded) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not recorded')
      return
    }
    const hopSpecific = /^(content-length|connection|client-.*|date)$/i
    for (const [name, value] of recorded.headers) if (!hopSpecific.test(name)) response.setHeader(name, value)
    response.setHeader('Date', new Date(Date.now() + (options.serverClockOffsetMs ?? 0)).toUTCString())
    response.writeHead(recorded.status).end(recorded.body.replaceAll(options.recordedOrigin, origin))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
