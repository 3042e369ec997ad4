// Requests to the JSON interface and its OAuth endpoints through the injected fetch (Electron's net.fetch in the
// app). Each is signed with OAuth 1.0a at the moment of sending, bounded in time and size, and each way of failing
// becomes a RequestFailure of the same kinds the Atom client uses, so callers treat both services alike.
import { createOAuthHeader, type OAuthClientCredentials } from '../../../src-protocol'
import { clockSkewMs, hostOf, parseRetryAfter, readLimitedText, RequestFailure, transportFailure, type Fetch } from '../atom'

const DEFAULT_TIMEOUT_MS = 30_000
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024
const MAX_REDIRECTS = 5
/** The provider's timestamp window is five minutes; a server clock further off than this explains a refusal. */
const CLOCK_SKEW_TOLERANCE_MS = 4 * 60 * 1000

export interface SignedRequest {
  method: 'GET' | 'POST'
  url: string
  credentials: OAuthClientCredentials
  /** oauth_callback, oauth_verifier. */
  protocolParameters?: Record<string, string>
  accept: string
  /** Headers besides the signature and Accept: If-None-Match, Last-Event-ID. */
  headers?: Record<string, string>
  timeoutMs?: number
  /** Our clock, in ms since 1970: what signatures are stamped with and server clocks are compared to. */
  now?: () => number
}

export interface Answer {
  status: number
  /** Where the answer came from, after redirects. */
  url: string
  contentType: string
  body: string
  headers: Headers
}

/**
 * Sends one signed request; resolves with a 2xx answer (or a 304 to an If-None-Match) and throws a RequestFailure for
 * anything else. A GET follows redirects itself, within the same origin, signing each hop for its own address (a
 * signature covers the URL, so one made for the first address is refused at the next); a POST follows none.
 */
export async function signedRequest(fetch: Fetch, request: SignedRequest): Promise<Answer> {
  const now = request.now ?? Date.now
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const origin = new URL(request.url).origin
  let url = request.url
  for (let hop = 0; ; hop++) {
    const response = await send(fetch, url, request, now, AbortSignal.timeout(timeoutMs), timeoutMs)
    const answer: Answer = {
      status: response.status,
      url,
      contentType: response.headers.get('content-type') ?? '',
      body: await readBody(response, url, timeoutMs),
      headers: response.headers,
    }
    if (answer.status >= 200 && answer.status < 300) return answer
    if (answer.status === 304 && request.headers?.['If-None-Match'] !== undefined) return answer
    const location = response.headers.get('location')
    if (request.method === 'GET' && isRedirect(answer.status) && location) {
      const next = new URL(location, url)
      if (next.origin !== origin) {
        throw new RequestFailure(
          'refused',
          `${hostOf(url)} sent Blogdesk on to ${next.host}. Blogdesk does not take your sign-in to another server; ` +
            'check the account’s JSON address.',
          { status: answer.status },
        )
      }
      if (hop >= MAX_REDIRECTS) {
        throw new RequestFailure('refused', `${hostOf(url)} redirected more than ${MAX_REDIRECTS} times; Blogdesk stopped following.`, {
          status: answer.status,
        })
      }
      url = next.href
      continue
    }
    throw answerFailure(answer, response.headers, now())
  }
}

/**
 * Opens a signed GET whose body is read as it arrives (a text/event-stream): resolves with the 2xx response once its
 * headers come (within the timeout), its body unread; `signal` ends it. No redirects are followed: the address was
 * given by the server itself.
 */
export async function openSignedStream(fetch: Fetch, request: SignedRequest & { signal: AbortSignal }): Promise<Response> {
  const now = request.now ?? Date.now
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const headersDue = new AbortController()
  const timer = setTimeout(() => headersDue.abort(new DOMException('No answer in time', 'TimeoutError')), timeoutMs)
  let response: Response
  try {
    response = await send(fetch, request.url, request, now, AbortSignal.any([request.signal, headersDue.signal]), timeoutMs)
  } finally {
    clearTimeout(timer)
  }
  if (response.status >= 200 && response.status < 300) return response
  const answer: Answer = {
    status: response.status,
    url: request.url,
    contentType: response.headers.get('content-type') ?? '',
    body: await readBody(response, request.url, timeoutMs),
    headers: response.headers,
  }
  throw answerFailure(answer, response.headers, now())
}

