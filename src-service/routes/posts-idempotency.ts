// The Idempotency-Key header on POST (docs/PROTOCOL.md; shaped after the IETF httpapi draft "The Idempotency-Key HTTP
// Header Field"). A client that lost the answer to a create sends the same request with the same key again and gets
// the first answer back, marked `Idempotent-Replayed: true`, instead of a second post. Reusing a key for a different
// request (another address, or another body) is the client's mistake and is refused with 422 Unprocessable Content,
// as the draft says; nothing is created. There is no "still in progress" state to answer 409 for: the look-up, the
// create and the record happen in one transaction, and transactions take turns, so two requests with one key cannot
// overlap.
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { IdempotencyRecords } from '../store'
import { HttpError, type Reply } from './reply'

export interface IdempotentRequest {
  key: string
  /** Method and path, e.g. `POST /t/atom/weblog/blog_id=1`. */
  request: string
  fingerprint: string
}

/** Keys are opaque to the service; a UUID is the usual choice. The draft sends them as quoted strings. */
const KEY = /^"?([\x21\x23-\x7e]{1,255})"?$/

/** The request's idempotency key and identity; null when it sends no key, 400 when the key is unusable. */
export function idempotentRequest(request: IncomingMessage, body: string): IdempotentRequest | null {
  const header = request.headers['idempotency-key']
  if (header === undefined) return null
  const key = typeof header === 'string' ? KEY.exec(header.trim())?.[1] : undefined
  if (key === undefined) {
    throw new HttpError(
      400,
      'The Idempotency-Key header must be one value of 1 to 255 visible ASCII characters (a UUID, for example). ' +
        'Send one key per request.',
    )
  }
  const path = (request.url ?? '/').split('?', 1)[0]
  return {
    key,
    request: `${request.method ?? 'POST'} ${path}`,
    fingerprint: createHash('sha256').update(body).digest('base64'),
  }
}

/** The first answer when this user already sent this request under this key; null when the key is new. */
export async function replay(records: IdempotencyRecords, userId: number, idempotent: IdempotentRequest): Promise<Reply | null> {
  const earlier = await records.find(userId, idempotent.key)
  if (!earlier) return null
  if (earlier.request !== idempotent.request || earlier.fingerprint !== idempotent.fingerprint) {
    const what = earlier.request === idempotent.request ? 'with a different body' : `for ${earlier.request}`
    throw new HttpError(
      422,
      `The Idempotency-Key "${idempotent.key}" was already used within the last 24 hours ${what}. ` +
        'A key stands for one request: use a new key for a new request, or resend the first request unchanged.',
    )
  }
  const { status, headers, body } = earlier.response
  return { status, headers: { ...headers, 'Idempotent-Replayed': 'true' }, body }
}

/** Keeps `reply` under the key; call it inside the transaction that made what the reply announces. */
export function remember(
  records: IdempotencyRecords,
  userId: number,
  idempotent: IdempotentRequest,
  reply: Reply & { body: string },
): Promise<void> {
  return records.save(userId, idempotent.key, {
    request: idempotent.request,
    fingerprint: idempotent.fingerprint,
    response: { status: reply.status, headers: reply.headers ?? {}, body: reply.body },
  })
}
