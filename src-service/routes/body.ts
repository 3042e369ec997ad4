// Reading request bodies: never more than the route's limit, whatever Content-Length claims (or omits), and only as
// a media type the route understands. Each route names its limit, since a body is held whole in memory.
import type { IncomingMessage } from 'node:http'
import { decodeXml, MAX_XML_BYTES, XmlError } from '../../src-protocol'
import { HttpError } from './reply'

const ATOM_REQUEST_TYPES = ['application/x.atom+xml', 'application/atom+xml', 'application/xml', 'text/xml']

/** An Atom entry without a file (a post): as much as the XML reader accepts by default. */
export const MAX_ENTRY_BYTES = MAX_XML_BYTES

/**
 * The whole body, refused with 413 before reading when Content-Length is over `maxBytes`, and as soon as a chunked
 * body grows past it. A refused body is not read further: the answer closes the connection instead.
 */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new HttpError(413, `The request body is larger than ${formatBytes(maxBytes)}. Send less at once.`, { Connection: 'close' })
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw tooLarge()
  const chunks: Buffer[] = []
  let size = 0
  // Stopping early must not destroy the request: the socket is needed for the 413.
  for await (const chunk of request.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) throw tooLarge()
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
}

/** Refuses (415) a body that is not sent as Atom or XML; the charset parameter is not ours to judge. */
export function requireAtomMediaType(request: IncomingMessage): void {
  const declared = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase()
  if (!ATOM_REQUEST_TYPES.includes(declared)) {
    throw new HttpError(
      415,
      `This address takes an Atom entry sent as ${ATOM_REQUEST_TYPES[0]} (or ${ATOM_REQUEST_TYPES.slice(1).join(', ')}), not ${declared || 'a body without Content-Type'}.`,
    )
  }
}

/** The body of an Atom request as text (in the encoding it declares), after checking its media type. */
export async function readAtomBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  requireAtomMediaType(request)
  const body = await readBody(request, maxBytes)
  try {
    return decodeXml(body)
  } catch (error) {
    if (error instanceof XmlError) throw new HttpError(400, error.message)
    throw error
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${Math.ceil(bytes / 1024)} KiB`
}
