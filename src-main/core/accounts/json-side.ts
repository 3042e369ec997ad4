// An account's optional side on the JSON interface: its address, the API key (the OAuth consumer key), and an
// access token the person approved. The store keeps the address, the key and whom the token acts for; the consumer
// secret, the access token and its secret live only in the vault. Credentials are kept only once the service has
// accepted them: a signed read of the API key (which checks the consumer secret) and of the identification URL
// (which checks the token).
import { CoreError } from '../errors'
import { RequestFailure, type Fetch } from '../atom'
import { exchangeForAccessToken, fetchRequestToken, JsonClient, type JsonApplication, type JsonUser } from '../json'
import type { LocalStore } from '../store'
import { openLoopbackCallback, type CallbackOutcome } from './loopback-callback'
import type { Vault } from './vault'

/** The API key and its consumer secret: what an application is given when it is registered. */
export interface JsonConsumer {
  /** Where the JSON interface hangs off, e.g. http://127.0.0.1:4321. */
  jsonBase: string
  apiKey: string
  apiSecret: string
}

/** A consumer and an access token already approved (the sandbox's sandbox.json has one). */
export interface JsonCredentials extends JsonConsumer {
  authToken: string
  authTokenSecret: string
}

/** What Blogdesk shows of an account's JSON side. */
export interface JsonSide {
  jsonBase: string
  apiKey: string
  /** The person the access token acts for. */
  userUrlId: string
  username: string
}

export interface OAuthSignIn {
  /** The provider's page where the person signs in and approves: the shell opens it in a window. */
  authorizeUrl: string
  /** Settles once the person has answered and Blogdesk has its access token, or with why not, in words. */
  completion: Promise<JsonSide>
  /** Stops waiting, when the person closes the sign-in window. */
  cancel(): void
}

export interface JsonSidesOptions {
  store: LocalStore
  vault: Vault
  fetch: Fetch
  /** How long a sign-in waits for the person to answer; the provider's request tokens last ten minutes. */
  signInTimeoutMs?: number
}

export const SIGN_IN_TIMEOUT_MS = 10 * 60_000

const secretKeys = (accountId: string) => ({
  apiSecret: `account:${accountId}:json-consumer-secret`,
  authToken: `account:${accountId}:oauth-access-token`,
  authTokenSecret: `account:${accountId}:oauth-access-token-secret`,
})

export class JsonSides {
  readonly #store: LocalStore
  readonly #vault: Vault
  readonly #fetch: Fetch
  readonly #signInTimeoutMs: number

  constructor(options: JsonSidesOptions) {
    this.#store = options.store
    this.#vault = options.vault
    this.#fetch = options.fetch
    this.#signInTimeoutMs = options.signInTimeoutMs ?? SIGN_IN_TIMEOUT_MS
  }

