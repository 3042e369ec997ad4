// A loopback HTTP proxy that breaks requests on purpose, for tests of the sync engine: with a seeded PRNG, it drops
// a connection before forwarding, delays, forwards and then resets the connection instead of answering (the server
// acted, the client never hears: outcome unknown), or answers 500 or 503 (with Retry-After) without forwarding. It
// counts every fault it caused. The service builds its links from its own origin, so the proxy rewrites that origin
// to its own in answers (bodies and Location), and the client keeps coming back through it.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { seededRandom } from '../../../src-protocol/seeded-random'

export type Fault = 'drop' | 'delay' | 'reset' | 'error500' | 'error503'

/** The chance of each fault, per request; what is left of 1 is forwarded untouched. */
export type FaultRates = Record<Fault, number>

export interface FaultProxyOptions {
  /** The origin to forward to, e.g. http://127.0.0.1:4321. */
  upstream: string
  seed: number
  rates?: Partial<FaultRates>
  /** Picks the fault of a request itself (or 'none'); undefined leaves it to the rates. */
  decide?: (request: { method: string; url: string }) => Fault | 'none' | undefined
  /** The longest delay a `delay` fault adds. */
  maxDelayMs?: number
  /** The Retry-After (seconds) of a 503. */
  retryAfterSeconds?: number
  /** Take the Idempotency-Key header off requests: a server that ignores the key, as Movable Type does. */
  stripIdempotencyKey?: boolean
}

export interface FaultProxy {
  origin: string
  /** How many of each fault the proxy caused, and how many requests it forwarded and answered. */
  counts(): Record<Fault | 'forwarded', number>
  /** Requests seen, by method: `POST /t/atom/weblog/blog_id=1`, in arrival order. */
  requests(): string[]
  setRates(rates: Partial<FaultRates>): void
  close(): Promise<void>
}

const NO_FAULTS: FaultRates = { drop: 0, delay: 0, reset: 0, error500: 0, error503: 0 }

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const random = seededRandom(options.seed)
  const upstream = new URL(options.upstream).origin
  const maxDelayMs = options.maxDelayMs ?? 200
  const retryAfterSeconds = options.retryAfterSeconds ?? 1
  let rates: FaultRates = { ...NO_FAULTS, ...options.rates }
  const counts: Record<Fault | 'forwarded', number> = { ...NO_FAULTS, forwarded: 0 }
  const seen: string[] = []
  const agent = new Agent({ keepAlive: true })
  let origin = ''

  const choose = (request: IncomingMessage): Fault | 'none' => {
    const decided = options.decide?.({ method: request.method ?? 'GET', url: request.url ?? '/' })
    if (decided !== undefined) return decided
    let roll = random()
    for (const fault of Object.keys(NO_FAULTS) as Fault[]) {
      if (roll < rates[fault]) return fault
      roll -= rates[fault]
    }
    return 'none'
  }

  const forward = (request: IncomingMessage, response: ServerResponse, resetInsteadOfAnswer: boolean) => {
    const headers: Record<string, string | string[] | undefined> = { ...request.headers, host: new URL(upstream).host }
    if (options.stripIdempotencyKey) delete headers['idempotency-key']
    const outgoing = httpRequest(new URL(request.url ?? '/', upstream), { method: request.method, headers, agent }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => {
        if (resetInsteadOfAnswer) {
          counts.reset++
          request.socket.destroy()
          return
        }
        const body = Buffer.from(Buffer.concat(chunks).toString('latin1').replaceAll(upstream, origin), 'latin1')
        const answerHeaders = { ...answer.headers }
        delete answerHeaders['transfer-encoding']
        delete answerHeaders['connection']
        if (typeof answerHeaders.location === 'string') answerHeaders.location = answerHeaders.location.replace(upstream, origin)
        answerHeaders['content-length'] = String(body.length)
        counts.forwarded++
        response.writeHead(answer.statusCode ?? 502, answerHeaders).end(body)
      })
    })
    outgoing.on('error', () => request.socket.destroy())
    request.pipe(outgoing)
  }

  const answerWithError = (request: IncomingMessage, response: ServerResponse, status: 500 | 503) => {
    request.resume()
    request.on('end', () => {
      const headers: Record<string, string> = { 'Content-Type': 'application/xml' }
      if (status === 503) headers['Retry-After'] = String(retryAfterSeconds)
      response.writeHead(status, headers).end(`<error>The fault proxy answered ${status} on purpose.</error>`)
    })
  }

  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`)
    const fault = choose(request)
    switch (fault) {
      case 'drop':
        counts.drop++
        request.socket.destroy()
        return
      case 'error500':
      case 'error503':
        counts[fault]++
        answerWithError(request, response, fault === 'error500' ? 500 : 503)
        return
      case 'delay':
        counts.delay++
        setTimeout(() => forward(request, response, false), Math.floor(random() * maxDelayMs))
        return
      case 'reset':
        forward(request, response, true)
        return
      case 'none':
        forward(request, response, false)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    origin,
    counts: () => ({ ...counts }),
    requests: () => [...seen],
    setRates: (changed) => {
      rates = { ...rates, ...changed }
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      agent.destroy()
    },
  }
}
