// The JSON interface's client (spec §2, §4.1): API keys, auth tokens, events, users, a user's event stream paged by
// moreResultsToken and its by-group view paged by start-index. Every request is an OAuth-signed GET (HMAC-SHA1,
// signed when sent), and every answer is checked against the shapes the app uses before anyone sees it: an answer
// that does not fit is a RequestFailure ('rejected' for the renderer) that says which field, never a crash.
import type { OAuthClientCredentials } from '../../../src-protocol'
import { CoreError } from '../errors'
import { RequestFailure, transportFailure, type Fetch } from '../atom'
import { hostOf } from '../atom'
import { EventStreamParser } from './event-stream'
import { openSignedStream, signedRequest, type Answer } from './http'
import {
  readApiKey,
  readAuthToken,
  readEvent,
  readList,
  readStream,
  readUser,
  ROOT,
  ShapeError,
  type Reader,
} from './readers'
import type { JsonApiKey, JsonAuthToken, JsonEvent, JsonUser, List, Stream } from './shapes'

const JSON_ACCEPT = 'application/json'
/** Blogdesk's service sends a heartbeat every 15 s; a stream silent for three of them is taken for lost. */
export const DEFAULT_STREAM_IDLE_MS = 45_000
/** The service's own maximum for max-results; larger pages are clamped anyway. */
export const MAX_PAGE_SIZE = 200

export interface JsonClientOptions {
  fetch: Fetch
  /** Where the JSON interface hangs off, e.g. http://127.0.0.1:4321 (spec §4.1's api.typepad.com). */
  jsonBase: string
  /** Asked before every request, so no secret is kept here and a new token is used at once. */
  credentials: () => Promise<OAuthClientCredentials>
  timeoutMs?: number
  /** Our clock, for signature timestamps; Date.now by default. */
  now?: () => number
}

export class JsonClient {
  readonly jsonBase: string
  readonly #options: JsonClientOptions

  constructor(options: JsonClientOptions) {
    this.jsonBase = options.jsonBase.replace(/\/+$/, '')
    this.#options = options
  }

  /** The API key and the Application it belongs to, with the application's OAuth endpoints. */
  apiKey(key: string): Promise<JsonApiKey> {
    return this.#get(this.#at(`/api-keys/${encodeURIComponent(key)}.json`), readApiKey)
  }

  authToken(key: string, token: string): Promise<JsonAuthToken> {
    return this.#get(this.#at(`/auth-tokens/${encodeURIComponent(key)}:${encodeURIComponent(token)}.json`), readAuthToken)
  }

  event(urlId: string): Promise<JsonEvent> {
    return this.#get(this.#at(`/events/${encodeURIComponent(urlId)}.json`), readEvent)
  }

  /** A user by urlId or username; a username is answered with a redirect to the user's canonical address. */
  user(urlIdOrUsername: string): Promise<JsonUser> {
    return this.#get(this.#at(`/users/${encodeURIComponent(urlIdOrUsername)}.json`), readUser)
  }

  /** Who the access token acts for, at the Application's identification URL (followed, never built). */
  identify(identificationUrl: string): Promise<JsonUser> {
    return this.#get(identificationUrl, readUser)
  }

  /** One page of a user's events, newest first; pass the page's moreResultsToken as `startToken` for the next. */
  async userEvents(userId: string, options: { limit?: number; startToken?: string | null } = {}): Promise<Stream<JsonEvent>> {
    const query = new URLSearchParams()
    if (options.limit !== undefined) query.set('max-results', String(pageSize(options.limit)))
    if (options.startToken) query.set('start-token', options.startToken)
    return this.#get(this.#at(`/users/${encodeURIComponent(userId)}/events.json`, query), readStream(readEvent))
  }

