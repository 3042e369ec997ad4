// OAuth 1.0a signatures (RFC 5849 §3.4–3.6), for both ends: the service reads the parameters of a request wherever
// the client put them (Authorization header, query, form body) and checks the signature; the desktop app signs its
// requests with the same base string and the same two methods. Pure functions: which secrets belong to which keys
// is the caller's business.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export type OAuthParameter = readonly [name: string, value: string]

export const OAUTH_SIGNATURE_METHODS = ['HMAC-SHA1', 'PLAINTEXT'] as const
export type OAuthSignatureMethod = (typeof OAUTH_SIGNATURE_METHODS)[number]

/**
 * A request that cannot be accepted as signed, with the status RFC 5849 §3.2 gives it: 400 for a malformed one,
 * 401 for wrong or unknown credentials. The message says what to send instead.
 */
export class OAuthProblem extends Error {
  readonly status: 400 | 401

  constructor(status: 400 | 401, message: string) {
    super(message)
    this.name = 'OAuthProblem'
    this.status = status
  }
}

/** RFC 3986 percent-encoding (§3.6): everything but unreserved characters, in upper-case hex. */
export function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** `a=1&b=x+y` as application/x-www-form-urlencoded: `+` is a space (§3.4.1.3.1). `where` names it in errors. */
export function parseFormEncoded(text: string, where: string): OAuthParameter[] {
  return text
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const separator = pair.indexOf('=')
      const [name, value] = separator < 0 ? [pair, ''] : [pair.slice(0, separator), pair.slice(separator + 1)]
      return [decode(name.replace(/\+/g, ' '), where), decode(value.replace(/\+/g, ' '), where)] as const
    })
}

const AUTHORIZATION_SCHEME = /^OAuth(?:\s+|$)/i
// name="value" (quoted as §3.5.1 says, or bare, as some clients send), then a comma or the end.
const AUTHORIZATION_PARAMETER = /\s*([^\s=,"]+)\s*=\s*(?:"([^"]*)"|([^\s,"]*))\s*(?:,|$)/y

/** The parameters of an `Authorization: OAuth …` header, realm included; null for another scheme or no header. */
export function parseAuthorizationHeader(sent: string | undefined): OAuthParameter[] | null {
  const header = sent?.trim() ?? ''
  const scheme = AUTHORIZATION_SCHEME.exec(header)
  if (!scheme) return null
  const parameters: OAuthParameter[] = []
  AUTHORIZATION_PARAMETER.lastIndex = scheme[0].length
  while (AUTHORIZATION_PARAMETER.lastIndex < header.length) {
    const match = AUTHORIZATION_PARAMETER.exec(header)
    if (!match) {
      throw new OAuthProblem(
        400,
        'The Authorization header could not be read. Send it as OAuth oauth_consumer_key="…", oauth_nonce="…", … ' +
          'with each value percent-encoded and in double quotes, separated by commas.',
      )
    }
    const where = 'Authorization header'
    parameters.push([decode(match[1]!, where), decode(match[2] ?? match[3] ?? '', where)])
  }
  return parameters
}

/** `OAuth name="value", …` (§3.5.1): every name and value percent-encoded, each value in double quotes. */
export function formatAuthorizationHeader(parameters: readonly OAuthParameter[]): string {
  return `OAuth ${parameters.map(([name, value]) => `${percentEncode(name)}="${percentEncode(value)}"`).join(', ')}`
}

/**
 * The base string URI (§3.4.1.2): the origin, lower-case and without a default port, then the path as sent. The
 * service passes its own origin, never the Host header's, as for every address it writes.
 */
export function baseStringUri(origin: string, path: string): string {
  return `${new URL(origin).origin}${path}`
}

/** METHOD&uri&parameters (§3.4.1), every parameter but oauth_signature, sorted by name then value. */
export function signatureBaseString(method: string, uri: string, parameters: readonly OAuthParameter[]): string {
  const normalized = parameters
    .filter(([name]) => name !== 'oauth_signature')
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([nameA, valueA], [nameB, valueB]) => compare(nameA, nameB) || compare(valueA, valueB))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
  return [method.toUpperCase(), percentEncode(uri), percentEncode(normalized)].join('&')
}

/** HMAC-SHA1 (§3.4.2) over the base string, or PLAINTEXT (§3.4.4): the key itself, `consumer&token` secrets. */
export function oauthSignature(
  method: OAuthSignatureMethod,
  baseString: string,
  consumerSecret: string,
  tokenSecret: string,
): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`
  return method === 'PLAINTEXT' ? key : createHmac('sha1', key).update(baseString).digest('base64')
}

/** Compares in time that does not depend on where the strings differ, whatever their lengths. */
export function sameInConstantTime(expected: string, given: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()
  return timingSafeEqual(digest(expected), digest(given))
}

/** The client's side of a signed request: its consumer key and secret, and a request or access token when it has one. */
export interface OAuthClientCredentials {
  consumerKey: string
  consumerSecret: string
  token: { key: string; secret: string } | null
}

export interface RequestToSign {
  method: string
  /** The full URL the request goes to, query included. */
  url: string
  /** The parameters of an application/x-www-form-urlencoded body, which the signature covers (§3.4.1.3.1). */
  form?: readonly OAuthParameter[]
}

export interface SigningOptions {
  signatureMethod?: OAuthSignatureMethod
  /** More oauth_* parameters to sign and send: oauth_callback, oauth_verifier. */
  protocolParameters?: Readonly<Record<string, string>>
  /** When the request is signed; now when absent. For reproducing a known signature, and for tests. */
  now?: Date
  nonce?: string
}

const NONCE_BYTES = 18

/**
 * The `Authorization` header for one request. Make it when the request is sent, never earlier: the provider
 * refuses a timestamp outside its window and a nonce it has seen. oauth_version is optional (§3.1) and left out.
 */
export function createOAuthHeader(request: RequestToSign, credentials: OAuthClientCredentials, options: SigningOptions = {}): string {
  const method = options.signatureMethod ?? 'HMAC-SHA1'
  const protocol: OAuthParameter[] = [
    ['oauth_consumer_key', credentials.consumerKey],
    ...(credentials.token ? [['oauth_token', credentials.token.key] as const] : []),
    ['oauth_signature_method', method],
    ['oauth_timestamp', String(Math.floor((options.now ?? new Date()).getTime() / 1000))],
    ['oauth_nonce', options.nonce ?? randomBytes(NONCE_BYTES).toString('base64url')],
    ...Object.entries(options.protocolParameters ?? {}),
  ]
  const url = new URL(request.url)
  const baseString = signatureBaseString(request.method, baseStringUri(url.origin, url.pathname), [
    ...parseFormEncoded(url.search.slice(1), 'query string'),
    ...protocol,
    ...(request.form ?? []),
  ])
  const signature = oauthSignature(method, baseString, credentials.consumerSecret, credentials.token?.secret ?? '')
  return formatAuthorizationHeader([...protocol, ['oauth_signature', signature]])
}

function decode(text: string, where: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new OAuthProblem(400, `The ${where} holds "${text}", which is not correctly percent-encoded (RFC 3986).`)
  }
}

// Byte order of the encoded (ASCII) strings, as §3.4.1.3.2 asks; localeCompare would not give it.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
