// The small Atom requests (feeds, entries, categories, deletes, list items) go through the injected fetch: in the app
// that is Electron's net.fetch, which uses the system's proxy settings and certificates. Each request is signed with
// WSSE at the moment of sending (a header made earlier would go stale), bounded in time and size, and each way of
// failing becomes a RequestFailure whose kind says what to do next.
import {
  ATOM_MEDIA_TYPE,
  createWsseHeader,
  decodeXml,
  WSSE_CHALLENGE,
  XmlError,
  type WsseCredentials,
} from '../../../src-protocol'
import { answerFailure, hostOf, RequestFailure, transportFailure } from './failure'

export type Fetch = typeof globalThis.fetch

export const ATOM_ACCEPT = 'application/x.atom+xml, application/atom+xml, application/xml, text/xml'
export const DEFAULT_TIMEOUT_MS = 30_000
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024

export interface AtomResponse {
  status: number
  /** Where the answer came from (after redirects of a GET): the base for its relative links. */
  url: string
  contentType: string
  /** The Location header made absolute, or null. */
  location: string | null
  headers: { get(name: string): string | null }
  body: string
}

export interface AtomRequest {
  url: string
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  credentials: WsseCredentials
  /** An Atom entry document. */
  body?: string
  idempotencyKey?: string
  timeoutMs?: number
}

/** The headers every Atom request carries; XML::Atom and Movable Type's clients send the same ones. */
export function atomHeaders(credentials: WsseCredentials, idempotencyKey?: string): Record<string, string> {
  return {
    Accept: ATOM_ACCEPT,
    'X-WSSE': wsseHeader(credentials),
    // Some servers look for X-WSSE only after seeing this challenge echoed.
    Authorization: WSSE_CHALLENGE,
    ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
  }
}

/** A username WSSE cannot carry is the account's problem: the person has to enter the one the server knows. */
function wsseHeader(credentials: WsseCredentials): string {
  try {
    return createWsseHeader(credentials)
  } catch (error) {
    throw new RequestFailure('auth', (error as Error).message, { cause: error })
  }
}

/** Sends one request; resolves with a 2xx answer, and throws a RequestFailure for anything else. */
export async function atomRequest(fetch: Fetch, request: AtomRequest): Promise<AtomResponse> {
  const method = request.method ?? 'GET'
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const headers = {
    ...atomHeaders(request.credentials, request.idempotencyKey),
    ...(request.body === undefined ? {} : { 'Content-Type': ATOM_MEDIA_TYPE }),
  }
  let response: Response
  let body: string
  try {
    response = await fetch(request.url, {
      method,
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      // A redirected POST would be turned into a GET, and a change sent twice: only reads follow redirects.
      redirect: method === 'GET' ? 'follow' : 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    body = await readLimitedText(response, request.url)
  } catch (error) {
    if (error instanceof RequestFailure) throw error
    throw transportFailure(error, request.url, null, timeoutMs)
  }
  const url = response.url || request.url
  const answer: AtomResponse = {
    status: response.status,
    url,
    contentType: response.headers.get('content-type') ?? '',
    location: absoluteLocation(response.headers.get('location'), url),
    headers: response.headers,
    body,
  }
  if (answer.status >= 200 && answer.status < 300) return answer
  throw answerFailure(answer)
}

/** The body as text, refused once it passes `maxBytes` (whatever Content-Length claims). */
export async function readLimitedText(response: Response, url: string, maxBytes = MAX_RESPONSE_BYTES): Promise<string> {
  const tooLarge = () =>
    new RequestFailure(
      'refused',
      `${hostOf(url)} sent an answer larger than ${maxBytes / 1024 / 1024} MB; Blogdesk stopped reading it.`,
      { status: response.status },
    )
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel()
    throw tooLarge()
  }
  if (!response.body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of response.body) {
    size += chunk.byteLength
    if (size > maxBytes) throw tooLarge()
    chunks.push(chunk)
  }
  return answerText(Buffer.concat(chunks), response.status, url)
}

/**
 * An answer's body as text, in the encoding its XML declaration names (UTF-8 without one). A successful answer
 * whose bytes are not valid in that encoding is refused rather than read with U+FFFD in place of its characters; a
 * failure's body is only words to show, and its status says what happened, so it is read as well as it can be.
 */
export function answerText(body: Uint8Array, status: number, url: string): string {
  try {
    return decodeXml(body)
  } catch (error) {
    if (!(error instanceof XmlError)) throw error
    if (status >= 200 && status < 300) {
      throw new RequestFailure('refused', `${hostOf(url)} sent an answer Blogdesk cannot read: ${error.message}`, { status })
    }
    return Buffer.from(body).toString('utf8')
  }
}

export function absoluteLocation(location: string | null, base: string): string | null {
  if (!location?.trim()) return null
  try {
    return new URL(location.trim(), base).href
  } catch {
    return null
  }
}
