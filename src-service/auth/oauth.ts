// OAuth 1.0a (RFC 5849) request checks against the store: consumer key and secret, token and secret, signature,
// timestamp window and nonce. routes/oauth.ts runs the provider's endpoints on verifySignedRequest(); the JSON routes
// call oauthVerifier(), so a request that carries a signature is checked and one without is left alone.
//
// PLAINTEXT sends the secrets themselves and the service speaks plain HTTP, so it is accepted only while the service
// is reachable at a loopback address, where nobody else sees the traffic; beyond that, clients must use HMAC-SHA1.
import { createHmac } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import {
  baseStringUri,
  OAUTH_SIGNATURE_METHODS,
  oauthSignature,
  OAuthProblem,
  parseAuthorizationHeader,
  parseFormEncoded,
  sameInConstantTime,
  signatureBaseString,
  type OAuthParameter,
  type OAuthSignatureMethod,
} from '../../src-protocol'
import { clientAddressOf, type ClientAddress } from '../operations/client-address'
import { readBody } from '../routes/body'
import { controlCharactersIn } from '../routes/control-characters'
import { HttpError } from '../routes/reply'
import type { RequestToken, Store } from '../store'
import { OAUTH_PATHS } from './oauth-urls'

export { OAuthProblem } from '../../src-protocol'

/** How far oauth_timestamp may be from the service's clock, either way; also how long a nonce is remembered. */
export const TIMESTAMP_WINDOW_SECONDS = 5 * 60
/** OAuth parameters in a form body are short; anything bigger is not an OAuth form. */
export const MAX_FORM_BYTES = 64 * 1024
const MAX_NONCE_LENGTH = 255
/**
 * Nonces each holder (a token, or a client's address when it signs with the consumer key alone) may keep within the
 * timestamp window: about 33 requests a second for five minutes. Past that it is refused until its oldest leaves the
 * window, never by forgetting one, so someone holding an application's consumer secret (shipped inside every copy of a
 * desktop app) cannot fill the table; and one holder's flood does not refuse anyone else.
 */
export const MAX_NONCES_PER_HOLDER = 10_000
const REQUIRED_PARAMETERS = ['oauth_consumer_key', 'oauth_signature_method', 'oauth_signature', 'oauth_timestamp', 'oauth_nonce']
/** The hosts a callback may name (RFC 8252's loopback redirect), and where PLAINTEXT is safe. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded'

export type OAuthOutcome =
  | { signed: false }
  | { signed: true; ok: true; userId: number | null; apiKey: string }
  | { signed: true; ok: false; status: 400 | 401; message: string }

/** What a request is sent with: the consumer key alone, a request token, an access token, or either of the last. */
export type TokenRequirement = 'consumer only' | 'request token' | 'access token' | 'access token or none'

/** Where signed requests come from and how many nonces each holder keeps; the socket's peer and the bound by default. */
export interface OAuthOptions {
  clientAddress?: ClientAddress
  noncesPerHolder?: number | undefined
}

/** A request as the signature sees it. */
export interface SignedRequest {
  method: string
  /** Path and query as sent. */
  target: string
  authorization: string | undefined
  /** The body when it is application/x-www-form-urlencoded; empty otherwise. */
  formBody: string
  /** The address it came from: the holder of its nonce when it carries no token. */
  clientAddress: string
}

export type VerifiedCredentials =
  | { kind: 'consumer' }
  | { kind: 'request token'; requestToken: RequestToken }
  | { kind: 'access token'; userId: number; authToken: string }

export interface VerifiedRequest {
  apiKey: string
  /** Every oauth_* parameter, each sent once. */
  protocol: Map<string, string>
  credentials: VerifiedCredentials
}

/**
 * For the JSON routes: checks a request that carries OAuth parameters (an `Authorization: OAuth` header, or oauth_*
 * parameters in the query or a form body); `{ signed: false }` for one that carries none. The form body of a signed
 * request is read here, as the signature covers it.
 */
export function oauthVerifier(
  store: Store,
  { clientAddress = clientAddressOf(), noncesPerHolder }: OAuthOptions = {},
): (request: IncomingMessage, origin: string) => Promise<OAuthOutcome> {
  return async (request, origin) => {
    try {
      const signed = await readSignedRequest(request, clientAddress)
      if (!carriesOAuth(signed)) return { signed: false }
      const { apiKey, credentials } = await verifySignedRequest(store, signed, origin, 'access token or none', noncesPerHolder)
      return { signed: true, ok: true, apiKey, userId: credentials.kind === 'access token' ? credentials.userId : null }
    } catch (error) {
      if (error instanceof OAuthProblem) return { signed: true, ok: false, status: error.status, message: error.message }
      throw error
    }
  }
}

