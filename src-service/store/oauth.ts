// OAuth 1.0a credentials (RFC 5849): each API key's consumer secret, the short-lived request tokens of the
// authorization dance, the access tokens it ends in (an access token is the AuthToken resource's `authToken`), and the
// nonces already used. Signatures are computed over the secrets themselves, so those are sealed, not hashed.
import { randomBytes } from 'node:crypto'
import { formatW3cDate, type NonceRecording } from '../../src-protocol'
import type { Engine, Row } from './engine'
import { NonceBound } from './nonce-bound'
import type { SecretBox } from './secret-box'

/** pending → approved → exchanged (for an access token), or pending → denied. */
export type RequestTokenState = 'pending' | 'approved' | 'denied' | 'exchanged'

export interface RequestToken {
  token: string
  secret: string
  apiKey: string
  applicationName: string
  /** `oob`, or the loopback URL the user's browser is sent back to. */
  callback: string
  state: RequestTokenState
  /** Who approved it, and the code that proves it to the access-token step; null until approved. */
  userId: number | null
  verifier: string | null
  /** Sign-ins tried on the authorize page, right or wrong; wrong verifiers sent to the access-token step. */
  signInAttempts: number
  failedVerifiers: number
  /** W3CDTF. */
  expires: string
}

export interface TokenCredentials {
  token: string
  secret: string
}

export interface AccessTokenGrant {
  userId: number
  authToken: string
}

export interface SignInRecord {
  userId: number
  passwordHash: string
}

/** Expired request tokens are kept this long after expiry, so a late visitor is told "expired", not "unknown". */
const EXPIRED_TOKEN_MEMORY_MS = 24 * 60 * 60_000
/** Spent nonces are swept out at most this often; until then the timestamp check refuses their requests anyway. */
const NONCE_SWEEP_INTERVAL_SECONDS = 60
// Verifier codes may be typed in by hand (`oob`), so no letters that look alike (0/O, 1/I/L, U/V).
const VERIFIER_ALPHABET = 'ABCDEFGHJKMNPQRSTWXYZ23456789'
const VERIFIER_LENGTH = 8

export class OAuthCredentials {
  readonly #db: Engine
  readonly #secrets: SecretBox
  #nextNonceSweep = 0 // seconds, as oauth_timestamp
  readonly #nonceBound = new NonceBound()

  constructor(db: Engine, secrets: SecretBox) {
    this.#db = db
    this.#secrets = secrets
  }

  /** Gives `apiKey` a new consumer secret (replacing any earlier one) and returns it. */
  async issueConsumerSecret(apiKey: string): Promise<string> {
    const secret = newSecret()
    await this.#db.run(
      `INSERT INTO oauth_consumers (api_key, secret_sealed) VALUES (:apiKey, :sealed)
       ON CONFLICT (api_key) DO UPDATE SET secret_sealed = excluded.secret_sealed`,
      { ':apiKey': apiKey, ':sealed': this.#secrets.seal(secret) },
    )
    return secret
  }

  /** The consumer secret of an API key; null when there is no such key, or it has no secret. */
  async consumerSecret(apiKey: string): Promise<string | null> {
    const row = await this.#db.get('SELECT secret_sealed FROM oauth_consumers WHERE api_key = :apiKey', { ':apiKey': apiKey })
    return row && this.#secrets.open(row['secret_sealed'] as Uint8Array)
  }

