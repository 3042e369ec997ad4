// Core's HTTP from the core thread through the main thread's fetch: in the app that is net.request (the system's
// proxy and certificates), which only Electron's main thread can use. A request's body crosses whole (netFetch reads
// it whole anyway); the answer's body crosses as a stream, moved to the core thread, so it flows as core reads it and
// stops when core stops reading (a size limit). Aborting, before or after the answer, aborts the main thread's request.
import type { Fetch } from '../core'
import { Transfer, type Peer } from './peer'

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
  body: ReadableStream<Uint8Array> | null
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
    const abort = () => peer.tell('fetch:abort', id)
    request.signal.addEventListener('abort', abort, { once: true })
    const answered = peer.ask<RelayedResponse>('fetch', [relayed], body ? [body] : [])
    const aborted = new Promise<never>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }))
    aborted.catch(() => {})
    const answer = await Promise.race([answered, aborted]).catch((error: unknown) => {
      request.signal.removeEventListener('abort', abort)
      throw error
    })
    const response = new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers })
    Object.defineProperty(response, 'url', { value: answer.url })
    return response
  }
}

/** The main thread's side: makes each relayed request with `fetch`; abortable until its answer's body is read or dropped. */
export function serveFetch(peer: Peer, fetch: Fetch): void {
  const inFlight = new Map<number, AbortController>()
  peer.listen<number>('fetch:abort', (id) => inFlight.get(id)?.abort())
  peer.serve({
    fetch: async ({ id, url, method, headers, redirect, body }: RelayedRequest): Promise<Transfer<RelayedResponse>> => {
      const controller = new AbortController()
      inFlight.set(id, controller)
      const done = () => inFlight.delete(id)
      try {
        const response = await fetch(url, { method, headers, redirect, body, signal: controller.signal })
        const stream = response.body ? relayedBody(response.body, done) : (done(), null)
        const answer = { status: response.status, statusText: response.statusText, headers: [...response.headers], url: response.url, body: stream }
        return new Transfer(answer, stream ? [stream as never] : [])
      } catch (error) {
        done()
        throw error
      }
    },
  })
}

/** `source` read as the other side reads, with `done` called once it has ended, failed or been cancelled. */
function relayedBody(source: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read()
        if (ended) {
          done()
          controller.close()
        } else controller.enqueue(value)
      } catch (error) {
        done()
        controller.error(error)
      }
    },
    cancel(reason) {
      done()
      return reader.cancel(reason)
    },
  })
}
