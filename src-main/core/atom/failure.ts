// How an Atom request can fail, sorted by what the caller must do next: a RequestFailure's kind tells the sync
// engine whether to retry, reconcile, wait, or ask the person; its message tells the person, in words.
import { parseXml } from '../../../src-protocol'
import { CoreError, type CoreErrorCode } from '../errors'

export type FailureKind =
  /** Nothing the server could act on reached it (connection refused, DNS, connect timeout, body cut short): safe to retry. */
  | 'unreachable'
  /** The whole request may have reached the server, but no answer came back: a POST must be reconciled before a retry. */
  | 'outcome-unknown'
  /** 5xx or 429: try again later, after `retryAfterMs` when the server said. */
  | 'server-busy'
  /** Any other 4xx, or an answer Blogdesk cannot use: needs the person's attention. */
  | 'refused'
  /** The server refused the credentials: pause the account until the person signs in again. */
  | 'auth'
  /** The server refused the credentials because our clock and its clock disagree. */
  | 'clock-skew'
  /** 404 or 410: the thing is not (or no longer) there. */
  | 'not-found'
  /** 409 or 412: the server's copy changed since ours. */
  | 'conflict'

/** Core's code for each kind, for failures that reach the person as they are. */
const CODE_OF_KIND: Record<FailureKind, CoreErrorCode> = {
  unreachable: 'offline',
  'outcome-unknown': 'offline',
  'server-busy': 'offline',
  refused: 'rejected',
  auth: 'auth',
  'clock-skew': 'clock-skew',
  'not-found': 'not-found',
  conflict: 'rejected',
}

export class RequestFailure extends CoreError {
  readonly kind: FailureKind
  /** From Retry-After on a 503 or 429, in milliseconds from when the answer came; null when the server gave none. */
  readonly retryAfterMs: number | null
  /** The HTTP status, when the server answered. */
  readonly status: number | null

  constructor(
    kind: FailureKind,
    message: string,
    options: { status?: number | null; retryAfterMs?: number | null; cause?: unknown } = {},
  ) {
    super(CODE_OF_KIND[kind], message, { cause: options.cause })
    this.name = 'RequestFailure'
    this.kind = kind
    this.status = options.status ?? null
    this.retryAfterMs = options.retryAfterMs ?? null
  }
}

/** What came back from the server, as far as judging a failure needs. */
export interface AnswerToJudge {
  status: number
  headers: { get(name: string): string | null }
  contentType: string
  body: string
  /** The address asked, to name it in messages. */
  url: string
}

/**
 * Blogdesk's service refusing a WSSE nonce it has seen. (Movable Type's "Nonce already used" stays a sign-in failure: it
 * also answers so for a nonce whose earlier attempt failed.)
 */
const REPLAY_REFUSED = /\(a replayed request\)/

/** The WSSE window is five minutes; a server clock further off than this explains an auth failure. */
const CLOCK_SKEW_TOLERANCE_MS = 4 * 60 * 1000

/** The failure a non-2xx answer means. */
export function answerFailure(answer: AnswerToJudge): RequestFailure {
  const { status } = answer
  const host = hostOf(answer.url)
  const serverSays = serverWords(answer)
  const quoted = serverSays ? ` (the server said: "${serverSays}")` : ''
  const failure = (kind: FailureKind, message: string, retryAfterMs: number | null = null) =>
    new RequestFailure(kind, message, { status, retryAfterMs })

  // Movable Type answers a bad digest or a stale Created with 403 plus a WSSE challenge; others use 401.
  if (status === 401 || (status === 403 && answer.headers.get('www-authenticate') !== null)) {
    // Each header Blogdesk makes has a fresh nonce, so a replay refused is a copy sent again on the way (a load
    // balancer retrying on another instance after the first died with the request): the first may have landed.
    if (REPLAY_REFUSED.test(serverSays)) {
      return failure('outcome-unknown', `${host} refused a copy of this request that was sent again on the way${quoted}. The first may have arrived, so Blogdesk checks before sending it again.`)
    }
    return signInFailure(answer, host, serverSays, quoted)
  }
  if (status === 404 || status === 410 || isMovableTypeMissingId(status, serverSays)) {
    return failure('not-found', `${host} has nothing at ${pathOf(answer.url)}${quoted}. It may have been deleted there.`)
  }
  if (status === 409 || status === 412) {
    return failure('conflict', `${host} refused the change because its copy changed in the meantime (HTTP ${status})${quoted}.`)
  }
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), Date.now())
    const when = retryAfterMs === null ? 'Blogdesk will try again in a few minutes.' : `It asked to wait ${describeWait(retryAfterMs)}.`
    const what = status === 429 ? 'is receiving too many requests' : 'had a problem answering'
    return failure('server-busy', `${host} ${what} (HTTP ${status})${quoted}. ${when}`, retryAfterMs)
  }
  if (status === 403) return failure('refused', `${host} does not allow this account to do that${quoted}.`)
  // Status 0: a fetch that keeps to the spec hides a redirect it was told not to follow (Electron's net.fetch).
  if (status === 0 || (status >= 300 && status < 400)) {
    const location = answer.headers.get('location')
    return failure(
      'refused',
      `${host} answered that ${pathOf(answer.url)} has moved${location ? ` to ${location}` : ''}${status ? ` (HTTP ${status})` : ''}. ` +
        "Check the account's Atom address; Blogdesk does not send changes on to a new address by itself.",
    )
  }
  return failure('refused', `${host} refused the request (HTTP ${status})${quoted}.`)
}

