// Stream paging tokens (moreResultsToken / start-token): where the last page ended — the (published, id) of its last
// event, not an offset, so events added meanwhile never shift a page — bound to the stream's user, and signed with
// a key derived from the data dir's secret, so a client can neither forge one nor carry one to another stream.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { SecretBox } from '../store/secret-box'
import type { StreamCursor } from '../store'

/** A token older than this is refused as stale: paging a stream is a matter of minutes, not days. */
export const TOKEN_LIFETIME_MS = 24 * 60 * 60_000

const VERSION = 1
const MAC_BYTES = 16

/** Why a start-token cannot be used, in words for the person who sent it. */
export class PagingTokenError extends Error {}

/** A position in one user's stream: after `cursor`, or from the newest event when it is null. */
export interface StreamPosition {
  userId: number
  cursor: StreamCursor | null
}

type Payload = [version: number, userId: number, issuedSeconds: number, published: string | null, id: number | null]

export class PagingTokens {
  readonly #key: string

  private constructor(key: string) {
    this.#key = key
  }

  /** Signed with a secret of this data dir, so tokens outlive a restart but are refused by any other data dir. */
  static of(secrets: SecretBox): PagingTokens {
    return new PagingTokens(secrets.derive('events stream paging tokens'))
  }

  issue({ userId, cursor }: StreamPosition, now = Date.now()): string {
    const payload: Payload = [VERSION, userId, Math.floor(now / 1000), cursor?.published ?? null, cursor?.id ?? null]
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
    return `${body}.${this.#mac(body).toString('base64url')}`
  }

  /** The position a token names in `userId`'s stream; throws PagingTokenError for anything else. */
  read(token: string, userId: number, now = Date.now()): StreamCursor | null {
    const [body = '', mac = '', ...rest] = token.split('.')
    const sent = Buffer.from(mac, 'base64url')
    if (rest.length > 0 || sent.length !== MAC_BYTES || !timingSafeEqual(sent, this.#mac(body))) {
      throw new PagingTokenError(
        'This start-token was not made by this service, or was changed. Use the moreResultsToken of a previous ' +
          'response as it was given, or leave start-token out to start from the newest events.',
      )
    }
    const [version, tokenUserId, issuedSeconds, published, id] = JSON.parse(
      Buffer.from(body, 'base64url').toString('utf8'),
    ) as Payload
    if (version !== VERSION) {
      throw new PagingTokenError(
        'This start-token was made by another version of the service. Start again from the newest events by ' +
          'leaving start-token out.',
      )
    }
    if (tokenUserId !== userId) {
      throw new PagingTokenError(
        "This start-token belongs to another user's events. A token only continues the stream it came from; " +
          'leave start-token out to start this one from the newest events.',
      )
    }
    if (now - issuedSeconds * 1000 > TOKEN_LIFETIME_MS) {
      throw new PagingTokenError(
        'This start-token is more than a day old. Start again from the newest events by leaving start-token out.',
      )
    }
    return published === null || id === null ? null : { published, id }
  }

  #mac(body: string): Buffer {
    return createHmac('sha256', this.#key).update(body).digest().subarray(0, MAC_BYTES)
  }
}
