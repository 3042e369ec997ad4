// The JSON interface's client (spec §2, §4.1): API keys, auth tokens, events, users, a user's event stream paged by
// moreResultsToken and its by-group view paged by start-index. Every request is an OAuth-signed GET (HMAC-SHA1,
// signed when sent), and every answer is checked against the shapes the app uses before anyone sees it: an answer
// that does not fit is a RequestFailure ('rejected' for the renderer) that says which field, never a crash.
import type { OAuthClientCredentials } from '../../../src-protocol'
import { CoreError } from '../errors'
import { RequestFailure, type Fetch } from '../atom'
import { hostOf } from '../atom'
import { signedRequest, type Answer } from './http'
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
    const answer = await signedRequest(this.#options.fetch, {
      method: 'GET',
      url,
      credentials: await this.#options.credentials(),
      accept: JSON_ACCEPT,
      ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
      ...(this.#options.now === undefined ? {} : { now: this.#options.now }),
    })
    return readAnswer(answer, reader)
  }
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