  /** The account's JSON side, or null when it has none. */
  describe(accountId: string): JsonSide | null {
    const row = this.#store.get(
      'SELECT json_base, api_key, json_user_url_id, json_username FROM accounts WHERE id = :accountId AND json_base IS NOT NULL',
      { accountId },
    )
    if (!row) return null
    return {
      jsonBase: String(row['json_base']),
      apiKey: String(row['api_key']),
      userUrlId: String(row['json_user_url_id']),
      username: String(row['json_username']),
    }
  }

  /** Checks an API key, its consumer secret and an approved access token with the service, then keeps them. */
  async attach(accountId: string, credentials: JsonCredentials): Promise<JsonSide> {
    const consumer = trimmed(credentials)
    const application = await this.#application(consumer)
    return this.#keep(accountId, application, {
      ...consumer,
      authToken: credentials.authToken.trim(),
      authTokenSecret: credentials.authTokenSecret,
    })
  }

  /**
   * Starts OAuth 1.0a: reads the API key's Application (its OAuth addresses), asks for a request token whose
   * callback is a one-shot server on this computer, and returns the authorize page's address. The rest happens on
   * its own once the person answers there: the verifier is exchanged for an access token, which is checked and kept.
   */
  async beginSignIn(accountId: string, given: JsonConsumer): Promise<OAuthSignIn> {
    const consumer = trimmed(given)
    const application = await this.#application(consumer)
    const callback = await openLoopbackCallback()
    const requestToken = await fetchRequestToken(
      application.oauthRequestTokenUrl,
      { key: consumer.apiKey, secret: consumer.apiSecret },
      callback.url,
      { fetch: this.#fetch },
    ).catch((error: unknown) => {
      callback.cancel()
      throw consumerRefused(error, consumer)
    })
    const answered = callback.answer(requestToken.token, this.#signInTimeoutMs)
    const completion = answered.then(async (outcome) => {
      const verifier = approvedVerifier(outcome, application, this.#signInTimeoutMs)
      const access = await exchangeForAccessToken(
        application.oauthAccessTokenUrl,
        { key: consumer.apiKey, secret: consumer.apiSecret },
        requestToken,
        verifier,
        { fetch: this.#fetch },
      )
      return this.#keep(accountId, application, { ...consumer, authToken: access.token, authTokenSecret: access.secret })
    })
    return { authorizeUrl: withQuery(application.oauthAuthorizationUrl, 'oauth_token', requestToken.token), completion, cancel: callback.cancel }
  }

  /** Deletes the account's JSON secrets from the vault (the store's columns go with the account's row). */
  async forget(accountId: string): Promise<void> {
    for (const key of Object.values(secretKeys(accountId))) await this.#vault.delete(key)
  }

  /** A client for the account's JSON side, signing with its access token; the secrets are read at each request. */
  client(accountId: string): JsonClient {
    const side = this.describe(accountId)
    if (!side) {
      throw new CoreError('auth', 'This account is not connected to a JSON service yet. Sign in with OAuth from the account’s settings first.')
    }
    return new JsonClient({
      fetch: this.#fetch,
      jsonBase: side.jsonBase,
      credentials: async () => {
        const keys = secretKeys(accountId)
        const [apiSecret, authToken, authTokenSecret] = await Promise.all([
          this.#vault.get(keys.apiSecret),
          this.#vault.get(keys.authToken),
          this.#vault.get(keys.authTokenSecret),
        ])
        if (apiSecret === null || authToken === null || authTokenSecret === null) {
          throw new CoreError('auth', `The OAuth sign-in for ${side.username} is missing from this computer’s keychain. Sign in with OAuth again.`)
        }
        return { consumerKey: side.apiKey, consumerSecret: apiSecret, token: { key: authToken, secret: authTokenSecret } }
      },
    })
  }

  /** The Application behind the API key, read with a request signed by the key and its secret, which checks both. */
  async #application(consumer: JsonConsumer): Promise<JsonApplication> {
    const client = new JsonClient({
      fetch: this.#fetch,
      jsonBase: consumer.jsonBase,
      credentials: async () => ({ consumerKey: consumer.apiKey, consumerSecret: consumer.apiSecret, token: null }),
    })
    try {
      return (await client.apiKey(consumer.apiKey)).owner
    } catch (error) {
      throw consumerRefused(error, consumer)
    }
  }

  /** Asks the service whom the access token acts for (which checks it), then keeps everything. */
  async #keep(accountId: string, application: JsonApplication, credentials: JsonCredentials): Promise<JsonSide> {
    const client = new JsonClient({
      fetch: this.#fetch,
      jsonBase: credentials.jsonBase,
      credentials: async () => ({
        consumerKey: credentials.apiKey,
        consumerSecret: credentials.apiSecret,
        token: { key: credentials.authToken, secret: credentials.authTokenSecret },
      }),
    })
    let user: JsonUser
    try {
      user = await client.identify(application.oauthIdentificationUrl)
    } catch (error) {
      throw tokenRefused(error, credentials)
    }
    const keys = secretKeys(accountId)
    await this.#vault.set(keys.apiSecret, credentials.apiSecret)
    await this.#vault.set(keys.authToken, credentials.authToken)
    await this.#vault.set(keys.authTokenSecret, credentials.authTokenSecret)
    const side: JsonSide = { jsonBase: client.jsonBase, apiKey: credentials.apiKey, userUrlId: user.urlId, username: user.preferredUsername }
    const { changes } = this.#store.run(
      `UPDATE accounts SET json_base = :jsonBase, api_key = :apiKey, json_user_url_id = :userUrlId, json_username = :username
       WHERE id = :accountId`,
      { ...side, accountId },
    )
    if (changes === 0) {
      // Removed while the service was being asked: its secrets must not outlive it.
      await this.forget(accountId)
      throw new CoreError('not-found', 'That account is no longer in Blogdesk; it may have been removed.')
    }
    return side
  }
}

function trimmed<T extends JsonConsumer>(consumer: T): T {
  const jsonBase = consumer.jsonBase.trim()
  if (!isWebAddress(jsonBase)) {
    throw new CoreError('invalid-argument', `"${jsonBase}" is not a web address. Give the JSON service's address, such as https://api.example.com.`)
  }
  if (consumer.apiKey.trim() === '') throw new CoreError('invalid-argument', 'Give the API key the application was registered with.')
  return { ...consumer, jsonBase, apiKey: consumer.apiKey.trim() }
}

function isWebAddress(text: string): boolean {
  try {
    const { protocol } = new URL(text)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

function approvedVerifier(outcome: CallbackOutcome, application: JsonApplication, timeoutMs: number): string {
  const service = new URL(application.oauthAuthorizationUrl).host
  switch (outcome.kind) {
    case 'approved':
      return outcome.verifier
    case 'denied':
      return fail(`You denied ${application.name} access to your account at ${service}, so nothing was changed. To connect, sign in again and choose Approve.`)
    case 'timed-out':
      return fail(
        `The sign-in at ${service} was not finished within ${describeDuration(timeoutMs)}, so Blogdesk stopped waiting. Start signing in again when you are ready.`,
      )
    case 'cancelled':
      return fail(`The sign-in at ${service} was cancelled before it was finished; nothing was changed.`)
  }
}

function describeDuration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000))
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`
  return `${Math.round(seconds / 60)} minutes`
}

function fail(message: string): never {
  throw new CoreError('auth', message)
}

/** A refusal of the API key or its secret, said as such; other failures (offline, clock skew) keep their words. */
function consumerRefused(error: unknown, consumer: JsonConsumer): unknown {
  if (!(error instanceof RequestFailure) || error.kind !== 'auth') return error
  return new RequestFailure(
    'auth',
    `${new URL(consumer.jsonBase).host} refused the API key "${consumer.apiKey}" with that consumer secret: the key is not ` +
      'one of its API keys, or the secret is wrong. Copy both again from where the application was registered.',
    { status: error.status, cause: error },
  )
}

function tokenRefused(error: unknown, credentials: JsonCredentials): unknown {
  if (!(error instanceof RequestFailure) || error.kind !== 'auth') return error
  return new RequestFailure(
    'auth',
    `${new URL(credentials.jsonBase).host} refused the access token: it was revoked, belongs to another API key, or its ` +
      'secret is wrong. Sign in with OAuth again to get a new one.',
    { status: error.status, cause: error },
  )
}

function withQuery(address: string, name: string, value: string): string {
  const url = new URL(address)
  url.searchParams.append(name, value)
  return url.href
}
