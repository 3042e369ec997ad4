// The JSON interface (spec §2, §4.1; docs/PROTOCOL.md "JSON interface"): API keys, auth tokens, events, a user's events
// stream and its by-group view, and the users, groups and assets those refer to. Readable without OAuth; a request that
// carries an OAuth signature is verified first (a bad one is refused). Only `.json` is served; every answer, refusals
// included, is JSON. With a rate limit, each client (its API key when signed, else its address) has its own. Two
// extensions make a friend's feed live: events.json answers If-None-Match with 304, and …/events/live streams events.
import { createHash, randomBytes } from 'node:crypto'
import { oauthVerifier } from '../auth/oauth'
import { applicationUrls } from '../auth/oauth-urls'
import { JsonGraph } from '../json/graph'
import { PagingTokenError, PagingTokens } from '../json/paging'
import { jsonDocumentReply, jsonError, jsonReply } from '../json/reply'
import type { ApiKeyJson, AuthTokenJson, EventJson, ListJson, StreamJson } from '../json/shapes'
import { reportError } from '../operations/log'
import { notFoundPage } from '../public/page'
import type { Person, Store, StreamCursor } from '../store'
import { EVENT_STREAM_HEADERS, type LiveEvents } from './live-events'
import { RateLimiter } from './rate-limit'
import { writesAtReadStart } from './reads'
import { RenderCache } from './render-cache'
import { errorReply, HttpError, type Handler, type Reply, type RequestContext } from './reply'
import type { ErrorReplyFor } from './router'
import type { Router } from './router'
import { tagDomain } from './tag-uri'
import { clientAddressOf, type ClientAddress } from '../operations/client-address'

/** docs/PROTOCOL.md: max-results defaults to 50; more than 200 is clamped to 200. */
const DEFAULT_MAX_RESULTS = 50
const MAX_RESULTS_LIMIT = 200

export interface JsonOptions {
  /** Requests a minute each client may make; absent, there is no limit. */
  rateLimit?: number
  /** Serves each user's live events stream through this; without it there is none, and events.json does not offer it. */
  liveEvents?: LiveEvents
  /** Where a request comes from (the address the rate limit counts when it is not signed); its socket's peer when absent. */
  clientAddress?: ClientAddress
  /** OAuth nonces each token or unsigned-for address keeps (auth/oauth.ts MAX_NONCES_PER_HOLDER when absent). */
  oauthNoncesPerHolder?: number
}

/** A JSON route's handler; `client` names who asks (their API key when signed, else their address). */
type JsonHandler = (context: RequestContext, client: string) => Reply | Promise<Reply>

export function registerJsonRoutes(
  router: Router,
  store: Store,
  { rateLimit, liveEvents, clientAddress = clientAddressOf(), oauthNoncesPerHolder }: JsonOptions = {},
): void {
  const tokens = PagingTokens.of(store.secrets)
  const json = jsonGuard(oauthVerifier(store, { clientAddress, noncesPerHolder: oauthNoncesPerHolder }), rateLimit, clientAddress)
  const streams = new RenderCache(store)
  if (liveEvents) router.get('/users/:userId/events/live', json(userLiveEvents(store, liveEvents)))
  router
    .get('/api-keys/:file', json(apiKey(store)))
    .get('/auth-tokens/:file', json(authToken(store)))
    .get('/events/:file', json(event(store)))
    .get('/assets/:file', json(asset(store)))
    .get('/groups/:file', json(group(store)))
    .get('/users/:file', json(user(store)))
    .get('/users/:userId/:file', json(userEvents(store, tokens, streams, liveEvents !== undefined)))
    .get('/users/:userId/events/@by-group/:file', json(userEventsInGroup(store)))
    .get('/p/:urlId', shortUrl(store))
}

/** The router's own refusals (no such path, wrong method, body too large) reach a JSON client as JSON. */
export const errorReplyFor: ErrorReplyFor = (path) => (path.endsWith('.json') ? jsonError : errorReply)

