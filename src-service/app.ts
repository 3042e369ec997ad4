// Builds the service: store, authentication, routes. Never listens; server.ts (or a test, or the app's sandbox
// process) owns the socket and tells the service the origin it is reachable at.
import type { RequestListener } from 'node:http'
import { wsseGuard } from './auth/wsse'
import { ensureDemoAccount, type SandboxAccount } from './demo'
import { weblogRoot } from './routes/atom-root'
import { Router } from './routes/router'
import { openStore } from './store'

export interface ServiceOptions {
  dataDir: string
  /** Seed the demo account (on first start) and report its credentials. */
  demo?: boolean
}

export interface Service {
  /** The demo account's credentials when started with `demo`, else null. */
  readonly sandbox: SandboxAccount | null
  /** Handles requests to a server reachable at `origin`; every href the service sends starts with it. */
  requestListener(origin: string): RequestListener
  /** Closes the store. Stop the server first, so no request finds it closed. */
  close(): void
}

export function createService({ dataDir, demo = false }: ServiceOptions): Service {
  const store = openStore(dataDir)
  try {
    const sandbox = demo ? ensureDemoAccount(store) : null
    const withWsse = wsseGuard(store.users)
    const router = new Router().get('/t/atom/weblog', withWsse(weblogRoot(store.weblogs)))
    return {
      sandbox,
      requestListener: (origin) => router.listener(new URL(origin).origin),
      close: () => store.close(),
    }
  } catch (error) {
    store.close()
    throw error
  }
}