/** The `WWW-Authenticate` header to send with a 401 for an OAuth request. */
export function oauthChallenge(origin: string): Record<string, string> {
  return { 'WWW-Authenticate': `OAuth realm="${origin}"` }
}

/** Reads the parts of `request` its signature covers, its form body included. */
export async function readSignedRequest(request: IncomingMessage, clientAddress: ClientAddress): Promise<SignedRequest> {
  return {
    method: request.method ?? 'GET',
    target: request.url ?? '/',
    authorization: request.headers.authorization,
    formBody: isForm(request) ? await readForm(request) : '',
    clientAddress: clientAddress(request),
  }
}

/** Whether a request carries OAuth parameters at all, in its Authorization header, query or form body. */
export function carriesOAuth({ target, authorization, formBody }: SignedRequest): boolean {
  // Names are matched as sent: a client that percent-encodes the "oauth_" of a name is not one seen in the wild.
  const namesOAuthParameter = (encoded: string) => /(?:^|&)oauth_/.test(encoded)
  return parseAuthorizationHeader(authorization) !== null || [queryOf(target), formBody].some(namesOAuthParameter)
}

/**
 * Checks, in order: parameters readable, present and sent once (400), signature method (400), consumer key (401),
 * token as `requirement` says (401), signature (401), timestamp within the window (401), nonce unused (401), room
 * for the nonce among its holder's (429). Throws OAuthProblem, or HttpError for the 429; records the nonce only for a
 * request whose signature is right.
 */
export async function verifySignedRequest(
  store: Store,
  request: SignedRequest,
  origin: string,
  requirement: TokenRequirement,
  noncesPerHolder = MAX_NONCES_PER_HOLDER,
): Promise<VerifiedRequest> {
  const parameters = allParameters(request)
  const protocol = protocolParameters(parameters)
  const missing = REQUIRED_PARAMETERS.filter((name) => !protocol.get(name))
  if (missing.length > 0) {
    throw new OAuthProblem(
      400,
      `The request is not signed completely: ${listOf(missing)} ${missing.length === 1 ? 'is' : 'are'} missing. ` +
        'Send every OAuth parameter, in the Authorization header or with the request’s parameters.',
    )
  }
  const version = protocol.get('oauth_version')
  if (version !== undefined && version !== '1.0') {
    throw new OAuthProblem(400, `oauth_version is "${version}"; this service speaks OAuth 1.0a, so send 1.0 or leave it out.`)
  }
  const method = signatureMethod(protocol.get('oauth_signature_method')!, origin)

  const apiKey = protocol.get('oauth_consumer_key')!
  const consumerSecret = await store.oauth.consumerSecret(apiKey)
  if (consumerSecret === null) {
    throw new OAuthProblem(
      401,
      (await store.directory.applicationOfApiKey(apiKey))
        ? `The API key "${apiKey}" has no consumer secret, so its signatures cannot be checked. Ask for a consumer secret for it.`
        : `The consumer key "${apiKey}" (oauth_consumer_key) is not an API key of this service. Use the API key ` +
          'issued to your application.',
    )
  }
  const { credentials, tokenSecret } = await tokenOf(store, apiKey, protocol.get('oauth_token') ?? '', requirement, origin)

  const baseString = signatureBaseString(request.method, baseStringUri(origin, pathOf(request.target)), parameters)
  if (!sameInConstantTime(oauthSignature(method, baseString, consumerSecret, tokenSecret), protocol.get('oauth_signature')!)) {
    throw new OAuthProblem(
      401,
      method === 'PLAINTEXT'
        ? 'The PLAINTEXT signature (oauth_signature) is wrong: it must be the consumer secret and the token secret, ' +
          'each percent-encoded, joined by "&". Check both secrets.'
        : 'The signature (oauth_signature) does not match. Check the consumer secret and the token secret, and sign ' +
          `the method, the URL and every parameter exactly as sent. The service signed this base string: ${baseString}`,
    )
  }

  const timestamp = timestampOf(protocol.get('oauth_timestamp')!)
  const now = Math.floor(Date.now() / 1000)
  const skew = timestamp - now
  if (Math.abs(skew) > TIMESTAMP_WINDOW_SECONDS) throw new OAuthProblem(401, clockSkewMessage(skew))
  const nonce = protocol.get('oauth_nonce')!
  if (nonce.length > MAX_NONCE_LENGTH) {
    throw new OAuthProblem(400, `oauth_nonce is ${nonce.length} characters long; send at most ${MAX_NONCE_LENGTH}.`)
  }
  const token = protocol.get('oauth_token')
  const holder = token ? `token ${token}` : `address ${request.clientAddress}`
  const window = { timestamp, now, windowSeconds: TIMESTAMP_WINDOW_SECONDS, capacity: noncesPerHolder }
  const recording = await store.oauth.useNonce(apiKey, holder, nonce, window)
  if (recording.kind === 'replayed') {
    throw new OAuthProblem(
      401,
      'This request’s nonce (oauth_nonce) was already used, so it was refused as a replayed request. Sign every ' +
        'request anew, with a fresh nonce.',
    )
  }
  if (recording.kind === 'full') {
    const wait = Math.max(1, recording.freeAt - now)
    throw new HttpError(
      429,
      `Too many signed requests: each ${token ? 'token' : 'client without a token'} may send ${noncesPerHolder} within ` +
        `${TIMESTAMP_WINDOW_SECONDS / 60} minutes. Try again in ${wait} ${wait === 1 ? 'second' : 'seconds'}.`,
      { 'Retry-After': String(wait) },
    )
  }
  return { apiKey, protocol, credentials }
}