/** Verifies a signed request, applies the rate limit, and turns every refusal into a JSON error. */
function jsonGuard(
  verify: ReturnType<typeof oauthVerifier>,
  rateLimit: number | undefined,
  clientAddress: ClientAddress,
): (handler: JsonHandler) => Handler {
  const limiter = rateLimit === undefined ? null : new RateLimiter(rateLimit)
  return (handler) => async (context) => {
    const { request, origin } = context
    try {
      const outcome = await verify(request, origin)
      const client = outcome.signed && outcome.ok ? `API key ${outcome.apiKey}` : `address ${clientAddress(request)}`
      if (limiter) {
        const verdict = limiter.take(client)
        if (!verdict.allowed) {
          const wait = verdict.retryAfterSeconds
          return jsonError(
            503,
            `Too many requests: this service answers ${rateLimit} a minute from each client. ` +
              `Try again in ${wait} ${wait === 1 ? 'second' : 'seconds'}.`,
            { 'Retry-After': String(wait) },
          )
        }
      }
      if (outcome.signed && !outcome.ok) {
        const challenge = { 'WWW-Authenticate': `OAuth realm="${origin}"` }
        return jsonError(outcome.status, outcome.message, outcome.status === 401 ? challenge : {})
      }
      return await handler(context, client)
    } catch (error) {
      if (error instanceof HttpError) return jsonError(error.status, error.message, error.headers)
      reportError(`${request.method} ${(request.url ?? '/').split('?', 1)[0]} failed:`, error)
      return jsonError(500, 'The service failed to answer this request; its log says why. Please report it.')
    }
  }
}

function apiKey(store: Store): Handler {
  return async (context) => {
    const key = jsonName(context)
    const application = await store.directory.applicationOfApiKey(key)
    if (!application) {
      throw new HttpError(404, `There is no API key "${key}" on this service. Check the key you were given.`)
    }
    const document: ApiKeyJson = {
      apiKey: key,
      owner: {
        id: application.urlId,
        objectType: 'Application',
        objectTypes: [`tag:${tagDomain(context.origin)},2009:Application`],
        name: application.name,
        ...applicationUrls(context.origin, application.urlId),
      },
    }
    return jsonReply(200, document)
  }
}

function authToken(store: Store): Handler {
  return async (context) => {
    const name = jsonName(context)
    const colon = name.indexOf(':')
    if (colon === -1) {
      throw new HttpError(
        404,
        `An auth token is read at /auth-tokens/<API key>:<auth token>.json, not /auth-tokens/${name}.json.`,
      )
    }
    const grant = await store.oauth.accessToken(name.slice(0, colon), name.slice(colon + 1))
    if (!grant) {
      throw new HttpError(
        404,
        'There is no such auth token for this API key: it was never issued, or has been revoked. ' +
          'Ask the person to approve your application again.',
      )
    }
    const [group] = await store.groups.groupsOf(grant.userId)
    const document: AuthTokenJson = {
      authToken: grant.authToken,
      targetObject: group ? new JsonGraph(store, context.origin).group(group) : null,
    }
    return jsonReply(200, document)
  }
}

function event(store: Store): Handler {
  return async (context) => {
    const urlId = jsonName(context)
    const record = await store.events.find(urlId)
    const document = record && (await new JsonGraph(store, context.origin).event(record))
    if (!document) {
      throw new HttpError(404, `There is no event ${urlId}. It may have been about something that has since been deleted.`)
    }
    return jsonReply(200, document)
  }
}

function asset(store: Store): Handler {
  return async (context) => {
    const urlId = jsonName(context)
    const document = await assetJson(store, context.origin, urlId)
    if (!document) throw new HttpError(404, `There is no post, comment, photo or list item ${urlId}. It may have been deleted.`)
    return jsonReply(200, document)
  }
}

async function assetJson(store: Store, origin: string, urlId: string) {
  const named = await store.directory.resolve(urlId)
  if (!named) return null
  const graph = new JsonGraph(store, origin)
  switch (named.kind) {
    case 'Post':
    case 'Comment':
    case 'Photo':
    case 'ListItem':
      return graph.asset(named.kind, named.id)
    default:
      return null
  }
}

function group(store: Store): Handler {
  return async (context) => {
    const urlId = jsonName(context)
    const found = await store.groups.findByUrlId(urlId)
    if (!found) throw new HttpError(404, `There is no group ${urlId}. Check the address.`)
    return jsonReply(200, new JsonGraph(store, context.origin).group(found))
  }
}

function user(store: Store): Handler {
  return async (context) => {
    const person = await personOf(store, context, jsonName(context), (urlId) => `/users/${urlId}.json`)
    if (!('urlId' in person)) return person
    return jsonReply(200, (await new JsonGraph(store, context.origin).user(person.id))!)
  }
}