  /**
   * The newest page of a user's events, unless it is unchanged since the page tagged `etag` (then `page` is null:
   * the server answered 304), with the tag of what it gave and the live stream the server offers, if any.
   */
  async userEventsHead(userId: string, options: { limit: number; etag: string | null }): Promise<EventsHead> {
    const query = new URLSearchParams({ 'max-results': String(pageSize(options.limit)) })
    const answer = await this.#answer(
      this.#at(`/users/${encodeURIComponent(userId)}/events.json`, query),
      options.etag === null ? {} : { 'If-None-Match': options.etag },
    )
    return {
      page: answer.status === 304 ? null : readAnswer(answer, readStream(readEvent)),
      etag: answer.headers.get('etag') ?? (answer.status === 304 ? options.etag : null),
      liveUrl: liveUrlOf(answer),
    }
  }

  /**
   * A user's events as they happen, from the live stream a server offered (EventsHead.liveUrl), after `lastEventId`
   * when given. Ends when `signal` aborts; throws a RequestFailure when the stream is refused, breaks or falls silent
   * for `idleMs`, and for an event Blogdesk cannot read.
   */
  async *liveEvents(
    liveUrl: string,
    options: { lastEventId: string | null; signal: AbortSignal; idleMs?: number },
  ): AsyncGenerator<JsonEvent, void, undefined> {
    const idleMs = options.idleMs ?? DEFAULT_STREAM_IDLE_MS
    const silence = new AbortController()
    const fallSilent = () => silence.abort(new DOMException('The stream fell silent', 'TimeoutError'))
    let watchdog = setTimeout(fallSilent, idleMs)
    try {
      const response = await openSignedStream(this.#options.fetch, {
        method: 'GET',
        url: liveUrl,
        credentials: await this.#options.credentials(),
        accept: 'text/event-stream',
        headers: options.lastEventId === null ? {} : { 'Last-Event-ID': options.lastEventId },
        signal: AbortSignal.any([options.signal, silence.signal]),
        ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
        ...(this.#options.now === undefined ? {} : { now: this.#options.now }),
      })
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      const parser = new EventStreamParser()
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return
          clearTimeout(watchdog)
          watchdog = setTimeout(fallSilent, idleMs)
          for (const message of parser.push(value)) {
            yield readAnswer({ status: response.status, url: liveUrl, contentType: 'text/event-stream', body: message.data, headers: response.headers }, readEvent)
          }
        }
      } finally {
        await reader.cancel().catch(() => {})
      }
    } catch (error) {
      // A stream ended by its reader is no failure.
      if (options.signal.aborted) return
      if (error instanceof RequestFailure) throw error
      throw transportFailure(error, liveUrl, null, idleMs)
    } finally {
      clearTimeout(watchdog)
    }
  }

  /** One page of a user's events in one group; `startIndex` counts from 1. */
  async groupEvents(userId: string, groupId: string, options: { startIndex?: number; limit?: number } = {}): Promise<List<JsonEvent>> {
    const query = new URLSearchParams()
    if (options.startIndex !== undefined) {
      if (!Number.isSafeInteger(options.startIndex) || options.startIndex < 1) {
        throw new CoreError('invalid-argument', `startIndex counts from 1; ${options.startIndex} cannot be asked for.`)
      }
      query.set('start-index', String(options.startIndex))
    }
    if (options.limit !== undefined) query.set('max-results', String(pageSize(options.limit)))
    const path = `/users/${encodeURIComponent(userId)}/events/@by-group/${encodeURIComponent(groupId)}.json`
    return this.#get(this.#at(path, query), readList(readEvent))
  }

  #at(path: string, query?: URLSearchParams): string {
    const search = query?.toString()
    return `${this.jsonBase}${path}${search ? `?${search}` : ''}`
  }

  async #get<T>(url: string, reader: Reader<T>): Promise<T> {
    return readAnswer(await this.#answer(url), reader)
  }

  async #answer(url: string, headers: Record<string, string> = {}): Promise<Answer> {
    return signedRequest(this.#options.fetch, {
      method: 'GET',
      url,
      credentials: await this.#options.credentials(),
      accept: JSON_ACCEPT,
      headers,
      ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
      ...(this.#options.now === undefined ? {} : { now: this.#options.now }),
    })
  }
}

export interface EventsHead {
  /** Null when the server answered 304: nothing changed since the page the tag was given with. */
  page: Stream<JsonEvent> | null
  /** The server's validator for this page (ETag), to send back next time; null when it gives none. */
  etag: string | null
  /** Where the server streams this user's new events (its Link rel="live"); null when it offers no stream. */
  liveUrl: string | null
}

/**
 * The Link rel="live" of an answer, resolved against its address; only on the same origin, since the stream is
 * signed with the account's credentials and those go to no other server.
 */
function liveUrlOf(answer: Answer): string | null {
  for (const link of (answer.headers.get('link') ?? '').split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(link)
    const rel = match && /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(match[2]!)
    if (!match || !rel || !(rel[1] ?? rel[2] ?? '').split(/\s+/).includes('live')) continue
    const url = new URL(match[1]!, answer.url)
    if (url.origin === new URL(answer.url).origin) return url.href
  }
  return null
}

/** The answer's JSON as `reader` reads it; a RequestFailure naming what does not fit otherwise. */
function readAnswer<T>(answer: Answer, reader: Reader<T>): T {
  const where = `${hostOf(answer.url)} answered ${new URL(answer.url).pathname}`
  const advice = 'Check that the account’s JSON address is right; if it is, that server does not speak this interface.'
  let parsed: unknown
  try {
    parsed = JSON.parse(answer.body)
  } catch {
    const sent = answer.contentType ? answer.contentType.split(';', 1)[0] : 'no content type'
    throw new RequestFailure('refused', `${where}, but not with JSON (it sent ${sent}). ${advice}`, { status: answer.status })
  }
  try {
    return reader(parsed, ROOT)
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error
    throw new RequestFailure('refused', `${where} with JSON Blogdesk cannot use: ${error.message}. ${advice}`, {
      status: answer.status,
      cause: error,
    })
  }
}

function pageSize(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new CoreError('invalid-argument', `A page holds a whole number of events from 0 to ${MAX_PAGE_SIZE}, not ${limit}.`)
  }
  return Math.min(limit, MAX_PAGE_SIZE)
}