/**
 * A callback may be `oob` or an http URL on this computer (RFC 8252 §7.3), without control characters (it becomes the
 * approval's Location header); throws OAuthProblem(400) otherwise.
 */
export function checkCallback(callback: string | undefined): string {
  const advice = 'Send oob, or an http address on this computer (127.0.0.1, [::1] or localhost).'
  if (!callback) throw new OAuthProblem(400, `oauth_callback is missing. ${advice}`)
  if (callback === 'oob') return callback
  const controls = controlCharactersIn(callback)
  if (controls !== null) {
    throw new OAuthProblem(400, `oauth_callback contains a control character (${controls}). Percent-encode it. ${advice}`)
  }
  let url: URL
  try {
    url = new URL(callback)
  } catch {
    throw new OAuthProblem(400, `oauth_callback "${callback}" is not an address. ${advice}`)
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) {
    const refusal = `oauth_callback "${callback}" is not on this computer, so the service will not send a verifier there.`
    throw new OAuthProblem(400, `${refusal} ${advice}`)
  }
  if (url.username || url.password || url.hash) {
    throw new OAuthProblem(400, `oauth_callback "${callback}" carries a user name, password or #fragment. ${advice}`)
  }
  return callback
}

/** Whether the host of `url` is this computer's loopback interface. */
export function isLoopback(url: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(url).hostname)
}

/** The authorize form's token against cross-site posts: an HMAC of the request token under the data dir's key. */
export function formToken(store: Store, requestToken: string): string {
  return createHmac('sha256', store.secrets.derive('oauth authorize form')).update(requestToken).digest('base64url')
}

export function formTokenMatches(store: Store, requestToken: string, given: string): boolean {
  return sameInConstantTime(formToken(store, requestToken), given)
}

/** Verifier codes compare without regard to case, spaces or dashes, as a person may type them. */
export function verifierMatches(expected: string, given: string): boolean {
  return sameInConstantTime(expected, given.replace(/[\s-]/g, '').toUpperCase())
}

async function tokenOf(
  store: Store,
  apiKey: string,
  token: string,
  requirement: TokenRequirement,
  origin: string,
): Promise<{ credentials: VerifiedCredentials; tokenSecret: string }> {
  const requestTokenUrl = `${origin}${OAUTH_PATHS.requestToken}`
  if (requirement === 'access token or none' && token === '') return { credentials: { kind: 'consumer' }, tokenSecret: '' }
  switch (requirement) {
    case 'consumer only':
      if (token !== '') {
        throw new OAuthProblem(400, 'A request token is asked for with the consumer key and secret alone: leave oauth_token out.')
      }
      return { credentials: { kind: 'consumer' }, tokenSecret: '' }
    case 'request token': {
      const requestToken = token === '' ? null : await store.oauth.requestToken(token)
      if (!requestToken || requestToken.apiKey !== apiKey) {
        throw new OAuthProblem(
          401,
          token === ''
            ? `This step is signed with a request token (oauth_token). Get one from ${requestTokenUrl}.`
            : `The request token "${token}" is not known to this service, or was issued to another application. ` +
              `Start again with a new one from ${requestTokenUrl}.`,
        )
      }
      return { credentials: { kind: 'request token', requestToken }, tokenSecret: requestToken.secret }
    }
    case 'access token or none':
    case 'access token': {
      const grant = token === '' ? null : await store.oauth.accessTokenWithSecret(apiKey, token)
      if (grant) {
        return { credentials: { kind: 'access token', userId: grant.userId, authToken: token }, tokenSecret: grant.secret }
      }
      throw new OAuthProblem(401, await unknownAccessTokenMessage(store, apiKey, token, origin))
    }
  }
}

