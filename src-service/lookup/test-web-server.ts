// For tests: a small web on 127.0.0.1 standing in for homepages, FOAF files and catalogues, recording which paths
// were asked for, so a test can tell a refused lookup (never asked) from a failed one.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type PageHandler = (request: IncomingMessage, response: ServerResponse) => void

export interface TestWebServer {
  /** e.g. http://127.0.0.1:40123 */
  origin: string
  /** Paths requested so far, in order. */
  readonly requested: string[]
  /** Serves `path` with `handler` (replacing an earlier one). */
  route(path: string, handler: PageHandler): void
  close(): Promise<void>
}

/** A handler that answers `body` as `type`. */
export function page(type: string, body: string | Buffer, status = 200): PageHandler {
  return (_request, response) => {
    response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) })
    response.end(body)
  }
}

export function redirect(location: string, status = 302): PageHandler {
  return (_request, response) => {
    response.writeHead(status, { Location: location, 'Content-Length': 0 })
    response.end()
  }
}

export async function startTestWebServer(): Promise<TestWebServer> {
  const routes = new Map<string, PageHandler>()
  const requested: string[] = []
  const server = createServer((request, response) => {
    const path = request.url ?? '/'
    requested.push(path)
    const handler = routes.get(path)
    if (handler) handler(request, response)
    else page('text/plain', 'not here', 404)(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requested,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
