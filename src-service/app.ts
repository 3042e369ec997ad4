// Builds the service: store, authentication, routes. Never listens; server.ts (or a test, or the app's sandbox
// process) owns the socket and tells the service the origin it is reachable at.
import type { RequestListener } from 'node:http'
import { wsseGuard } from './auth/wsse'
import { systemClock, type ServiceClock } from './clock'
import { ensureDemoAccount, type SandboxAccount } from './demo'
import { startSimulation } from './demo/simulate'
import { createLookups, type LookupOptions } from './lookup'
import { AvatarCache } from './media/avatars'
import { MediaLibrary } from './media/library'
import { clientAddressOf } from './operations/client-address'
import { reportError, type JsonLog } from './operations/log'
import { Readiness } from './operations/readiness'
import { withOperations } from './operations/requests'
import { registerProfilePages } from './public/profiles'
import { serviceResources } from './resources'
import { weblogRoot } from './routes/atom-root'
import { registerMediaRoutes } from './routes/gallery'
import { errorReplyFor, registerJsonRoutes } from './routes/json'
import { LiveEvents, type LiveStreamOptions } from './routes/live-events'
import { registerListRoutes } from './routes/lists'
import { registerOAuthRoutes } from './routes/oauth'
import { registerPostRoutes } from './routes/posts'
import { Router } from './routes/router'
import { prepareRead } from './routes/reads'
import { releaseScheduledPosts } from './routes/scheduled-posts'
import { SetupError } from './setup-error'
import { openStore } from './store'
import { prepareDataDir } from './store/data-dir'

/** How often a scheduled post's date is looked for between requests. */
const SCHEDULED_RELEASE_INTERVAL_MS = 5_000
/** The methods whose answers may show posts and events: a scheduled post whose time has come is released first. */
const READS = new Set(['GET', 'HEAD'])

export interface ServiceOptions {
  dataDir: string
  /** A PostgreSQL URL (`--database`): the data, keys, WSSE nonces and sign-in failures there. SQLite when absent. */
  database?: string
  /** Where uploads, photos and avatars are kept (`--media-dir`): a folder every instance shares. The data dir when absent. */
  mediaDir?: string
  /** Proxies whose X-Forwarded-For names the client, for the rate limit and sign-in throttling (`--trust-proxy`). */
  trustProxy?: readonly string[]
  /** Seed the demo account (on first start) and report its credentials. */
  demo?: boolean
  /** How list items are filled in from elsewhere: allow-listed hosts, the ISBN catalogue, limits. */
  lookup?: LookupOptions
  /** Requests a minute each client may make of the JSON interface; no limit when absent. */
  rateLimit?: number
  /** Seconds between the demo friends' acts (needs `demo`); they do nothing when absent. */
  simulate?: number
  /** The folder with catalogue/ and demo-photos/ (serviceResources); the repo's resources/ when absent. */
  resources?: string
  /** WSSE nonces remembered per user within the clock window (WsseVerifierOptions.maxNoncesPerUser). */
  wsseNoncesPerUser?: number
  /** OAuth nonces remembered per token, or per address without one, within the timestamp window (auth/oauth.ts). */
  oauthNoncesPerHolder?: number
  /** Each user's live events stream: its heartbeat and bounds, or false for none (a service that only answers polls). */
  liveStreams?: LiveStreamOptions | false
  /** Offer each album's and list's contents as a feed (`service.feed`); false serves none, as other servers. */
  collectionFeeds?: boolean
  /** Keep only the first this many of an entry's categories (Movable Type keeps one); all of them when absent. */
  categoriesPerPost?: number
  /** The service's clock: when a post is stored, and when a scheduled one goes public. The system's when absent. */
  clock?: ServiceClock
  /** Where a JSON line for each request and error goes (`--log json`); none when absent. */
  log?: JsonLog
}