function signInFailure(answer: AnswerToJudge, host: string, serverSays: string, quoted: string): RequestFailure {
  const status = answer.status
  const skew = clockSkewMs(answer.headers.get('date'))
  if (skew !== null && Math.abs(skew) > CLOCK_SKEW_TOLERANCE_MS) {
    const minutes = Math.round(Math.abs(skew) / 60_000)
    return new RequestFailure(
      'clock-skew',
      `Your computer's clock is about ${minutes} minutes ${skew > 0 ? 'behind' : 'ahead of'} ${host}'s, so the server refuses the sign-in${quoted}. Set your clock to the correct time automatically, then try again.`,
      { status },
    )
  }
  const advice = 'Check both; the API password is the one for publishing tools, not the one you log in with.'
  // Quote the server when it explains itself; add our advice only where its words leave it out.
  return new RequestFailure(
    'auth',
    serverSays
      ? `${host} refused the sign-in: "${serverSays}"${/API password/i.test(serverSays) ? '' : ` ${advice}`}`
      : `${host} refused the username or API password. ${advice}`,
    { status },
  )
}

/**
 * Movable Type answers 400 "Invalid entry_id" for an entry that does not exist (test-fixtures/peers/mt/err/21–23),
 * and "Invalid blog ID '99'" for a weblog that does not: its way of saying 404.
 */
function isMovableTypeMissingId(status: number, serverSays: string): boolean {
  return status === 400 && /^Invalid (entry_id|blog ID '[^']+')$/.test(serverSays)
}

/** An answer that came with a success status but cannot be used: the server said something Blogdesk cannot read. */
export function unusableAnswer(answer: Omit<AnswerToJudge, 'headers'>, expected: string, detail?: string): RequestFailure {
  const serverSays = serverWords(answer)
  const said = serverSays ? `: "${serverSays}"` : detail ? ` (${detail})` : ''
  return new RequestFailure(
    'refused',
    `${hostOf(answer.url)} answered ${pathOf(answer.url)}, but not with ${expected}${said}. Check that the account's Atom address is right.`,
    { status: answer.status },
  )
}

/**
 * The text of an `<error>` body, or of a short plain-text body: what the server told the person. Only an answer
 * that is plain text, or XML whose root is `<error>`, counts: a web page or a feed is not words for a person.
 */
