// Reads an Atom entry as its bytes arrive, so a photo of tens of megabytes never sits in memory. Everything but
// the text of the entry's `content` element is kept (the "skeleton", small) for the XML parser to judge once the
// body is in: malformed XML, a DOCTYPE, a wrong namespace are refused exactly as for any other entry. The content's
// text goes, piece by piece, to `onContentText` (base64, to be decoded to a file).
//
// The scan only tracks what it must to find that text: tags (with quoted attribute values, where '>' is allowed),
// comments, processing instructions and CDATA sections, and the depth of elements. Markup and UTF-8 never share
// bytes below 0x80, so scanning bytes is safe whatever the text's characters.
import { decodeXml, xmlEncodingOf, XmlError } from '../../src-protocol'

/** The skeleton grew past its limit: the entry has more than a photo and a few small elements. */
export class SkeletonTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The entry, apart from its content, is larger than ${Math.round(limit / 1024)} KiB.`)
    this.name = 'SkeletonTooLargeError'
  }
}

export interface EntryScannerOptions {
  /** Bytes of the document apart from the content's text. */
  maxSkeletonBytes: number
  /** Receives the content's text (ASCII expected), references already resolved, in document order. */
  onContentText(text: Uint8Array): void
}

const LESS_THAN = 0x3c
const GREATER_THAN = 0x3e
const SLASH = 0x2f
const QUESTION = 0x3f
const BANG = 0x21
const DASH = 0x2d
const CLOSE_BRACKET = 0x5d
const AMPERSAND = 0x26
const SEMICOLON = 0x3b
const DOUBLE_QUOTE = 0x22
const SINGLE_QUOTE = 0x27

/** Scanner states. */
const S = {
  text: 0,
  lessThan: 1,
  bang: 2,
  tagName: 3,
  tagAttributes: 4,
  endTag: 5,
  comment: 6,
  processingInstruction: 7,
  cdata: 8,
  /** After a declaration (<!DOCTYPE …>): everything is kept, for the parser to refuse with its own words. */
  raw: 9,
  contentText: 10,
  contentReference: 11,
  contentCdata: 12,
} as const
type State = (typeof S)[keyof typeof S]

const COMMENT_OPENING = '--'
const CDATA_OPENING = '[CDATA['
const PREDEFINED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const LONGEST_REFERENCE = '#x10FFFF'.length
const LONGEST_KEPT_NAME = 256

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d
}

export class EntryScanner {
  readonly #options: EntryScannerOptions
  readonly #skeleton: Buffer[] = []
  #skeletonBytes = 0
  #state: State = S.text
  /** Open elements: 1 inside the root, 2 inside one of its children. */
  #depth = 0
  /** Inside the root's `content` child (its text is not kept). */
  #inContent = false
  #contentElements = 0
  /** Bytes of markup read after '<' whose kind is not known yet. */
  #markup: number[] = []
  #tagName = ''
  #quote = 0
  #lastSignificant = 0
  /** Consecutive '-' (comment), ']' (CDATA) or '?' (processing instruction) just read, for the closing '>'. */
  #closers = 0
  #reference = ''
  /** Where the kept bytes of the chunk being scanned start, or -1 while nothing is being kept. */
  #keptFrom = -1

  constructor(options: EntryScannerOptions) {
    this.#options = options
  }

  /** How many `content` children of the root were found (their text went to onContentText). */
  get contentElements(): number {
    return this.#contentElements
  }

  push(chunk: Buffer): void {
    if (this.#skeletonBytes === 0 && this.#markup.length === 0 && xmlEncodingOf(chunk).startsWith('utf-16')) {
      // Scanning bytes for markup holds only where markup is ASCII bytes, as in UTF-8 and ISO-8859-1.
      throw new XmlError(`The entry is in ${xmlEncodingOf(chunk).toUpperCase()}; send entries with a file as UTF-8.`)
    }
    this.#keptFrom = this.#isKeeping() ? 0 : -1
    let index = 0
    while (index < chunk.length) index = this.#step(chunk, index)
    this.#stopKeeping(chunk, chunk.length)
  }

  /** The document without the content's text, decoded as it declares; throws when the body ended inside that text. */
  finish(): string {
    if (this.#inContent) {
      throw new XmlError(
        'The document ends inside <content>: the entry is truncated. Send the whole entry, through </entry>.',
      )
    }
    this.#keepBytes(Buffer.from(this.#markup))
    this.#markup = []
    return decodeXml(Buffer.concat(this.#skeleton, this.#skeletonBytes))
  }

  #isKeeping(): boolean {
    const state = this.#state
    return !(
      state === S.lessThan ||
      state === S.bang ||
      state === S.contentText ||
      state === S.contentReference ||
      state === S.contentCdata
    )
  }

  /** Reads from `index`; returns where to go on. */
  #step(chunk: Buffer, index: number): number {
    switch (this.#state) {
      case S.text: {
        const lessThan = chunk.indexOf(LESS_THAN, index)
        if (lessThan === -1) return chunk.length
        this.#stopKeeping(chunk, lessThan)
        this.#markup = [LESS_THAN]
        this.#state = S.lessThan
        return lessThan + 1
      }
      case S.lessThan:
        return this.#classifyMarkup(chunk, index)
      case S.bang:
        return this.#classifyDeclaration(chunk, index)
      case S.tagName: {
        const byte = chunk[index]!
        if (isWhitespace(byte) || byte === SLASH || byte === GREATER_THAN) {
          this.#state = S.tagAttributes
          this.#quote = 0
          this.#lastSignificant = 0
          return index
        }
        if (this.#tagName.length < LONGEST_KEPT_NAME) this.#tagName += String.fromCharCode(byte)
        return index + 1
      }
      case S.tagAttributes:
        return this.#scanStartTag(chunk, index)
      case S.endTag: {
        const greaterThan = chunk.indexOf(GREATER_THAN, index)
        if (greaterThan === -1) return chunk.length
        this.#depth--
        this.#state = S.text
        return greaterThan + 1
      }
      case S.comment:
        return this.#scanToCloser(chunk, index, DASH)
      case S.processingInstruction:
        return this.#scanToCloser(chunk, index, QUESTION)
      case S.cdata:
        return this.#scanToCloser(chunk, index, CLOSE_BRACKET)
      case S.raw:
        return chunk.length
      case S.contentText:
        return this.#scanContentText(chunk, index)
      case S.contentReference:
        return this.#scanContentReference(chunk, index)
      case S.contentCdata:
        return this.#scanContentCdata(chunk, index)
    }
  }

  #classifyMarkup(chunk: Buffer, index: number): number {
    const byte = chunk[index]!
    if (byte === SLASH || byte === QUESTION) {
      // An end tag inside the content is the content's own: a child element would have been refused.
      if (byte === SLASH) this.#inContent = false
      this.#markup.push(byte)
      this.#keepMarkup(index + 1)
      this.#state = byte === SLASH ? S.endTag : S.processingInstruction
      this.#closers = 0
      return index + 1
    }
    if (byte === BANG) {
      this.#markup.push(byte)
      this.#state = S.bang
      return index + 1
    }
    if (this.#inContent) {
      throw new XmlError(
        'The <content> element holds markup, but a file or photo is sent as base64 text: ' +
          '<content mode="base64" type="image/jpeg">…</content>.',
      )
    }
    this.#keepMarkup(index)
    this.#state = S.tagName
    this.#tagName = ''
    return index
  }

  /** After '<!': a comment, a CDATA section, or a declaration. */
  #classifyDeclaration(chunk: Buffer, index: number): number {
    const byte = chunk[index]!
    this.#markup.push(byte)
    const sofar = String.fromCharCode(...this.#markup.slice(2))
    if (sofar === COMMENT_OPENING) {
      this.#keepMarkup(index + 1)
      this.#state = S.comment
      this.#closers = 0
    } else if (sofar === CDATA_OPENING) {
      this.#closers = 0
      if (this.#inContent) {
        this.#markup = [] // the section's text is content: it goes to the decoder, not the skeleton
        this.#state = S.contentCdata
      } else {
        this.#keepMarkup(index + 1)
        this.#state = S.cdata
      }
    } else if (!COMMENT_OPENING.startsWith(sofar) && !CDATA_OPENING.startsWith(sofar)) {
      this.#inContent = false
      this.#keepMarkup(index + 1)
      this.#state = S.raw
    }
    return index + 1
  }

  #scanStartTag(chunk: Buffer, index: number): number {
    for (let at = index; at < chunk.length; at++) {
      const byte = chunk[at]!
      if (this.#quote !== 0) {
        if (byte === this.#quote) {
          this.#quote = 0
          this.#lastSignificant = byte
        }
      } else if (byte === DOUBLE_QUOTE || byte === SINGLE_QUOTE) {
        this.#quote = byte
        this.#lastSignificant = byte
      } else if (byte === GREATER_THAN) {
        this.#endStartTag(chunk, at + 1)
        return at + 1
      } else if (!isWhitespace(byte)) {
        this.#lastSignificant = byte
      }
    }
    return chunk.length
  }

  /** `after` is the index just past the tag's '>'. */
  #endStartTag(chunk: Buffer, after: number): void {
    this.#state = S.text
    if (this.#lastSignificant === SLASH) return // <empty/> opens nothing
    this.#depth++
    const localName = this.#tagName.slice(this.#tagName.indexOf(':') + 1)
    if (this.#depth !== 2 || localName !== 'content') return
    if (++this.#contentElements > 1) {
      throw new XmlError('The entry has more than one <content> element. Send one file or photo per entry.')
    }
    this.#stopKeeping(chunk, after)
    this.#inContent = true
    this.#state = S.contentText
  }

  /** Comments, processing instructions and CDATA end with two (or one, for '?') `closer` bytes and '>'. */
  #scanToCloser(chunk: Buffer, index: number, closer: number): number {
    const needed = closer === QUESTION ? 1 : 2
    for (let at = index; at < chunk.length; at++) {
      const byte = chunk[at]!
      if (byte === closer) {
        this.#closers++
      } else if (byte === GREATER_THAN && this.#closers >= needed) {
        this.#state = this.#inContent ? S.contentText : S.text
        // Markup inside the content is kept for the parser to check; the text around it is not.
        if (this.#inContent) this.#stopKeeping(chunk, at + 1)
        return at + 1
      } else {
        this.#closers = 0
      }
    }
    return chunk.length
  }

  #scanContentText(chunk: Buffer, index: number): number {
    let stop = chunk.indexOf(LESS_THAN, index)
    const ampersand = chunk.indexOf(AMPERSAND, index)
    if (stop === -1 || (ampersand !== -1 && ampersand < stop)) stop = ampersand
    if (stop === -1) {
      this.#options.onContentText(chunk.subarray(index))
      return chunk.length
    }
    if (stop > index) this.#options.onContentText(chunk.subarray(index, stop))
    if (chunk[stop] === AMPERSAND) {
      this.#reference = ''
      this.#state = S.contentReference
    } else {
      this.#markup = [LESS_THAN]
      this.#state = S.lessThan
    }
    return stop + 1
  }

  #scanContentReference(chunk: Buffer, index: number): number {
    for (let at = index; at < chunk.length; at++) {
      const byte = chunk[at]!
      if (byte !== SEMICOLON) {
        this.#reference += String.fromCharCode(byte)
        if (this.#reference.length > LONGEST_REFERENCE) {
          throw new XmlError(`The content holds a malformed reference "&${this.#reference}…". Send base64 text only.`)
        }
        continue
      }
      const character = resolveReference(this.#reference)
      if (character === null) {
        throw new XmlError(`The content holds an unknown reference "&${this.#reference};". Send base64 text only.`)
      }
      this.#options.onContentText(Buffer.from(character, 'utf8'))
      this.#state = S.contentText
      return at + 1
    }
    return chunk.length
  }

  /** The text of a CDATA section inside the content is content; ']' never is base64, so only ']]>' may follow one. */
  #scanContentCdata(chunk: Buffer, index: number): number {
    let at = index
    while (at < chunk.length) {
      if (this.#closers === 0) {
        const bracket = chunk.indexOf(CLOSE_BRACKET, at)
        const end = bracket === -1 ? chunk.length : bracket
        if (end > at) this.#options.onContentText(chunk.subarray(at, end))
        at = end
        if (bracket === -1) break
      }
      const byte = chunk[at]!
      if (byte === CLOSE_BRACKET) {
        this.#closers++
      } else if (byte === GREATER_THAN && this.#closers >= 2) {
        if (this.#closers > 2) this.#options.onContentText(Buffer.from(']'.repeat(this.#closers - 2)))
        this.#state = S.contentText
        return at + 1
      } else {
        // The brackets were text after all: the decoder refuses them with its own words.
        this.#options.onContentText(Buffer.from(']'.repeat(this.#closers)))
        this.#closers = 0
        continue
      }
      at++
    }
    return chunk.length
  }

  /** Keeps the pending markup bytes and the chunk from `from` on (as the scan gets there). */
  #keepMarkup(from: number): void {
    this.#keepBytes(Buffer.from(this.#markup))
    this.#markup = []
    this.#keptFrom = from
  }

  /** Keeps what the scan passed up to `end`, and nothing more until told to. */
  #stopKeeping(chunk: Buffer, end: number): void {
    if (this.#keptFrom !== -1 && end > this.#keptFrom) this.#keepBytes(chunk.subarray(this.#keptFrom, end))
    this.#keptFrom = -1
  }

  #keepBytes(bytes: Buffer): void {
    if (bytes.length === 0) return
    this.#skeletonBytes += bytes.length
    if (this.#skeletonBytes > this.#options.maxSkeletonBytes) throw new SkeletonTooLargeError(this.#options.maxSkeletonBytes)
    // A copy: the chunk's memory belongs to the stream.
    this.#skeleton.push(Buffer.from(bytes))
  }
}

/** `&name;` or `&#n;` / `&#xh;` as a character, or null when XML does not define it. */
function resolveReference(reference: string): string | null {
  if (!reference.startsWith('#')) return PREDEFINED_ENTITIES[reference] ?? null
  const code = reference.startsWith('#x') ? Number.parseInt(reference.slice(2), 16) : Number.parseInt(reference.slice(1), 10)
  const digits = reference.startsWith('#x') ? /^#x[0-9a-fA-F]+$/ : /^#[0-9]+$/
  if (!digits.test(reference) || !Number.isInteger(code) || code < 1 || code > 0x10ffff) return null
  return String.fromCodePoint(code)
}