export interface Service {
  /** The demo account's credentials when started with `demo`, else null. */
  readonly sandbox: SandboxAccount | null
  /** Handles requests to a server reachable at `origin`; every href the service sends starts with it. */
  requestListener(origin: string): RequestListener
  /** Readiness answers 503 from now on, and every live events stream ends (a stream never ends itself) while new ones
   * are refused; call it as the server stops. */
  drain(): void
  /** Stops the simulation and closes the store. Stop the server first, so no request finds it closed. */
  close(): Promise<void>
}

export async function createService({
  dataDir,
  database,
  mediaDir = dataDir,
  trustProxy = [],
  demo = false,
  lookup,
  rateLimit,
  simulate,
  resources,
  wsseNoncesPerUser,
  oauthNoncesPerHolder,
  liveStreams = {},
  collectionFeeds = true,
  categoriesPerPost,
  clock = systemClock,
  log,
}: ServiceOptions): Promise<Service> {
  const files = serviceResources(resources)
  const store = await openStore(dataDir, database === undefined ? {} : { database })
  try {
    prepareDataDir(mediaDir)
    const media = MediaLibrary.open(mediaDir, dataDir)
    const clientAddress = clientAddressOf(trustProxy)
    const sandbox = demo ? await ensureDemoAccount(store, media, files) : null
    const withWsse = wsseGuard(store.users, store.wsseNonces, wsseNoncesPerUser)
    const router = new Router({ errorReplyFor }).get('/t/atom/weblog', withWsse(weblogRoot(store.weblogs)))
    registerPostRoutes(router, store, withWsse, clock, categoriesPerPost)
    registerListRoutes(router, store, withWsse, createLookups({ catalogueFile: files.catalogueFile, ...lookup }), collectionFeeds)
    registerMediaRoutes(router, store, media, withWsse, collectionFeeds)
    registerOAuthRoutes(router, store, { clientAddress, noncesPerHolder: oauthNoncesPerHolder })
    const liveEvents = liveStreams === false ? undefined : new LiveEvents(store, liveStreams)
    registerJsonRoutes(router, store, { rateLimit, clientAddress, oauthNoncesPerHolder, ...(liveEvents ? { liveEvents } : {}) })
    registerProfilePages(router, store, AvatarCache.open(mediaDir))
    if (simulate !== undefined && !sandbox) {
      throw new SetupError('--simulate makes the demo friends act, so it needs the demo data: add --demo.')
    }
    const simulation = simulate === undefined || !sandbox ? null : await startSimulation(store, sandbox.username, simulate)
    // Open live streams hear of a scheduled post going public without waiting for someone's request.
    const releases = setInterval(() => void releaseScheduledPosts(store, clock).catch(reportReleaseFailure), SCHEDULED_RELEASE_INTERVAL_MS)
    releases.unref()
    // The probe is the cheapest real query there is: one indexed lookup of a name nobody can have.
    const readiness = new Readiness(() => store.users.find(''))
    return {
      sandbox,
      requestListener: (origin) => {
        const listener = router.listener(new URL(origin).origin)
        return withOperations(
          (request, response) => {
            // Only a read can show a post whose time has come, so only a read waits for the look; writes skip it.
            if (!READS.has(request.method ?? 'GET')) return listener(request, response)
            void prepareRead(store, clock, request)
              .catch(reportReadStartFailure)
              .then(() => listener(request, response))
          },
          { readiness, log: log ?? null },
        )
      },
      drain: () => {
        readiness.drain()
        liveEvents?.close()
      },
      close: async () => {
        clearInterval(releases)
        liveEvents?.close()
        await simulation?.stop()
        await store.close()
      },
    }
  } catch (error) {
    await store.close()
    throw error
  }
}

// The request is still answered: only the posts whose time has come stay scheduled until the next try.
function reportReleaseFailure(error: unknown): void {
  reportError('Releasing the scheduled posts whose time has come failed:', error)
}

// The read is still routed, and reads the count of writes itself; its own queries say whether the store answers.
function reportReadStartFailure(error: unknown): void {
  reportError('Looking at the store before a read (scheduled posts due, the count of writes) failed:', error)
}
