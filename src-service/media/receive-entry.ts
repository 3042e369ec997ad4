// Receives an Atom entry that carries a file as base64 (UploadURI, photo POST) without holding the body, the
// decoded bytes and a copy at once: the body is scanned as it streams in, the content's base64 is decoded chunk by
// chunk straight into a file in incoming/ (hashed on the way), and only the rest of the entry — a few elements —
// is kept in memory, then parsed and checked like any other entry.
import { createHash } from 'node:crypto'
import type { FileHandle } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { readEntry, XmlError, type AtomEntry } from '../../src-protocol'
import { MAX_BODY_BYTES } from '../routes/router'
import { HttpError } from '../routes/reply'
import { Base64Decoder, Base64Error } from './base64'
import { EntryScanner, SkeletonTooLargeError } from './entry-scanner'
import { SNIFF_BYTES } from './image-types'
import { discardIncoming, type MediaLibrary } from './library'

/** The decoded content of an entry, in a file of incoming/ that the receiver must place or discard. */
export interface ReceivedFile {
  path: string
  size: number
  /** Hex SHA-256 of the bytes, computed as they were written. */
  sha256: string
  /** The first bytes, to tell the format. */
  head: Buffer
  discard(): Promise<void>
}

export interface ReceivedEntry {
  /** The entry; its content's value is empty, the bytes being in `file`. */
  entry: AtomEntry
  /** Null when the entry had no content element in the Atom namespace. */
  file: ReceivedFile | null
  /** Stands for the whole body (the entry and the file's hash), to tell a repeated request from another. */
  fingerprint: string
}

export interface ReceiveLimits {
  /** Decoded bytes of the file. */
  maxFileBytes: number
  /** Bytes of everything else. */
  maxEntryBytes?: number
}

const DEFAULT_MAX_ENTRY_BYTES = 1024 * 1024

/** Decoded bytes of one uploaded file or photo; the body cap (64 MiB of base64) would allow 48. */
export const MAX_FILE_BYTES = 40 * 1024 * 1024

/** Reads `body` (a request carrying an entry whose content is base64); the caller checked its media type. */
export async function receiveEntryWithFile(
  body: Readable,
  library: MediaLibrary,
  { maxFileBytes, maxEntryBytes = DEFAULT_MAX_ENTRY_BYTES }: ReceiveLimits,
): Promise<ReceivedEntry> {
  const incoming = await library.createIncoming()
  const discard = () => discardIncoming(incoming.path)
  const hash = createHash('sha256')
  const headParts: Buffer[] = []
  let headBytes = 0
  let size = 0
  const decoder = new Base64Decoder()
  // Text that is not base64 may be content of another mode, which only the parsed entry tells: the error waits.
  let notBase64: Base64Error | null = null
  const scanner = new EntryScanner({
    maxSkeletonBytes: maxEntryBytes,
    onContentText: (text) => {
      if (notBase64 !== null) return
      try {
        decoder.push(text)
      } catch (error) {
        if (!(error instanceof Base64Error)) throw error
        notBase64 = error
      }
    },
  })

  // Written before the next chunk is scanned: the decoder reuses its buffer.
  const writeDecoded = async () => {
    const bytes = decoder.take()
    if (bytes.length === 0) return
    size += bytes.length
    if (size > maxFileBytes) throw tooLarge(`The file is larger than ${describeBytes(maxFileBytes)}. Send a smaller one.`)
    hash.update(bytes)
    if (headBytes < SNIFF_BYTES) {
      const head = Buffer.from(bytes.subarray(0, SNIFF_BYTES - headBytes))
      headParts.push(head)
      headBytes += head.length
    }
    await writeFully(incoming.handle, bytes)
  }

  try {
    let bodyBytes = 0
    // A refusal stops reading without destroying the request: the rest is drained below, and the connection lives.
    for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      bodyBytes += chunk.length
      if (bodyBytes > MAX_BODY_BYTES) {
        throw tooLarge(`The request body is larger than ${describeBytes(MAX_BODY_BYTES)}. Send less at once.`)
      }
      scanner.push(chunk)
      await writeDecoded()
    }
    const skeleton = scanner.finish()
    const entry = readEntry(skeleton)
    if (entry.content !== null && entry.content.mode !== 'base64') {
      throw new HttpError(
        400,
        `The <content> has mode="${entry.content.mode}", but a file is sent as base64: <content mode="base64" type="…">…</content>.`,
      )
    }
    if (notBase64 !== null) throw notBase64
    if (scanner.contentElements > 0) {
      decoder.end()
      await writeDecoded()
    }
    await incoming.handle.close()
    if (entry.content === null) {
      await discard()
      if (scanner.contentElements > 0) {
        throw new HttpError(400, `The entry's <content> is not in the Atom namespace; declare xmlns="http://purl.org/atom/ns#".`)
      }
      return { entry, file: null, fingerprint: skeleton }
    }
    const file = { path: incoming.path, size, sha256: hash.digest('hex'), head: Buffer.concat(headParts), discard }
    return { entry, file, fingerprint: `${skeleton}\n${file.sha256}` }
  } catch (error) {
    await incoming.handle.close().catch(() => undefined)
    await discard()
    const refusal = asHttpError(error)
    // The client may still be sending: read the rest away so the answer reaches it and its connection can be
    // reused — unless the body is too large to be worth reading, where the answer closes the connection instead.
    if (!(refusal instanceof HttpError && refusal.status === 413)) body.resume()
    throw refusal
  }
}

function asHttpError(error: unknown): unknown {
  if (error instanceof XmlError || error instanceof Base64Error) return new HttpError(400, error.message)
  if (error instanceof SkeletonTooLargeError) {
    return tooLarge(`${error.message} Send the file in <content> and only short text in the other elements.`)
  }
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | null)?.message === 'aborted') {
    return new HttpError(400, 'The request was cut off before its body was complete. Send it again.')
  }
  return error
}

function tooLarge(message: string): HttpError {
  // Closing the connection spares reading the rest of a body nobody will use.
  return new HttpError(413, message, { Connection: 'close' })
}

async function writeFully(handle: FileHandle, bytes: Buffer): Promise<void> {
  let written = 0
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written)
    written += bytesWritten
  }
}

export function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${Math.ceil(bytes / 1024)} KiB`
}

/**
 * The entry's file, not empty, and the type its content declares; or a 400 saying what is missing. `example` shows
 * the element the client should send, e.g. `<content mode="base64" type="image/jpeg">…</content>`.
 */
export function requireBase64File({ entry, file }: ReceivedEntry, example: string): { type: string | null; file: ReceivedFile } {
  if (entry.content === null || file === null) throw new HttpError(400, `The entry has no <content>. Send the file as base64 in ${example}.`)
  if (file.size === 0) throw new HttpError(400, `The <content> is empty. Send the file as base64 in ${example}.`)
  return { type: entry.content.type?.trim() || null, file }
}