async function send(
  fetch: Fetch,
  url: string,
  request: SignedRequest,
  now: () => number,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Response> {
  const authorization = createOAuthHeader({ method: request.method, url }, request.credentials, {
    now: new Date(now()),
    ...(request.protocolParameters ? { protocolParameters: request.protocolParameters } : {}),
  })
  try {
    return await fetch(url, {
      method: request.method,
      headers: { ...request.headers, Accept: request.accept, Authorization: authorization },
      redirect: 'manual',
      signal,
    })
  } catch (error) {
    throw transportFailure(error, url, null, timeoutMs)
  }
}

async function readBody(response: Response, url: string, timeoutMs: number): Promise<string> {
  try {
    return await readLimitedText(response, url, MAX_RESPONSE_BYTES)
  } catch (error) {
    if (error instanceof RequestFailure) throw error
    throw transportFailure(error, url, null, timeoutMs)
  }
}

function isRedirect(status: number): boolean {
  return [301, 302, 303, 307, 308].includes(status)
}

/** The failure a non-2xx answer means, with the server's own words when it gave some. */
function answerFailure(answer: Answer, headers: Headers, now: number): RequestFailure {
  const { status } = answer
  const host = hostOf(answer.url)
  const words = serverWords(answer)
  const quoted = words ? ` (the server said: "${words}")` : ''
  const failure = (kind: ConstructorParameters<typeof RequestFailure>[0], message: string, retryAfterMs: number | null = null) =>
    new RequestFailure(kind, message, { status, retryAfterMs })

  if (status === 401) {
    const skew = clockSkewMs(headers.get('date'), now)
    if ((skew !== null && Math.abs(skew) > CLOCK_SKEW_TOLERANCE_MS) || /clock skew|oauth_timestamp/i.test(words)) {
      const about = skew === null ? '' : ` about ${Math.round(Math.abs(skew) / 60_000)} minutes ${skew > 0 ? 'behind' : 'ahead of'} ${host}'s`
      return failure(
        'clock-skew',
        `Your computer's clock is${about || ' off'}, so ${host} refuses Blogdesk's signed requests${quoted}. ` +
          'Set your clock to the correct time automatically, then try again.',
      )
    }
    return failure('auth', `${host} refused Blogdesk's OAuth credentials${quoted}. Sign in to ${host} again from the account's settings.`)
  }
  if (status === 404 || status === 410) {
    return failure('not-found', `${host} has nothing at ${new URL(answer.url).pathname}${quoted}. It may have been deleted there.`)
  }
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(headers.get('retry-after'), now)
    const when = retryAfterMs === null ? 'Blogdesk will try again later.' : `It asked to wait ${Math.ceil(retryAfterMs / 1000)} seconds.`
    const what = status === 429 || status === 503 ? 'is busy' : 'had a problem answering'
    return failure('server-busy', `${host} ${what} (HTTP ${status})${quoted}. ${when}`, retryAfterMs)
  }
  if (status === 403) return failure('refused', `${host} does not allow this account to do that${quoted}.`)
  if (status >= 300 && status < 400) {
    return failure('refused', `${host} answered that ${new URL(answer.url).pathname} has moved (HTTP ${status}); Blogdesk does not resend it there.`)
  }
  return failure('refused', `${host} refused the request (HTTP ${status})${quoted}.`)
}

/** The message of a JSON error document ({"error": {"status", "message"}}), or a short plain-text body. */
function serverWords(answer: Pick<Answer, 'body' | 'contentType'>): string {
  let words = ''
  try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: unknown } }
    if (typeof parsed.error?.message === 'string') words = parsed.error.message
  } catch {
    if (/^text\/plain/i.test(answer.contentType)) words = answer.body
  }
  words = words.trim().replace(/\s+/g, ' ')
  return words.length > 200 ? `${words.slice(0, 200)}…` : words
}
