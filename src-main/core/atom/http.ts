// Every Atom request goes through `atomRequest`: it signs with WSSE at the moment of sending (a header made earlier
// would go stale), bounds time and size, and turns each way of failing into words a person can act on.
import { createWsseHeader, parseXml, type WsseCredentials } from '../../../src-protocol'
import { BlogdeskError } from '../../../src-preload/contract'

export type Fetch = typeof globalThis.fetch

export const ATOM_ACCEPT = 'application/x.atom+xml, application/atom+xml, application/xml, text/xml'
const REQUEST_TIMEOUT_MS = 20_000
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024
/** The WSSE window is five minutes; a server clock further off than this explains an auth failure. */
const CLOCK_SKEW_TOLERANCE_MS = 4 * 60 * 1000

export interface AtomResponse {
  status: number
  contentType: string
  body: string
}

export interface AtomRequest {
  url: string
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  credentials: WsseCredentials
}

export async function atomRequest(fetch: Fetch, request: AtomRequest): Promise<AtomResponse> {
  const host = new URL(request.url).host
  let response: Response
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers: {
        Accept: ATOM_ACCEPT,
        'X-WSSE': createWsseHeader(request.credentials),
        // XML::Atom and Movable Type clients send this too; some servers only look for X-WSSE after seeing it.
        Authorization: 'WSSE profile="UsernameToken"',
      },
      redirect: 'follow',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
  } catch (error) {
    throw new BlogdeskError(
      'offline',
      `Could not reach ${host}. Check the address and your network connection, and that the server is running; then try again.`,
      { cause: error },
    )
  }
  const body = await readLimitedText(response, host)
  const result = { status: response.status, contentType: response.headers.get('content-type') ?? '', body }
  if (response.ok) return result
  throw describeFailure(response, result, host)
}

async function readLimitedText(response: Response, host: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0)
  const tooLarge = () =>
    new BlogdeskError('rejected', `${host} sent a response larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB; Blogdesk stopped reading it.`)
  if (declared > MAX_RESPONSE_BYTES) {
    await response.body?.cancel()
    throw tooLarge()
  }
  if (!response.body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of response.body) {
    size += chunk.byteLength
    if (size > MAX_RESPONSE_BYTES) throw tooLarge()
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function describeFailure(response: Response, result: AtomResponse, host: string): BlogdeskError {
  const serverSays = errorText(result)
  const quoted = serverSays ? ` (the server said: "${serverSays}")` : ''
  // Movable Type answers a bad digest or a stale Created with 403 plus a WSSE challenge; others use 401.
  const authFailure = result.status === 401 || (result.status === 403 && response.headers.has('www-authenticate'))
  if (authFailure) {
    const skew = clockSkewMs(response.headers.get('date'))
    if (skew !== null && Math.abs(skew) > CLOCK_SKEW_TOLERANCE_MS) {
      const minutes = Math.round(Math.abs(skew) / 60_000)
      return new BlogdeskError(
        'clock-skew',
        `Your computer's clock is about ${minutes} minutes ${skew > 0 ? 'behind' : 'ahead of'} ${host}'s, so the server refuses the sign-in${quoted}. Set your clock to the correct time automatically, then try again.`,
      )
    }
    const advice = 'Check both; the API password is the one for publishing tools, not the one you log in with.'
    // Quote the server when it explains itself; add our advice only where its words leave it out.
    return new BlogdeskError(
      'auth',
      serverSays
        ? `${host} refused the sign-in: "${serverSays}"${/API password/i.test(serverSays) ? '' : ` ${advice}`}`
        : `${host} refused the username or API password. ${advice}`,
    )
  }
  if (result.status === 403) return new BlogdeskError('rejected', `${host} does not allow this account to do that${quoted}.`)
  if (result.status === 404) return new BlogdeskError('not-found', `${host} has nothing at ${new URL(response.url || 'http://x/').pathname}${quoted}.`)
  if (result.status === 503 || result.status >= 500) {
    return new BlogdeskError('offline', `${host} had a problem answering (HTTP ${result.status})${quoted}. Try again in a few minutes.`)
  }
  return new BlogdeskError('rejected', `${host} refused the request (HTTP ${result.status})${quoted}.`)
}

/** The text of an `<error>` body, or of a short plain-text body: what the server told the person. */
function errorText(result: AtomResponse): string {
  let text = ''
  try {
    const root = parseXml(result.body, { maxDepth: 8 })
    if (root.name === 'error') text = root.text
  } catch {
    if (/^text\/plain/i.test(result.contentType)) text = result.body
  }
  text = text.trim()
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/** Server time minus our time, from the response's Date header; null when the server sent none. */
function clockSkewMs(dateHeader: string | null): number | null {
  if (!dateHeader) return null
  const serverTime = Date.parse(dateHeader)
  return Number.isNaN(serverTime) ? null : serverTime - Date.now()
}
