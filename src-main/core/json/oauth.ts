// The two token steps of OAuth 1.0a (RFC 5849 §2.1, §2.3) at the addresses the ApiKey's Application gives: a
// request token for a callback, and an access token for an approved request token and its verifier. Both are
// signed POSTs whose answers are application/x-www-form-urlencoded.
import { OAuthProblem, parseFormEncoded, type OAuthClientCredentials } from '../../../src-protocol'
import { RequestFailure, type Fetch } from '../atom'
import { hostOf } from '../atom'
import { signedRequest, type Answer } from './http'

export interface TokenAndSecret {
  token: string
  secret: string
}

export interface TokenStepOptions {
  fetch: Fetch
  timeoutMs?: number
  now?: () => number
}

/** POST to the Application's request-token URL, signed with the consumer key and secret alone. */
export async function fetchRequestToken(
  requestTokenUrl: string,
  consumer: { key: string; secret: string },
  callback: string,
  options: TokenStepOptions,
): Promise<TokenAndSecret> {
  const answer = await post(requestTokenUrl, { consumerKey: consumer.key, consumerSecret: consumer.secret, token: null }, { oauth_callback: callback }, options)
  const fields = tokenFields(answer)
  if (fields.get('oauth_callback_confirmed') !== 'true') {
    throw new RequestFailure(
      'refused',
      `${hostOf(answer.url)} did not confirm the callback address (oauth_callback_confirmed), so it does not speak OAuth 1.0a; Blogdesk cannot sign in there.`,
      { status: answer.status },
    )
  }
  return tokenOf(answer, fields)
}

/** POST to the Application's access-token URL, signed with the approved request token, carrying its verifier. */
export async function exchangeForAccessToken(
  accessTokenUrl: string,
  consumer: { key: string; secret: string },
  requestToken: TokenAndSecret,
  verifier: string,
  options: TokenStepOptions,
): Promise<TokenAndSecret> {
  const credentials = { consumerKey: consumer.key, consumerSecret: consumer.secret, token: { key: requestToken.token, secret: requestToken.secret } }
  const answer = await post(accessTokenUrl, credentials, { oauth_verifier: verifier }, options)
  return tokenOf(answer, tokenFields(answer))
}

function post(url: string, credentials: OAuthClientCredentials, protocolParameters: Record<string, string>, options: TokenStepOptions): Promise<Answer> {
  return signedRequest(options.fetch, {
    method: 'POST',
    url,
    credentials,
    protocolParameters,
    accept: 'application/x-www-form-urlencoded',
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
  })
}

function tokenFields(answer: Answer): Map<string, string> {
  try {
    return new Map(parseFormEncoded(answer.body.trim(), 'answer'))
  } catch (error) {
    if (!(error instanceof OAuthProblem)) throw error
    throw unreadable(answer)
  }
}

function tokenOf(answer: Answer, fields: Map<string, string>): TokenAndSecret {
  const token = fields.get('oauth_token')
  const secret = fields.get('oauth_token_secret')
  if (!token || secret === undefined) throw unreadable(answer)
  return { token, secret }
}

function unreadable(answer: Answer): RequestFailure {
  return new RequestFailure(
    'refused',
    `${hostOf(answer.url)} answered ${new URL(answer.url).pathname} without an oauth_token and oauth_token_secret, so Blogdesk cannot sign in there. Check the account’s JSON address.`,
    { status: answer.status },
  )
}
