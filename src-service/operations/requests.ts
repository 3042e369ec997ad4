// What every request goes through before the routes: its request id (X-Request-Id, taken from the client or a proxy
// when it is a sane token, else made here, and echoed on the response), the health and readiness probes, and its
// line in the JSON log once answered (or abandoned).
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { runInRequest, type JsonLog } from './log'
import { answerProbe, type Readiness } from './readiness'

export const REQUEST_ID_HEADER = 'X-Request-Id'

/** An id a log line can carry as it is: no spaces, quotes or control characters, and not too long. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/
/** A logged path is cut here: a path is the client's to choose, the log's size is not. */
const MAX_LOGGED_PATH = 1024

export interface OperationsOptions {
  readiness: Readiness
  /** Where each request's line goes; none when null. */
  log: JsonLog | null
}

export function withOperations(listener: RequestListener, { readiness, log }: OperationsOptions): RequestListener {
  return (request, response) => {
    const requestId = requestIdOf(request)
    response.setHeader(REQUEST_ID_HEADER, requestId)
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/'
    runInRequest({ log, requestId }, () => {
      // Balancers poll the probes every few seconds: their lines would bury the requests that matter.
      if (answerProbe(request, response, path, readiness)) return
      if (log) logWhenDone(log, request, response, requestId, path)
      listener(request, response)
    })
  }
}

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID()
}

function logWhenDone(log: JsonLog, request: IncomingMessage, response: ServerResponse, requestId: string, path: string): void {
  const started = performance.now()
  const bytesSent = countBodyBytes(response)
  response.once('close', () => {
    const status = response.statusCode
    log.write(status >= 500 ? 'error' : 'info', 'request', {
      requestId,
      method: request.method,
      path: path.slice(0, MAX_LOGGED_PATH),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      bytes: bytesSent(),
      // The client went away (or shutdown's deadline passed) before the whole answer was sent.
      ...(response.writableFinished ? {} : { aborted: true }),
    })
  })
}

/** Counts the body bytes handed to `response`, however they are written (end, write, or a piped stream). */
function countBodyBytes(response: ServerResponse): () => number {
  let bytes = 0
  const count = (chunk: unknown) => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk)
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength
  }
  const write = response.write.bind(response) as (...args: unknown[]) => boolean
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse
  response.write = ((chunk: unknown, ...rest: unknown[]) => {
    count(chunk)
    return write(chunk, ...rest)
  }) as ServerResponse['write']
  response.end = ((chunk?: unknown, ...rest: unknown[]) => {
    count(chunk)
    return end(chunk, ...rest)
  }) as ServerResponse['end']
  return () => bytes
}