/**
 * GET /users/<id>/events.json: the user's stream, newest first, paged by start-token. A page is reused until the
 * store changes (a feed is polled far more often than it changes), and for an hour at most, so the token it carries
 * is never near the end of its life. Its ETag names exactly that: this service's run, the store's write count, the
 * hour and the address; an If-None-Match that matches is answered 304 before anything is read or rendered.
 */
function userEvents(store: Store, tokens: PagingTokens, streams: RenderCache, offersLive: boolean): Handler {
  // Write counts start again with each run, so a tag from an earlier run must never match.
  const run = randomBytes(6).toString('base64url')
  return async (context) => {
    if (jsonName(context) !== 'events') {
      throw new HttpError(404, `There is nothing at ${pathOf(context)}. A user's events are at /users/<id>/events.json.`)
    }
    const hour = Math.floor(Date.now() / 3_600_000)
    const address = createHash('sha1').update(`${context.origin}${context.request.url ?? ''}`).digest('base64url')
    const writes = writesAtReadStart(context.request) ?? (await store.writes())
    const etag = `W/"${run}.${writes}.${hour}.${address.slice(0, 12)}"`
    const headers: Record<string, string> = { ETag: etag, 'Cache-Control': 'no-cache' }
    if (offersLive) {
      const live = `${context.origin}/users/${encodeURIComponent(context.params['userId']!)}/events/live`
      headers['Link'] = `<${live}>; rel="live"`
    }
    if (matchesTag(context.request.headers['if-none-match'], etag)) return { status: 304, headers }
    const person = await personOf(store, context, context.params['userId']!, (urlId) => `/users/${urlId}/events.json`)
    if (!('urlId' in person)) return person
    const query = queryOf(context, ['start-index'], 'This stream pages with start-token, not start-index.')
    const limit = maxResults(query)
    const token = single(query, 'start-token')
    let cursor: StreamCursor | null = null
    if (token !== null) {
      if (token === '') throw new HttpError(400, 'start-token is empty. Leave it out to start from the newest events.')
      try {
        cursor = tokens.read(token, person.id)
      } catch (error) {
        if (error instanceof PagingTokenError) throw new HttpError(400, error.message)
        throw error
      }
    }
    const key = `events ${context.origin} ${person.id} ${limit} ${token ?? ''} ${hour}`
    return jsonDocumentReply(
      200,
      await streams.document(key, async () => {
        // One more than asked for tells whether another page follows.
        const events = await store.events.streamPage(person.id, cursor, limit + 1)
        const page = events.slice(0, limit)
        const last = page.at(-1)
        const next = last ? { published: last.published, id: last.id } : cursor
        const document: StreamJson<EventJson> = {
          entries: await new JsonGraph(store, context.origin).events(page),
          estimatedTotalResults: null,
          moreResultsToken: events.length > limit ? tokens.issue({ userId: person.id, cursor: next }) : null,
          totalResults: await store.events.totalBy(person.id),
        }
        return JSON.stringify(document)
      }, writes),
      headers,
    )
  }
}

/** If-None-Match against a weak tag: any listed tag equal to it but for `W/` (weak comparison, RFC 9110 §13.1.2). */
function matchesTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag))
}

/** GET /users/<id>/events/live: the user's new events as a text/event-stream (routes/live-events.ts). */
function userLiveEvents(store: Store, live: LiveEvents): JsonHandler {
  return async (context, client) => {
    const person = await personOf(store, context, context.params['userId']!, (urlId) => `/users/${urlId}/events/live`)
    if (!('urlId' in person)) return person
    // HEAD is answered with the headers alone: a body nobody reads would hold a stream open until the service stops.
    if (context.request.method === 'HEAD') return { status: 200, headers: EVENT_STREAM_HEADERS }
    const lastEventId = context.request.headers['last-event-id']
    return live.open(person, client, context.origin, typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : null)
  }
}

