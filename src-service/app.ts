// Builds the service: store, authentication, routes. Never listens; server.ts (or a test, or the app's sandbox
// process) owns the socket and tells the service the origin it is reachable at.
import type { RequestListener } from 'node:http'
import { wsseGuard } from './auth/wsse'
import { ensureDemoAccount, type SandboxAccount } from './demo'
import { createLookups, type LookupOptions } from './lookup'
import { MediaLibrary } from './media/library'
import { weblogRoot } from './routes/atom-root'
import { registerMediaRoutes } from './routes/gallery'
import { registerListRoutes } from './routes/lists'
import { registerPostRoutes } from './routes/posts'
import { Router } from './routes/router'
import { openStore } from './store'

export interface ServiceOptions {
  dataDir: string
  /** Seed the demo account (on first start) and report its credentials. */
  demo?: boolean
  /** How list items are filled in from elsewhere: allow-listed hosts, the ISBN catalogue, limits. */
  lookup?: LookupOptions
}

export interface Service {
  /** The demo account's credentials when started with `demo`, else null. */
  readonly sandbox: SandboxAccount | null
  /** Handles requests to a server reachable at `origin`; every href the service sends starts with it. */
  requestListener(origin: string): RequestListener
  /** Closes the store. Stop the server first, so no request finds it closed. */
  close(): void
}

export async function createService({ dataDir, demo = false, lookup }: ServiceOptions): Promise<Service> {
  const store = openStore(dataDir)
  try {
    const media = MediaLibrary.open(dataDir)
    const sandbox = demo ? await ensureDemoAccount(store, media) : null
    const withWsse = wsseGuard(store.users)
    const router = new Router().get('/t/atom/weblog', withWsse(weblogRoot(store.weblogs)))
    registerPostRoutes(router, store, withWsse)
    registerListRoutes(router, store, withWsse, createLookups(lookup))
    registerMediaRoutes(router, store, media, withWsse)
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
