// GET /health and GET /ready (docs/PROTOCOL.md, "Health and readiness"), for load balancers and process supervisors.
// /health is liveness: the process answers. /ready is readiness: the store answers a trivial query and the service
// is not shutting down, so a balancer (deploy/haproxy.cfg) sends it requests only then. Both are unauthenticated and
// say nothing of the data; they are answered before routing, so no rate limit counts them.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { reportError } from './log'

export const HEALTH_PATH = '/health'
export const READY_PATH = '/ready'

/** A store that has not answered by then counts as down: a balancer's check must not hang on it. */
const PROBE_TIMEOUT_MS = 2_000

export type NotReadyReason = 'draining' | 'store'

const explanations: Record<NotReadyReason, string> = {
  draining: 'The service is shutting down. Send requests to another instance.',
  store: "The service's database does not answer. The service's log says why.",
}

export class Readiness {
  readonly #probe: () => unknown
  #draining = false

  /** `probe` runs a trivial query on the store; it fails (throws or rejects) when the store cannot answer. */
  constructor(probe: () => unknown) {
    this.#probe = probe
  }

  /** From now on /ready answers 503: the service is shutting down. */
  drain(): void {
    this.#draining = true
  }

  /** Null when ready, else why not. */
  async check(): Promise<NotReadyReason | null> {
    if (this.#draining) return 'draining'
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS)
    })
    try {
      await Promise.race([Promise.resolve().then(this.#probe), timeout])
      return this.#draining ? 'draining' : null
    } catch (error) {
      reportError('The readiness probe found the store unable to answer:', error)
      return 'store'
    } finally {
      clearTimeout(timer)
    }
  }
}

/** Answers /health and /ready and returns true, or returns false for every other request. */
export function answerProbe(request: IncomingMessage, response: ServerResponse, path: string, readiness: Readiness): boolean {
  if (path !== HEALTH_PATH && path !== READY_PATH) return false
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    send(response, 405, { error: `${request.method} is not allowed on ${path}; use GET, HEAD.` }, { Allow: 'GET, HEAD' })
    return true
  }
  if (path === HEALTH_PATH) {
    send(response, 200, { status: 'ok' })
    return true
  }
  // check() never rejects: a failing store is an answer (503), not an error.
  void readiness.check().then((reason) =>
    send(response, reason ? 503 : 200, reason ? { status: 'unavailable', reason, error: explanations[reason] } : { status: 'ready' }),
  )
  return true
}

function send(response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  })
  response.end(text)
}
