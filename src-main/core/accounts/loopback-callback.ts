// The OAuth callback on this computer (RFC 8252 §7.3's loopback redirect): a tiny HTTP server on 127.0.0.1 and a
// free port, waiting for the one request the browser makes after the person approves or denies Blogdesk. It takes
// only the answer about our own request token, then closes; it gives up after a while, so an abandoned sign-in
// leaves no port open behind it.
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type CallbackOutcome = { kind: 'approved'; verifier: string } | { kind: 'denied' } | { kind: 'timed-out' } | { kind: 'cancelled' }

export interface LoopbackCallback {
  /** The oauth_callback to send with the request-token request. */
  url: string
  /** Waits for the answer about `requestToken`: the first request carrying it, or the end of `timeoutMs`. */
  answer(requestToken: string, timeoutMs: number): Promise<CallbackOutcome>
  /** Stops waiting (the person closed the sign-in window); `answer` resolves as cancelled. */
  cancel(): void
}

/** The shell's sign-in window may go here (on 127.0.0.1) and nowhere else off the service's own site. */
export const CALLBACK_PATH = '/blogdesk/oauth-callback'

export async function openLoopbackCallback(): Promise<LoopbackCallback> {
  let expectedToken: string | null = null
  let settle: (outcome: CallbackOutcome) => void = () => undefined
  const settled = new Promise<CallbackOutcome>((resolve) => (settle = resolve))
  let done = false

  const server = createServer((request, response) => {
    const outcome = done ? null : judge(request, expectedToken)
    if (outcome === null) {
      page(response, 400, 'This is not the sign-in Blogdesk is waiting for', 'Blogdesk took no notice of it. Go back to Blogdesk and start signing in again if you need to.')
      return
    }
    if (outcome.kind === 'approved') page(response, 200, 'Blogdesk is connected', 'You can close this window and go back to Blogdesk.')
    else page(response, 200, 'You denied Blogdesk access', 'Nothing was changed. You can close this window.')
    finish(outcome)
  })
  // A sign-in left open must not keep the app (or a test run) alive.
  server.unref()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo

  function finish(outcome: CallbackOutcome): void {
    if (done) return
    done = true
    settle(outcome)
    // The port closes at once; every page is sent with Connection: close, so no connection outlives its page.
    server.close()
    server.closeIdleConnections()
  }

  return {
    url: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    answer(requestToken, timeoutMs) {
      expectedToken = requestToken
      const timer = setTimeout(() => finish({ kind: 'timed-out' }), timeoutMs)
      timer.unref()
      return settled.finally(() => clearTimeout(timer))
    },
    cancel: () => finish({ kind: 'cancelled' }),
  }
}

/** What a request says about our request token; null for anything else (another path, another token, no answer). */
function judge(request: IncomingMessage, expectedToken: string | null): CallbackOutcome | null {
  if (expectedToken === null || request.method !== 'GET') return null
  const url = new URL(request.url ?? '/', 'http://127.0.0.1')
  if (url.pathname !== CALLBACK_PATH) return null
  const query = url.searchParams
  if (query.get('denied') === expectedToken) return { kind: 'denied' }
  const verifier = query.get('oauth_verifier')
  if (query.get('oauth_token') === expectedToken && verifier) return { kind: 'approved', verifier }
  return null
}

function page(response: ServerResponse, status: number, title: string, message: string): void {
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'",
    'Cache-Control': 'no-store',
    Connection: 'close',
  })
  response.end(`<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${message}</p>`)
}
