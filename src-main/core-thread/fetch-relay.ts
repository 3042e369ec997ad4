// Core's HTTP from the core thread through the main thread's fetch: in the app that is net.request (the system's
// proxy and certificates), which only Electron's main thread can use. A request's body crosses whole (netFetch reads
// it whole anyway). An answer that says it is small crosses whole with its headers, in one message; any other (a
// photo, an event stream) crosses a chunk at a time as core reads it, so it flows at core's pace and stops when core
// stops reading (a size limit). Aborting, before or after the answer, aborts the main thread's request.
import type { Fetch } from '../core'
import { Transfer, type Peer } from './peer'

/** Answers up to this long (by their Content-Length) cross whole; longer or unsized ones are read chunk by chunk. */
const WHOLE_ANSWER_BYTES = 64 * 1024

interface RelayedRequest {
  id: number
  url: string
  method: string
  headers: [string, string][]
  redirect: Request['redirect']
  body: ArrayBuffer | null
}

interface RelayedResponse {
  status: number
  statusText: string
  headers: [string, string][]
  url: string
  /** The whole body, or null when there is none or it is read through 'fetch:read' (`streamed`). */
  body: ArrayBuffer | null
  streamed: boolean
}

/** Fetch on the core thread, sent through the main thread's. */
export function relayedFetch(peer: Peer): Fetch {
  let nextId = 0
  return async (input, init) => {
    const request = new Request(input, init)
    request.signal.throwIfAborted()
    const id = ++nextId
    const body = request.body ? await request.arrayBuffer() : null
    const relayed: RelayedRequest = { id, url: request.url, method: request.method, headers: [...request.headers], redirect: request.redirect, body }
    // Told to the main thread whenever it comes: once the answer is read, there is nothing left there to abort.
    const aborted = new Promise<never>((_, reject) =>
      request.signal.addEventListener(
        'abort',
        () => {
          peer.tell('fetch:abort', id)
          reject(request.signal.reason)
        },
        { once: true },
      ),
    )
    aborted.catch(() => {})
    const answer = await Promise.race([peer.ask<RelayedResponse>('fetch', [relayed], body ? [body] : []), aborted])
    const stream = answer.streamed ? streamOf(peer, id, aborted) : answer.body
    const response = new Response(stream, { status: answer.status, statusText: answer.statusText, headers: answer.headers })
    Object.defineProperty(response, 'url', { value: answer.url })
    return response
  }
}

/** The answer's body as core reads it: each pull asks the main thread for the next chunk. */
function streamOf(peer: Peer, id: number, aborted: Promise<never>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await Promise.race([peer.ask<Uint8Array | null>('fetch:read', [id]), aborted])
      if (chunk) controller.enqueue(chunk)
      else controller.close()
    },
    cancel: () => peer.tell('fetch:abort', id),
  })
}

/** The main thread's side: makes each relayed request with `fetch`; abortable until its answer's body is read or dropped. */
export function serveFetch(peer: Peer, fetch: Fetch): void {
  const inFlight = new Map<number, { controller: AbortController; body: ReadableStreamDefaultReader<Uint8Array> | null }>()
  peer.listen<number>('fetch:abort', (id) => {
    inFlight.get(id)?.controller.abort()
    inFlight.delete(id)
  })
  peer.serve({
    fetch: async ({ id, url, method, headers, redirect, body }: RelayedRequest): Promise<Transfer<RelayedResponse>> => {
      const controller = new AbortController()
      inFlight.set(id, { controller, body: null })
      try {
        const response = await fetch(url, { method, headers, redirect, body, signal: controller.signal })
        const answer = { status: response.status, statusText: response.statusText, headers: [...response.headers], url: response.url }
        const length = Number(response.headers.get('content-length') ?? Number.NaN)
        if (!response.body || length <= WHOLE_ANSWER_BYTES) {
          const whole = response.body ? await response.arrayBuffer() : null
          inFlight.delete(id)
          return new Transfer({ ...answer, body: whole, streamed: false }, whole ? [whole] : [])
        }
        inFlight.set(id, { controller, body: response.body.getReader() })
        return new Transfer({ ...answer, body: null, streamed: true }, [])
      } catch (error) {
        inFlight.delete(id)
        throw error
      }
    },
    'fetch:read': async (id: number): Promise<Transfer<Uint8Array | null>> => {
      const reader = inFlight.get(id)?.body
      if (!reader) throw new Error('That answer was aborted, or read to its end already.')
      const { value, done } = await reader.read().catch((error: unknown) => {
        inFlight.delete(id)
        throw error
      })
      if (done) {
        inFlight.delete(id)
        return new Transfer(null, [])
      }
      // A copy of its own to move: a chunk may be a view into a buffer the main thread's streams share.
      const chunk = value.slice()
      return new Transfer(chunk, [chunk.buffer])
    },
  })
}
