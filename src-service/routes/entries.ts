// What posts and list items read from a client's entry, and send back, in the same way: the entry a request body
// holds, its <content> as text or markup, and text or markup as Atom content (docs/PROTOCOL.md).
import type { IncomingMessage } from 'node:http'
import { isWellFormedMarkup, readEntry, XmlError, type AtomContent, type AtomEntry } from '../../src-protocol'
import type { ContentKind } from '../store'
import { HttpError } from './reply'

/** The entry a request body holds; its relative links resolve against the request's address. */
export function entryFromBody(xml: string, request: IncomingMessage, origin: string): AtomEntry {
  try {
    return readEntry(xml, { baseUrl: `${origin}${request.url ?? '/'}` })
  } catch (error) {
    if (error instanceof XmlError) {
      throw new HttpError(400, `The request body is not a usable Atom entry: ${error.message}`)
    }
    throw error
  }
}

/**
 * Escaped and base64 content is HTML unless declared as plain text: Movable Type treats it so, and clients that
 * leave `type` out send HTML. A type that is not text at all is refused with the message `refusal` gives.
 */
export function contentKindOf(type: string | null, refusal: (mediaType: string) => string): ContentKind {
  const mediaType = type?.split(';', 1)[0]!.trim().toLowerCase() || 'text/html'
  if (['text/html', 'application/xhtml+xml', 'html', 'xhtml'].includes(mediaType)) return 'xhtml'
  if (mediaType.startsWith('text/') || mediaType === 'text') return 'text'
  throw new HttpError(400, refusal(mediaType))
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The text that <content mode="base64"> encodes; line breaks in the base64 are allowed. */
export function decodeBase64Text(value: string): string {
  const compact = value.replace(/\s+/g, '')
  if (!BASE64.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new HttpError(
      400,
      'The entry\'s <content mode="base64"> is not valid base64. Encode it again, or send it as mode="escaped".',
    )
  }
  try {
    return utf8.decode(Buffer.from(compact, 'base64'))
  } catch {
    throw new HttpError(
      400,
      "The entry's base64 <content> does not decode to UTF-8 text. Encode the text as UTF-8 before base64.",
    )
  }
}

/** Well-formed markup travels as XHTML; anything else escaped, labelled with what it is (docs/PROTOCOL.md). */
export function atomContentOf(kind: ContentKind, value: string): AtomContent {
  if (kind === 'text') return { mode: 'escaped', type: 'text/plain', value }
  if (isWellFormedMarkup(value)) return { mode: 'xml', type: 'application/xhtml+xml', value }
  return { mode: 'escaped', type: 'text/html', value }
}