  /** A new request token for `apiKey`, valid for `lifetimeMs` from `now`; long-expired ones are forgotten. */
  async createRequestToken(apiKey: string, callback: string, now: Date, lifetimeMs: number): Promise<TokenCredentials> {
    const credentials = { token: newToken(), secret: newSecret() }
    await this.#db.run('DELETE FROM oauth_request_tokens WHERE expires < :forgetBefore', {
      ':forgetBefore': formatW3cDate(new Date(now.getTime() - EXPIRED_TOKEN_MEMORY_MS)),
    })
    await this.#db.run(
      `INSERT INTO oauth_request_tokens (token, secret_sealed, api_key, callback, created, expires)
       VALUES (:token, :sealed, :apiKey, :callback, :created, :expires)`,
      {
        ':token': credentials.token,
        ':sealed': this.#secrets.seal(credentials.secret),
        ':apiKey': apiKey,
        ':callback': callback,
        ':created': formatW3cDate(now),
        ':expires': formatW3cDate(new Date(now.getTime() + lifetimeMs)),
      },
    )
    return credentials
  }

  async requestToken(token: string): Promise<RequestToken | null> {
    const row = await this.#db.get(
      `SELECT oauth_request_tokens.*, applications.name AS application_name FROM oauth_request_tokens
       JOIN api_keys ON api_keys.api_key = oauth_request_tokens.api_key
       JOIN applications ON applications.id = api_keys.application_id
       WHERE oauth_request_tokens.token = :token`,
      { ':token': token },
    )
    return row && this.#toRequestToken(row)
  }

  /**
   * Counts a sign-in on the authorize page before its password is checked, so that attempts made at the same time
   * cannot slip past the limit together; returns how many there have been.
   */
  countSignInAttempt(token: string): Promise<number> {
    return this.#increment(token, 'sign_in_attempts')
  }

  /** Counts a wrong verifier sent to the access-token step; returns how many there have been. */
  recordFailedVerifier(token: string): Promise<number> {
    return this.#increment(token, 'failed_verifiers')
  }

  /** Marks a pending request token approved by `userId` and returns its new verifier; null if it was not pending. */
  async approve(token: string, userId: number): Promise<string | null> {
    const verifier = newVerifier()
    const row = await this.#db.get(
      `UPDATE oauth_request_tokens SET state = 'approved', user_id = :userId, verifier = :verifier
       WHERE token = :token AND state = 'pending' RETURNING token`,
      { ':token': token, ':userId': userId, ':verifier': verifier },
    )
    return row && verifier
  }

  /** Marks a pending request token denied; false if it was not pending. */
  async deny(token: string): Promise<boolean> {
    return (
      (await this.#db.get(`UPDATE oauth_request_tokens SET state = 'denied' WHERE token = :token AND state = 'pending' RETURNING token`, {
        ':token': token,
      })) !== null
    )
  }

  /**
   * Spends an approved request token on a new access token for the user who approved it, in one step, so a request
   * token is never exchanged twice. Null if it was not (or no longer) approved.
   */
  exchange(token: string): Promise<TokenCredentials | null> {
    return this.#db.transaction(async () => {
      const row = await this.#db.get(
        `UPDATE oauth_request_tokens SET state = 'exchanged' WHERE token = :token AND state = 'approved'
         RETURNING api_key, user_id`,
        { ':token': token },
      )
      return row && this.#insertAccessToken(String(row['api_key']), Number(row['user_id']))
    })
  }

  /** An access token for `userId` through `apiKey`, without the dance (the demo's pre-approved token). */
  issueAccessToken(apiKey: string, userId: number): Promise<TokenCredentials> {
    return this.#insertAccessToken(apiKey, userId)
  }

  /** The user an access token acts for, if it is `apiKey`'s and not revoked. */
  async accessToken(apiKey: string, token: string): Promise<AccessTokenGrant | null> {
    const grant = await this.accessTokenWithSecret(apiKey, token)
    return grant && { userId: grant.userId, authToken: grant.authToken }
  }

  /** accessToken() with the token secret, for checking a signature. */
  async accessTokenWithSecret(apiKey: string, token: string): Promise<(AccessTokenGrant & { secret: string }) | null> {
    const row = await this.#db.get(
      `SELECT user_id, secret_sealed FROM oauth_access_tokens
       WHERE token = :token AND api_key = :apiKey AND revoked IS NULL`,
      { ':token': token, ':apiKey': apiKey },
    )
    return (
      row && {
        userId: Number(row['user_id']),
        authToken: token,
        secret: this.#secrets.open(row['secret_sealed'] as Uint8Array),
      }
    )
  }

  /** The live access tokens `userId` has given `apiKey`, oldest first (those made in the same second, in token order). */
  async accessTokensOf(apiKey: string, userId: number): Promise<TokenCredentials[]> {
    const rows = await this.#db.all(
      `SELECT token, secret_sealed FROM oauth_access_tokens
       WHERE api_key = :apiKey AND user_id = :userId AND revoked IS NULL ORDER BY created, token`,
      { ':apiKey': apiKey, ':userId': userId },
    )
    return rows.map((row) => ({ token: String(row['token']), secret: this.#secrets.open(row['secret_sealed'] as Uint8Array) }))
  }

  /**
   * Records a nonce `apiKey` sent with `timestamp` for `holder` (the token it was signed with, or the client's
   * address), unless it was used before or `holder` already keeps `capacity` nonces dated within `windowSeconds`
   * before `now` (seconds, as timestamps are); `freeAt` then says when the oldest of them leaves the window. Older
   * nonces are swept out now and then: the timestamp check refuses those requests by itself. nonce-bound.ts says how
   * the bound is checked without counting at every request. Requests of one holder sent at the same moment may each
   * see room for one more, so the bound is on memory, not on replays, which the primary key alone refuses.
   */
  async useNonce(
    apiKey: string,
    holder: string,
    nonce: string,
    { timestamp, now, windowSeconds, capacity }: { timestamp: number; now: number; windowSeconds: number; capacity: number },
  ): Promise<NonceRecording> {
    const forgetBefore = now - windowSeconds
    if (now >= this.#nextNonceSweep) {
      this.#nextNonceSweep = now + NONCE_SWEEP_INTERVAL_SECONDS
      await this.#db.run('DELETE FROM oauth_nonces WHERE timestamp < :forgetBefore', { ':forgetBefore': forgetBefore })
    }
    const key = { ':apiKey': apiKey, ':nonce': nonce }
    return this.#nonceBound.record(`${apiKey} ${holder}`, now, capacity, {
      count: async () => {
        const row = await this.#db.get(
          `SELECT count(*) AS held, min(timestamp) AS earliest FROM (
             SELECT timestamp FROM oauth_nonces
             WHERE api_key = :apiKey AND holder = :holder AND timestamp >= :forgetBefore LIMIT :capacity
           ) AS held_nonces`,
          { ':apiKey': apiKey, ':holder': holder, ':forgetBefore': forgetBefore, ':capacity': capacity },
        )
        return { held: Number(row?.['held']), freeAt: Number(row?.['earliest'] ?? now) + windowSeconds + 1 }
      },
      insert: async () =>
        (await this.#db.get(
          `INSERT INTO oauth_nonces (api_key, holder, nonce, timestamp) VALUES (:apiKey, :holder, :nonce, :timestamp)
           ON CONFLICT (api_key, nonce) DO NOTHING RETURNING nonce`,
          { ...key, ':holder': holder, ':timestamp': timestamp },
        )) !== null,
      seen: async () => (await this.#db.get('SELECT 1 AS seen FROM oauth_nonces WHERE api_key = :apiKey AND nonce = :nonce', key)) !== null,
    })
  }

  /**
   * What the authorize page checks a sign-in against. Unlike the WSSE lookup the username matches whatever its case,
   * as people type it on a web page; usernames are unique regardless of case.
   */
  async signInRecord(username: string): Promise<SignInRecord | null> {
    const row = await this.#db.get('SELECT id, login_password_hash FROM users WHERE username = :username', {
      ':username': username,
    })
    return row && { userId: Number(row['id']), passwordHash: String(row['login_password_hash']) }
  }

  async #insertAccessToken(apiKey: string, userId: number): Promise<TokenCredentials> {
    const credentials = { token: newToken(), secret: newSecret() }
    await this.#db.run(
      `INSERT INTO oauth_access_tokens (token, api_key, user_id, secret_sealed)
       VALUES (:token, :apiKey, :userId, :sealed)`,
      { ':token': credentials.token, ':apiKey': apiKey, ':userId': userId, ':sealed': this.#secrets.seal(credentials.secret) },
    )
    return credentials
  }

  async #increment(token: string, column: 'sign_in_attempts' | 'failed_verifiers'): Promise<number> {
    const row = await this.#db.get(`UPDATE oauth_request_tokens SET ${column} = ${column} + 1 WHERE token = :token RETURNING ${column}`, {
      ':token': token,
    })
    return Number(row?.[column] ?? 0)
  }

  #toRequestToken(row: Row): RequestToken {
    return {
      token: String(row['token']),
      secret: this.#secrets.open(row['secret_sealed'] as Uint8Array),
      apiKey: String(row['api_key']),
      applicationName: String(row['application_name']),
      callback: String(row['callback']),
      state: String(row['state']) as RequestTokenState,
      userId: row['user_id'] === null ? null : Number(row['user_id']),
      verifier: row['verifier'] === null ? null : String(row['verifier']),
      signInAttempts: Number(row['sign_in_attempts']),
      failedVerifiers: Number(row['failed_verifiers']),
      expires: String(row['expires']),
    }
  }
}

/** 96 random bits in 16 URL-safe characters, the length of TypePad's auth tokens. */
function newToken(): string {
  return randomBytes(12).toString('base64url')
}

function newSecret(): string {
  return randomBytes(24).toString('base64url')
}

function newVerifier(): string {
  // 256 is not a multiple of the alphabet's length, so bytes past the last whole multiple are drawn again.
  const limit = 256 - (256 % VERIFIER_ALPHABET.length)
  let verifier = ''
  while (verifier.length < VERIFIER_LENGTH) {
    for (const byte of randomBytes(VERIFIER_LENGTH)) {
      if (byte < limit && verifier.length < VERIFIER_LENGTH) verifier += VERIFIER_ALPHABET[byte % VERIFIER_ALPHABET.length]
    }
  }
  return verifier
}
