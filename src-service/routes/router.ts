// Method + path pattern → handler. Unknown paths answer 404, known paths with another method 405 with Allow,
// declared bodies over the cap 413; an HttpError becomes its `<error>`; anything else a handler throws is a bug:
// logged (operations/log.ts) and answered 500, never a hung request.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { reportError } from '../operations/log'
import { errorReply, HttpError, type Handler, type Reply } from './reply'

/** docs/PROTOCOL.md's cap on request bodies, so a runaway upload cannot exhaust the service's memory. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

interface Route {
  pattern: RegExp
  methods: Map<Method, Handler>
}

/** How an error is put for a client at `path`: an Atom client reads `<error>`, a JSON client `{"error": …}`. */
export type ErrorReplyFor = (path: string) => (status: number, message: string, headers?: Record<string, string>) => Reply

export class Router {
  readonly #routes = new Map<string, Route>()
  readonly #errorReplyFor: ErrorReplyFor

  constructor(options: { errorReplyFor?: ErrorReplyFor } = {}) {
    this.#errorReplyFor = options.errorReplyFor ?? (() => errorReply)
  }

  get(path: string, handler: Handler): this {
    return this.#add('GET', path, handler)
  }

  post(path: string, handler: Handler): this {
    return this.#add('POST', path, handler)
  }

  put(path: string, handler: Handler): this {
    return this.#add('PUT', path, handler)
  }

  delete(path: string, handler: Handler): this {
    return this.#add('DELETE', path, handler)
  }

  /** The listener for a server reachable at `origin`; hrefs are built from it, never from the Host header. */
  listener(origin: string): RequestListener {
    return (request, response) => {
      this.#answer(request, origin)
        .then((reply) => send(response, reply))
        .catch((error: unknown) => {
          reportError(`Could not answer ${request.method} ${pathOf(request)}:`, error)
          response.destroy()
        })
    }
  }

  async #answer(request: IncomingMessage, origin: string): Promise<Reply> {
    const path = pathOf(request)
    const reply = this.#errorReplyFor(path)
    try {
      return await this.#dispatch(request, path, origin, reply)
    } catch (error) {
      if (error instanceof HttpError) return reply(error.status, error.message, error.headers)
      reportError(`${request.method} ${path} failed:`, error)
      return reply(500, 'The service failed to answer this request; its log says why. Please report it.')
    }
  }

  /** `path` is literal but for `:name` parts, each matching one segment or the rest of one (`blog_id=:blogId`). */
  #add(method: Method, path: string, handler: Handler): this {
    const route = this.#routes.get(path) ?? { pattern: compile(path), methods: new Map<Method, Handler>() }
    route.methods.set(method, handler)
    this.#routes.set(path, route)
    return this
  }

  async #dispatch(request: IncomingMessage, path: string, origin: string, errorReply: ReturnType<ErrorReplyFor>): Promise<Reply> {
    const found = this.#match(path)
    if (!found) return errorReply(404, `There is nothing at ${path} on this service. Check the address.`)
    const { route, params } = found

    // HEAD is GET without the body; Node leaves the body out of HEAD responses by itself.
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const handler = route.methods.get(method as Method)
    if (!handler) {
      const allowed = [...route.methods.keys()].flatMap((name) => (name === 'GET' ? ['GET', 'HEAD'] : [name])).join(', ')
      return errorReply(405, `${request.method} is not allowed on ${path}; use ${allowed}.`, { Allow: allowed })
    }

    if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      // Closing the connection spares reading a body nobody will use.
      return errorReply(413, `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB. Send less at once.`, {
        Connection: 'close',
      })
    }
    return handler({ request, origin, params })
  }

  #match(path: string): { route: Route; params: Record<string, string> } | null {
    for (const route of this.#routes.values()) {
      const match = route.pattern.exec(path)
      if (!match) continue
      const params: Record<string, string> = {}
      for (const [name, raw] of Object.entries(match.groups ?? {})) {
        try {
          params[name] = decodeURIComponent(raw)
        } catch {
          throw new HttpError(400, `The address ${path} is not correctly encoded.`)
        }
      }
      return { route, params }
    }
    return null
  }
}

/** The request's path without its query string, where OAuth tokens may travel: the part logs may name. */
function pathOf(request: IncomingMessage): string {
  return (request.url ?? '/').split('?', 1)[0] ?? '/'
}

function compile(path: string): RegExp {
  const source = path
    .split(/(:[A-Za-z]\w*)/)
    .map((part) => (part.startsWith(':') ? `(?<${part.slice(1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`)
}

async function send(response: ServerResponse, reply: Reply): Promise<void> {
  const { body = '' } = reply
  if (reply.status === 304) {
    // A 304 has no body, and a Content-Length there would have to be that of the 200 it stands for.
    response.writeHead(304, reply.headers)
    response.end()
    return
  }
  if (body instanceof Readable) {
    response.writeHead(reply.status, reply.headers)
    try {
      await pipeline(body, response)
    } catch (error) {
      // A client that goes away before the end (a download cancelled, a live stream closed) is no failure of ours.
      if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error
    }
    return
  }
  response.writeHead(reply.status, { ...reply.headers, 'Content-Length': Buffer.byteLength(body) })
  response.end(body)
}
