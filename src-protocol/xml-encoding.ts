// The bytes of an XML document as text, in the encoding the document gives itself (a byte order mark, else its
// XML declaration, else UTF-8, as XML 1.0 appendix F says). Bytes that are not valid in that encoding are refused:
// turned silently into U+FFFD they would be stored and published as if the author had written them.
import { Buffer } from 'node:buffer'
import { XmlError } from './xml-error'

const UTF8_BOM = [0xef, 0xbb, 0xbf]
const UTF16LE_BOM = [0xff, 0xfe]
const UTF16BE_BOM = [0xfe, 0xff]
// "<?" without a byte order mark, in UTF-16 little and big endian.
const UTF16LE_START = [0x3c, 0x00, 0x3f, 0x00]
const UTF16BE_START = [0x00, 0x3c, 0x00, 0x3f]
const DECLARED_ENCODING = /^<\?xml[^>]*?[\t\n\r ]encoding[\t\n\r ]*=[\t\n\r ]*["']([A-Za-z][\w.:-]*)["']/

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte)
}

/** The encoding `bytes` say they are in: a TextDecoder label. */
export function xmlEncodingOf(bytes: Uint8Array): string {
  if (startsWith(bytes, UTF8_BOM)) return 'utf-8'
  if (startsWith(bytes, UTF16LE_BOM) || startsWith(bytes, UTF16LE_START)) return 'utf-16le'
  if (startsWith(bytes, UTF16BE_BOM) || startsWith(bytes, UTF16BE_START)) return 'utf-16be'
  // The declaration is ASCII in every encoding left, and comes first.
  const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1')
  return DECLARED_ENCODING.exec(head)?.[1]?.toLowerCase() ?? 'utf-8'
}

// Making a decoder costs more than decoding a post; one per encoding label (a few hundred exist) serves every call,
// since decode() without { stream: true } keeps nothing from one call to the next.
const decoders = new Map<string, InstanceType<typeof TextDecoder>>()

/** Decodes an XML document by its own declaration; throws XmlError, naming the encoding, when it cannot. */
export function decodeXml(bytes: Uint8Array): string {
  const encoding = xmlEncodingOf(bytes)
  let decoder = decoders.get(encoding)
  if (!decoder) {
    try {
      decoder = new TextDecoder(encoding, { fatal: true })
    } catch {
      throw new XmlError(`The document is in the encoding "${encoding}", which cannot be read here. Send it as UTF-8.`)
    }
    decoders.set(encoding, decoder)
  }
  try {
    return decoder.decode(bytes)
  } catch {
    throw new XmlError(
      `The document is not valid ${encoding === 'utf-8' ? 'UTF-8' : encoding}: some bytes are not characters in ` +
        'that encoding. Send it as UTF-8, or declare the encoding it is in (<?xml version="1.0" encoding="…"?>).',
    )
  }
}