export function serverWords(answer: Pick<AnswerToJudge, 'body' | 'contentType'>): string {
  let text = ''
  try {
    const root = parseXml(answer.body, { maxDepth: 8 })
    if (root.name === 'error') text = root.text
  } catch {
    // Movable Type puts paths like "<mt_home>/lib/MT/AtomServer.pm" into its <error> unescaped (mt/err/27).
    const unparsed = LOOSE_ERROR_DOCUMENT.exec(answer.body)?.[1]
    if (unparsed !== undefined) text = decodeReferences(unparsed)
    else if (/^text\/plain/i.test(answer.contentType)) text = answer.body
  }
  text = text.trim().replace(/\s+/g, ' ')
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

const LOOSE_ERROR_DOCUMENT = /^\s*(?:<\?xml[^>]*\?>\s*)?<error>([^]*)<\/error>\s*$/
const REFERENCE = /&(?:#x([0-9A-Fa-f]{1,6})|#(\d{1,7})|(lt|gt|amp|quot|apos));/g
const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

function decodeReferences(text: string): string {
  return text.replace(REFERENCE, (whole, hex?: string, decimal?: string, name?: string) => {
    if (name !== undefined) return PREDEFINED_ENTITIES[name]!
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal)
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

/** Retry-After as delay-seconds or an HTTP-date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  const text = value?.trim()
  if (!text) return null
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

function describeWait(ms: number): string {
  if (ms < 1000) return `${ms} ms`
  const seconds = Math.ceil(ms / 1000)
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`
  const minutes = Math.ceil(seconds / 60)
  return minutes < 90 ? `${minutes} minutes` : `about ${Math.round(minutes / 60)} hours`
}

/** Server time minus our time, from the answer's Date header; null when the server sent none. */
export function clockSkewMs(dateHeader: string | null, now = Date.now()): number | null {
  if (!dateHeader) return null
  const serverTime = Date.parse(dateHeader)
  return Number.isNaN(serverTime) ? null : serverTime - now
}

// ── Failures before an answer ──────────────────────────────────────────────────────────────────────────────────

// Node (undici, node:net, node:dns) codes and Chromium's net errors (Electron's net.fetch) for a connection that was
// never made: the server cannot have seen the request.
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
])
const NOT_CONNECTED_NET_ERRORS =
  /net::ERR_(CONNECTION_REFUSED|NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|INTERNET_DISCONNECTED|ADDRESS_UNREACHABLE|CONNECTION_TIMED_OUT|PROXY_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED)\b/
const CERTIFICATE_CODES =
  /^(CERT_|ERR_TLS_CERT|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(VERIFY|GET_ISSUER)|ERR_SSL_)|net::ERR_(CERT_|SSL_)/

/** Where a request got to before it failed, as far as the transport can tell. */
export type SendProgress =
  /** No connection was made: nothing reached the server. */
  | 'not-connected'
  /** Connected, but the body was not all handed over: the server cannot have acted on an incomplete request. */
  | 'body-incomplete'
  /** Everything was sent, or the transport cannot tell how far it got. */
  | 'maybe-sent'

/** The failure a transport error means; `progress` says how far the request got, when the transport knows. */
export function transportFailure(error: unknown, url: string, progress: SendProgress | null, timeoutMs: number): RequestFailure {
  const host = hostOf(url)
  const codes = errorCodes(error)
  const certificate = codes.find((code) => CERTIFICATE_CODES.test(code))
  if (certificate !== undefined) {
    return new RequestFailure(
      'unreachable',
      `${host}'s security certificate was not accepted (${certificate}), so Blogdesk did not send anything. Check the address; if it is right, the server's certificate needs fixing.`,
      { cause: error },
    )
  }
  const connected =
    progress !== null
      ? progress !== 'not-connected'
      : !codes.some((code) => NOT_CONNECTED_CODES.has(code) || NOT_CONNECTED_NET_ERRORS.test(code) || code === 'bad port')
  if (!connected) {
    return new RequestFailure(
      'unreachable',
      `Could not reach ${host}. Check the address and your network connection, and that the server is running; then try again.`,
      { cause: error },
    )
  }
  if (progress === 'body-incomplete') {
    return new RequestFailure(
      'unreachable',
      `The connection to ${host} broke while sending, before the server had all of it, so nothing was changed there (${codes[0] ?? 'connection lost'}). Try again when the connection is steady.`,
      { cause: error },
    )
  }
  const timedOut = codes.includes('TimeoutError') || codes.includes('ETIMEDOUT')
  return new RequestFailure(
    'outcome-unknown',
    timedOut
      ? `${host} did not answer within ${describeWait(timeoutMs)}; the request may or may not have reached it.`
      : `The connection to ${host} broke before it answered (${codes[0] ?? 'connection lost'}); the request may or may not have reached it.`,
    { cause: error },
  )
}

/** Every code and name along the error's cause chain (fetch wraps the socket's error; AggregateError holds several). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = []
  const visit = (value: unknown, depth: number) => {
    if (depth > 4 || typeof value !== 'object' || value === null) return
    const { code, name, message, cause, errors } = value as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
    if (typeof code === 'string') codes.push(code)
    if (name === 'TimeoutError') codes.push(name)
    if (typeof message === 'string' && (message.startsWith('net::ERR_') || message === 'bad port')) codes.push(message)
    visit(cause, depth + 1)
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1)
  }
  visit(error, 0)
  return codes
}

export function hostOf(url: string): string {
  return new URL(url).host
}

function pathOf(url: string): string {
  return new URL(url).pathname
}