async function unknownAccessTokenMessage(store: Store, apiKey: string, token: string, origin: string): Promise<string> {
  if (token === '') {
    const authorize = `${origin}${OAUTH_PATHS.authorize}`
    return `This address answers requests signed with a user’s access token (oauth_token). Get one through ${authorize}.`
  }
  if ((await store.oauth.requestToken(token))?.apiKey === apiKey) {
    return `"${token}" is a request token. Exchange it for an access token at ${origin}${OAUTH_PATHS.accessToken} first.`
  }
  return (
    `The access token "${token}" is not known to this service: it was revoked, or belongs to another application. ` +
    'Sign in again to get a new one.'
  )
}

function signatureMethod(name: string, origin: string): OAuthSignatureMethod {
  const method = OAUTH_SIGNATURE_METHODS.find((known) => known === name)
  if (!method) {
    throw new OAuthProblem(400, `The signature method "${name}" is not supported. Sign with ${OAUTH_SIGNATURE_METHODS.join(' or ')}.`)
  }
  if (method === 'PLAINTEXT' && !isLoopback(origin)) {
    throw new OAuthProblem(
      400,
      `PLAINTEXT sends the secrets themselves, and this service is reached over plain HTTP at ${origin}, beyond this ` +
        'computer. Sign with HMAC-SHA1.',
    )
  }
  return method
}

function timestampOf(text: string): number {
  if (!/^\d{1,15}$/.test(text)) {
    throw new OAuthProblem(400, `oauth_timestamp is "${text}"; send the number of seconds since 1970-01-01T00:00:00Z.`)
  }
  return Number(text)
}

function clockSkewMessage(skewSeconds: number): string {
  const minutes = Math.round(Math.abs(skewSeconds) / 60)
  return (
    `The request’s timestamp (oauth_timestamp) is about ${minutes} minutes ${skewSeconds < 0 ? 'behind' : 'ahead of'} ` +
    `the service’s clock; it may be at most ${TIMESTAMP_WINDOW_SECONDS / 60} minutes off (clock skew). Check that ` +
    'your computer’s clock, date and time zone are set correctly, then try again.'
  )
}

/** Query, Authorization header (without realm) and form body: every parameter the signature covers (§3.4.1.3.1). */
function allParameters({ target, authorization, formBody }: SignedRequest): OAuthParameter[] {
  const header = (parseAuthorizationHeader(authorization) ?? []).filter(([name]) => name !== 'realm')
  return [...parseFormEncoded(queryOf(target), 'query string'), ...header, ...parseFormEncoded(formBody, 'form body')]
}

/** The oauth_* parameters; each may be sent once, wherever it is sent (§3.1). */
function protocolParameters(parameters: readonly OAuthParameter[]): Map<string, string> {
  const protocol = new Map<string, string>()
  for (const [name, value] of parameters) {
    if (!name.startsWith('oauth_')) continue
    if (protocol.has(name)) {
      throw new OAuthProblem(400, `${name} is sent more than once. Send each OAuth parameter once, in one place.`)
    }
    protocol.set(name, value)
  }
  return protocol
}

/** Whether the body is declared application/x-www-form-urlencoded (whatever its charset parameter says). */
export function isForm(request: IncomingMessage): boolean {
  return (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase() === FORM_MEDIA_TYPE
}

async function readForm(request: IncomingMessage): Promise<string> {
  try {
    return (await readBody(request, MAX_FORM_BYTES)).toString('utf8')
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw new OAuthProblem(400, `The form body is larger than ${MAX_FORM_BYTES / 1024} KiB. Send only the OAuth parameters in it.`)
  }
}

function queryOf(target: string): string {
  const start = target.indexOf('?')
  return start < 0 ? '' : target.slice(start + 1)
}

function pathOf(target: string): string {
  const end = target.indexOf('?')
  return end < 0 ? target : target.slice(0, end)
}

function listOf(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}