/** GET /users/<id>/events/@by-group/<groupId>.json: the user's events in one group, paged by start-index. */
function userEventsInGroup(store: Store): Handler {
  return async (context) => {
    const groupUrlId = jsonName(context)
    const person = await personOf(
      store,
      context,
      context.params['userId']!,
      (urlId) => `/users/${urlId}/events/@by-group/${encodeURIComponent(groupUrlId)}.json`,
    )
    if (!('urlId' in person)) return person
    const found = await store.groups.findByUrlId(groupUrlId)
    if (!found) throw new HttpError(404, `There is no group ${groupUrlId}. Check the address.`)
    const query = queryOf(context, ['start-token'], 'This list pages with start-index (counting from 1), not start-token.')
    const limit = maxResults(query)
    const startIndex = count(query, 'start-index', 1)
    if (startIndex < 1) throw new HttpError(400, 'start-index counts from 1: the first event is start-index=1.')
    const document: ListJson<EventJson> = {
      totalResults: await store.events.countInGroup(person.id, found.id),
      entries: await new JsonGraph(store, context.origin).events(
        await store.events.inGroupPage(person.id, found.id, startIndex - 1, limit),
      ),
    }
    return jsonReply(200, document)
  }
}

/** GET /p/<urlId>: an asset's short URL, for people; it leads to the asset's permalink. */
function shortUrl(store: Store): Handler {
  return async ({ origin, params }) => {
    const document = await assetJson(store, origin, params['urlId'] ?? '')
    if (!document) return notFoundPage('There is nothing at this short address. What it pointed to may have been deleted.')
    return { status: 302, headers: { Location: document.permalinkUrl } }
  }
}

/**
 * The user a `/users/<id>/…` address names. A url id is the canonical name; a username answers 302 to the
 * address `canonical` makes of the url id, with the query kept.
 */
async function personOf(
  store: Store,
  context: RequestContext,
  id: string,
  canonical: (urlId: string) => string,
): Promise<Person | Reply> {
  const byUrlId = await store.profiles.findByUrlId(id)
  if (byUrlId) return byUrlId
  const byUsername = await store.profiles.findByUsername(id)
  if (!byUsername) {
    throw new HttpError(404, `There is no user "${id}" on this service. Use a user's urlId or username.`)
  }
  const { search } = new URL(context.request.url ?? '/', context.origin)
  return { status: 302, headers: { Location: `${context.origin}${canonical(byUsername.urlId)}${search}` } }
}

/** The name in the address's last segment, which must end in `.json`: the only format served. */
function jsonName(context: RequestContext): string {
  const file = context.params['file'] ?? ''
  const dot = file.lastIndexOf('.')
  const name = dot === -1 ? file : file.slice(0, dot)
  const format = dot === -1 ? null : file.slice(dot + 1)
  if (format !== 'json') {
    const path = pathOf(context)
    const asJson = `${path.slice(0, path.length - encodeURIComponent(file).length)}${encodeURIComponent(name)}.json`
    throw new HttpError(
      404,
      `${format === null ? `${path} has no format suffix` : `There is no ${format} format`}: this interface answers in ` +
        `JSON only. Ask for ${asJson}.`,
    )
  }
  return name
}

function pathOf(context: RequestContext): string {
  return (context.request.url ?? '/').split('?', 1)[0]!
}

/** The query; a parameter of `refused` names the other kind of paging, and is refused with `why`. */
function queryOf(context: RequestContext, refused: string[], why: string): URLSearchParams {
  const query = new URL(context.request.url ?? '/', context.origin).searchParams
  for (const name of refused) if (query.has(name)) throw new HttpError(400, `${why} Leave ${name} out.`)
  return query
}

function single(query: URLSearchParams, name: string): string | null {
  const values = query.getAll(name)
  if (values.length > 1) throw new HttpError(400, `${name} is given ${values.length} times; give it once.`)
  return values[0] ?? null
}

/** Counts past any stream's length mean the same as that length; they stop here, where SQL still takes them. */
const LARGEST_COUNT = 1_000_000_000

function count(query: URLSearchParams, name: string, fallback: number): number {
  const text = single(query, name)
  if (text === null) return fallback
  if (!/^\d+$/.test(text)) throw new HttpError(400, `${name} must be a whole number, not "${text}".`)
  return Math.min(Number(text), LARGEST_COUNT)
}

/** max-results: 50 when absent, at most 200 (larger is clamped), 0 for the totals alone. */
function maxResults(query: URLSearchParams): number {
  return Math.min(count(query, 'max-results', DEFAULT_MAX_RESULTS), MAX_RESULTS_LIMIT)
}
