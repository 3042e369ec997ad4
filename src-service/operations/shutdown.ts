// How the server stops without failing a request: it stops accepting connections, closes the keep-alive connections
// that wait idle between requests, and answers every request it has, in flight or arriving on a connection it had
// already accepted, each then closing its connection. Only at the deadline is what is left cut off.
import type { Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'

/** A connection accepted just before the stop has its first request this long to arrive (a balancer's comes at once). */
const FIRST_REQUEST_WAIT_MS = 1_000

interface ConnectionState {
  /** Responses on it not yet finished. */
  inFlight: Set<ServerResponse>
  /** It has been answered at least once, so an idle moment on it is keep-alive, not a request still on its way. */
  answered: boolean
}

/**
 * Returns the function that stops `server`, resolving once every connection has ended; requests still running
 * `graceMs` after it was called are cut off, so one stuck client cannot keep the service up.
 */
export function trackRequestsForShutdown(server: Server, graceMs: number): () => Promise<void> {
  const connections = new Map<Socket, ConnectionState>()
  let stopping = false
  const idle = ({ inFlight }: ConnectionState) => inFlight.size === 0
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { inFlight: new Set(), answered: false })
    socket.once('close', () => connections.delete(socket))
  })
  server.on('request', (request, response) => {
    const socket = request.socket as Socket
    const state = connections.get(socket)
    if (!state) return
    state.inFlight.add(response)
    if (stopping) response.setHeader('Connection', 'close')
    response.once('close', () => {
      state.inFlight.delete(response)
      state.answered = true
      // An answer begun before the stop may have promised keep-alive; the connection has nothing left to do.
      if (stopping && idle(state)) socket.destroySoon()
    })
  })
  return () =>
    new Promise((resolve, reject) => {
      stopping = true
      // Only stop listening: http.Server#close also closes every connection without a request being answered, and
      // so one whose first request is still on its way (a balancer's, just accepted), failing it with no answer.
      // Such a connection gets a moment first; idle keep-alive connections go at once.
      NetServer.prototype.close.call(server, (error) => (error ? reject(error) : resolve()))
      for (const [socket, state] of connections) {
        if (!idle(state)) {
          for (const response of state.inFlight) if (!response.headersSent) response.setHeader('Connection', 'close')
        } else if (state.answered) {
          socket.destroy()
        } else {
          setTimeout(() => {
            if (idle(state)) socket.destroy()
          }, FIRST_REQUEST_WAIT_MS).unref()
        }
      }
      setTimeout(() => server.closeAllConnections(), graceMs).unref()
    })
}
