// Method + path → handler. Unknown paths answer 404, known paths with another method 405 with Allow, bodies over
// the cap 413; a handler that throws is a bug: logged to stderr and answered 500, never a hung request.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { errorReply, type Handler, type Reply } from './reply'

/** PROTOCOL.md's cap on request bodies, so a runaway upload cannot exhaust the service's memory. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024

export class Router {
  readonly #routes = new Map<string, Map<string, Handler>>()

  get(path: string, handler: Handler): this {
    return this.#add('GET', path, handler)
  }

  /** The listener for a server reachable at `origin`; hrefs are built from it, never from the Host header. */
  listener(origin: string): RequestListener {
    return (request, response) => {
      this.#answer(request, origin)
        .then((reply) => send(response, reply))
        .catch((error: unknown) => {
          console.error(`Could not answer ${request.method} ${request.url}:`, error)
          response.destroy()
        })
    }
  }

  async #answer(request: IncomingMessage, origin: string): Promise<Reply> {
    try {
      return await this.#dispatch(request, origin)
    } catch (error) {
      console.error(`${request.method} ${request.url} failed:`, error)
      return errorReply(500, 'The service failed to answer this request; its log says why. Please report it.')
    }
  }

  #add(method: string, path: string, handler: Handler): this {
    const methods = this.#routes.get(path) ?? new Map<string, Handler>()
    methods.set(method, handler)
    this.#routes.set(path, methods)
    return this
  }

  async #dispatch(request: IncomingMessage, origin: string): Promise<Reply> {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/'
    const methods = this.#routes.get(path)
    if (!methods) return errorReply(404, `There is nothing at ${path} on this service. Check the address.`)

    // HEAD is GET without the body; Node leaves the body out of HEAD responses by itself.
    const method = request.method === 'HEAD' ? 'GET' : (request.method ?? '')
    const handler = methods.get(method)
    if (!handler) {
      const allowed = [...methods.keys()].flatMap((name) => (name === 'GET' ? ['GET', 'HEAD'] : [name])).join(', ')
      return errorReply(405, `${request.method} is not allowed on ${path}; use ${allowed}.`, { Allow: allowed })
    }

    if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      const limit = `${MAX_BODY_BYTES / 1024 / 1024} MiB`
      // Closing the connection spares reading a body nobody will use.
      return errorReply(413, `The request body is larger than ${limit}. Send less at once.`, { Connection: 'close' })
    }
    return handler({ request, origin })
  }
}

function send(response: ServerResponse, reply: Reply): void {
  const body = reply.body ?? ''
  response.writeHead(reply.status, { ...reply.headers, 'Content-Length': Buffer.byteLength(body) })
  response.end(body)
}
