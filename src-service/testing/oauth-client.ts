// Signed requests for tests, made by the standard oauth-1.0a client library (with Node's HMAC-SHA1), so the
// provider is checked against someone else's reading of RFC 5849, not against its own.
import { createHmac } from 'node:crypto'
import OAuth from 'oauth-1.0a'

export interface KeyAndSecret {
  key: string
  secret: string
}

export interface SigningOptions {
  method?: string
  /** Token and token secret: a request token or an access token. */
  token?: KeyAndSecret
  /** Sent as an application/x-www-form-urlencoded body, and signed. */
  form?: Record<string, string>
  /** oauth_* parameters to sign and put in the Authorization header besides the library's own (oauth_callback…). */
  header?: Record<string, string>
  signatureMethod?: 'HMAC-SHA1' | 'PLAINTEXT'
  /** Seconds; now when absent. */
  timestamp?: number
  /** A fresh random one when absent. */
  nonce?: string
}

export interface SignedRequest {
  url: string
  method: string
  headers: Record<string, string>
  body?: string
}

export function signRequest(consumer: KeyAndSecret, url: string, options: SigningOptions = {}): SignedRequest {
  const { method = 'GET', token, form, header = {}, signatureMethod = 'HMAC-SHA1', timestamp, nonce } = options
  const client = new OAuth({
    consumer,
    signature_method: signatureMethod,
    ...(signatureMethod === 'HMAC-SHA1' && {
      hash_function: (base: string, key: string) => createHmac('sha1', key).update(base).digest('base64'),
    }),
  })
  if (timestamp !== undefined) client.getTimeStamp = () => timestamp
  if (nonce !== undefined) client.getNonce = () => nonce
  // The library adds the query's parameters to the data it is given (so it gets a copy), and returns the data with
  // its own parameters: the form's are taken out again, as they travel in the body.
  const authorization = client.authorize({ url, method, data: { ...form, ...header } }, token)
  const inHeader = Object.entries(authorization).filter(([name]) => form === undefined || !(name in form))
  const headers: Record<string, string> = { ...client.toHeader(Object.fromEntries(inHeader) as typeof authorization) }
  if (form === undefined) return { url, method, headers }
  return {
    url,
    method,
    headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  }
}

export function send({ url, method, headers, body }: SignedRequest): Promise<Response> {
  return fetch(url, { method, headers, ...(body === undefined ? {} : { body }), redirect: 'manual' })
}

export function signedFetch(consumer: KeyAndSecret, url: string, options?: SigningOptions): Promise<Response> {
  return send(signRequest(consumer, url, options))
}

/** The fields of an application/x-www-form-urlencoded answer. */
export async function formFields(response: Response): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(await response.text()))
}
