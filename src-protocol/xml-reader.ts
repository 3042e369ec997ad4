import { Buffer } from 'node:buffer'
import { ATOM_10_NS, NS, XML_NS, XMLNS_NS } from './namespaces'
import { SUSPECT_CHARACTER, isXmlCharacter } from './xml-characters'
import { XmlError } from './xml-error'

/**
 * One element with its namespace resolved. `ns` is the namespace URI ('' for none), `name` the local name.
 * Unprefixed attributes are stored under their local name (they have no namespace); prefixed ones as `{uri}local`.
 * Namespace declarations are not attributes. `text` is the element's own character data (CDATA included), in
 * document order, untrimmed; the text of child elements is on the children.
 */
export interface XmlElement {
  ns: string
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

export interface XmlLimits {
  maxBytes?: number
  maxDepth?: number
}

/** A namespace declaration that markup cut out of its document needs, to be written into the start tag at `at`. */
export interface NeededDeclaration {
  at: number
  prefix: string
  uri: string
}

/**
 * A stretch of a checked document kept as markup: `source.slice(start, end)`, which stands alone (is namespace
 * well-formed) once `declarations` are written into its top-level start tags.
 */
export interface RawMarkup {
  source: string
  start: number
  end: number
  declarations: NeededDeclaration[]
}

/** A top-level element inside raw content, with its own inner markup as a RawMarkup. */
export interface RawChild extends RawMarkup {
  ns: string
  name: string
}

/** The content of an element the scanner checked without building: its inner markup and its direct parts. */
export interface RawContent extends RawMarkup {
  /** The element's own character data (CDATA included), decoded. */
  text: string
  /** Whether that character data holds anything but whitespace. */
  hasText: boolean
  children: RawChild[]
}

export interface ScanOptions extends XmlLimits {
  /**
   * Asked for every element that is built: true checks the element's content completely (well-formedness,
   * namespaces, references) but keeps it as markup instead of building elements, which is what makes large XHTML
   * bodies cheap. The element then has no children and no text; its content is in ScanResult.raw.
   */
  keepRaw?: (element: XmlElement, parent: XmlElement | null) => boolean
}

export interface ScanResult {
  root: XmlElement
  raw: Map<XmlElement, RawContent>
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024
const DEFAULT_MAX_DEPTH = 64

/** Parses a whole document into its root element, resolving namespaces. Throws XmlError for anything it refuses. */
export function parseXml(xml: string, limits: XmlLimits = {}): XmlElement {
  return scanXml(xml, limits).root
}

/**
 * Checks a whole document, hopping from "<" to "<" after one pass over its characters: refuses what XML forbids
 * (with a message a person can act on), DOCTYPE and entity declarations (no external entities, no expansion bombs),
 * documents over the size and depth limits; resolves namespaces by URI; builds the element tree except where
 * `keepRaw` says otherwise.
 */
export function scanXml(xml: string, options: ScanOptions = {}): ScanResult {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so only long strings need counting.
  if (xml.length > maxBytes || (xml.length * 3 > maxBytes && Buffer.byteLength(xml, 'utf8') > maxBytes)) {
    throw new XmlError(`The document is too large: the limit is ${describeBytes(maxBytes)}.`)
  }
  let document = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml
  checkCharacters(document)
  // XML reads every line break as a line feed before anything else.
  if (document.includes('\r')) document = document.replace(/\r\n?/g, '\n')
  return new Scanner(document, options.maxDepth ?? DEFAULT_MAX_DEPTH, options.keepRaw ?? null).scan()
}

function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024)
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB` : `${bytes} bytes`
}

function checkCharacters(xml: string): void {
  SUSPECT_CHARACTER.lastIndex = 0
  for (let match = SUSPECT_CHARACTER.exec(xml); match; match = SUSPECT_CHARACTER.exec(xml)) {
    const codePoint = xml.codePointAt(match.index) ?? 0
    if (codePoint > 0xffff) {
      SUSPECT_CHARACTER.lastIndex = match.index + 2
      continue
    }
    const code = codePoint.toString(16).toUpperCase().padStart(4, '0')
    throw notWellFormed(xml, match.index, `it contains the character U+${code}, which XML does not allow.`)
  }
}

function lineAndColumn(xml: string, index: number): string {
  let line = 1
  let lineStart = 0
  for (let at = xml.indexOf('\n'); at !== -1 && at < index; at = xml.indexOf('\n', at + 1)) {
    line++
    lineStart = at + 1
  }
  return `line ${line}, column ${index - lineStart + 1}`
}

function notWellFormed(xml: string, index: number, problem: string): XmlError {
  return new XmlError(`The document is not well-formed XML (${lineAndColumn(xml, index)}): ${problem}`)
}

// XML's Name production, for names with characters beyond ASCII (ASCII names are checked with the table below).
const NAME_START_CHARS =
  'A-Z_a-z:\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}'
// Combining marks open the class: after another character they would read as one combined character.
const NAME_CHARS = '\\u0300-\\u036F' + NAME_START_CHARS + '\\-.0-9\\u00B7\\u203F-\\u2040'
const NAME = `[${NAME_START_CHARS}][${NAME_CHARS}]*`
const WHOLE_NAME = new RegExp(`^${NAME}$`, 'u')
const NCNAME = new RegExp(`^[${NAME_START_CHARS.replace(':', '')}][${NAME_CHARS.replace(':', '')}]*$`, 'u')
const END_TAG = new RegExp(`</(${NAME})[\\t\\n\\r ]*>`, 'uy')
const PI_TARGET = new RegExp(NAME, 'uy')

/** Whether `name` can be the local name of an element or attribute (an XML name without a colon). */
export function isLocalName(name: string): boolean {
  return NCNAME.test(name)
}

const MAY_START_NAME = 1
const MAY_CONTINUE_NAME = 2
const ASCII_NAME = new Uint8Array(128)
for (let code = 0; code < 128; code++) {
  const character = String.fromCharCode(code)
  if (/[A-Za-z_:]/.test(character)) ASCII_NAME[code] = MAY_START_NAME | MAY_CONTINUE_NAME
  else if (/[0-9.-]/.test(character)) ASCII_NAME[code] = MAY_CONTINUE_NAME
}

const GT = 0x3e
const SLASH = 0x2f
const QUESTION = 0x3f
const BANG = 0x21
const EQUALS = 0x3d
const DOUBLE_QUOTE = 0x22
const SINGLE_QUOTE = 0x27
const COLON = 0x3a

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d
}

const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
// The text after "&" of each predefined entity reference, by its first character (apos; is checked beside amp;).
const PREDEFINED_REFERENCE_BODIES = new Map(['amp;', 'lt;', 'gt;', 'quot;'].map((body) => [body.charCodeAt(0), body]))
const HASH = 0x23
const LOWER_X = 0x78
const SEMICOLON = 0x3b

/** The value of a decimal or hexadecimal digit, or -1. */
function digitValue(code: number, isHex: boolean): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  if (!isHex) return -1
  const lower = code | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1
}

const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([A-Za-z_][\w.-]*));/y
const ATTRIBUTE_WHITESPACE = /[\t\n]/g

interface Binding {
  uri: string
  /** Depth of the element that declared it; 0 for the document-wide xml prefix. */
  depth: number
}

const XML_BINDING: Binding = { uri: XML_NS, depth: 0 }
// Elements in these namespaces get these very strings as `ns`, which makes readers' comparisons with the constants
// instant instead of character by character.
const KNOWN_NAMESPACES = new Map([...Object.values(NS), ATOM_10_NS].map((uri) => [uri, uri]))
const NOTHING_AHEAD = Number.MAX_SAFE_INTEGER

class Scanner {
  private readonly xml: string
  private readonly maxDepth: number
  private readonly keepRaw: ScanOptions['keepRaw'] | null
  private readonly raw = new Map<XmlElement, RawContent>()
  private root: XmlElement | null = null
  private rootClosed = false

  // The open elements, innermost last, as parallel stacks of plain values.
  private depth = 0
  private readonly openAt: number[] = []
  private readonly openNameEnd: number[] = []
  private readonly openScopeMark: number[] = []
  private readonly openElement: (XmlElement | null)[] = []

  // Namespace bindings in scope; `undo` holds [prefix, previous binding] pairs to restore when an element closes.
  private readonly bindings = new Map<string, Binding>([['xml', XML_BINDING]])
  private readonly undo: (string | Binding | undefined)[] = []

  // The raw region being checked, if any: its element's depth, and the start tags declarations go into.
  private rawContent: RawContent | null = null
  private rawDepth = 0
  private rawChild: RawChild | null = null
  private topLevelTagAt = 0
  private secondLevelTagAt = 0

  // The next "<", "&" and "]]>" at or after the scan position, each found once and reused until passed, which keeps
  // the searches linear. nextLt is set while reading attributes (a valid tag holds no "<").
  private nextLt = -1
  private nextAmpersand = -1
  private nextCdataEnd = -1
  private referenceEnd = 0

  // The start tag being read: its attributes as offsets, reused from tag to tag.
  private tagAt = 0
  private readingTag = false
  private tagSelfClosing = false
  private tagHasDeclarations = false
  private tagHasPrefixedAttributes = false
  private tagNameEnd = 0
  private nameColon = -1
  private attributeCount = 0
  private readonly attributeNameStart: number[] = []
  private readonly attributeNameEnd: number[] = []
  private readonly attributeColon: number[] = []
  private readonly attributeValueStart: number[] = []
  private readonly attributeValueEnd: number[] = []
  private readonly attributeIsDeclaration: boolean[] = []

  // The open elements of the quick check of raw content: where their names start and end.
  private readonly quickOpenNameStart: number[] = []
  private readonly quickOpenNameEnd: number[] = []

  constructor(xml: string, maxDepth: number, keepRaw: ScanOptions['keepRaw'] | null) {
    this.xml = xml
    this.maxDepth = maxDepth
    this.keepRaw = keepRaw
  }

  scan(): ScanResult {
    const xml = this.xml
    let index = 0
    for (;;) {
      const lt = this.nextLt >= index ? this.nextLt : xml.indexOf('<', index)
      const textEnd = lt === -1 ? xml.length : lt
      if (textEnd > index) this.text(index, textEnd)
      if (lt === -1) break

      const next = xml.charCodeAt(lt + 1)
      if (next === SLASH) index = this.endTag(lt)
      else if (next === QUESTION) index = this.processingInstruction(lt)
      else if (next === BANG) index = this.markupDeclaration(lt)
      else index = this.startTag(lt)
    }

    if (this.depth > 0) {
      const openedAt = this.openAt[this.depth - 1] ?? 0
      throw notWellFormed(
        xml,
        xml.length,
        `the document ends before <${this.qualifiedNameAt(openedAt)}> (opened at ${lineAndColumn(xml, openedAt)}) is closed.`,
      )
    }
    if (!this.root) throw new XmlError('The document is empty: it contains no XML element.')
    return { root: this.root, raw: this.raw }
  }

  private error(index: number, problem: string): XmlError {
    return notWellFormed(this.xml, index, problem)
  }

  private qualifiedNameAt(lt: number): string {
    return this.xml.slice(lt + 1, this.scanName(lt + 1))
  }

  /** `<name>` of the tag being read or else of the innermost open element, for messages. */
  private where(): string {
    const at = this.readingTag ? this.tagAt : this.openAt[this.depth - 1]
    return at === undefined ? 'the document' : `<${this.qualifiedNameAt(at)}>`
  }

  // ── Names ─────────────────────────────────────────────────────────────────────────────────────────────────────

  /** The end of the XML name starting at `start` (== start when there is none); sets nameColon. */
  private scanName(start: number): number {
    const xml = this.xml
    let code = xml.charCodeAt(start)
    if (code < 128 ? ((ASCII_NAME[code] ?? 0) & MAY_START_NAME) === 0 : Number.isNaN(code)) return start
    let beyondAscii = code >= 128
    let colon = code === COLON ? start : -1
    let end = start + 1
    for (;;) {
      code = xml.charCodeAt(end)
      if (code < 128) {
        if (((ASCII_NAME[code] ?? 0) & MAY_CONTINUE_NAME) === 0) break
        if (code === COLON && colon === -1) colon = end
      } else if (Number.isNaN(code)) {
        break
      } else {
        beyondAscii = true
      }
      end++
    }
    if (beyondAscii && !WHOLE_NAME.test(xml.slice(start, end))) return start
    this.nameColon = colon
    return end
  }

  // ── Character data ────────────────────────────────────────────────────────────────────────────────────────────

  private text(from: number, to: number): void {
    if (this.depth === 0) {
      if (!this.isWhitespaceRange(from, to)) throw this.error(from, 'there is text outside the root element.')
      return
    }
    if (this.nextCdataEnd < from) this.nextCdataEnd = this.indexAtOrAfter(']]>', from)
    if (this.nextCdataEnd < to) {
      throw this.error(this.nextCdataEnd, 'the text contains "]]>", which XML allows only to end a CDATA section.')
    }

    const rawContent = this.rawContent
    if (rawContent === null) {
      const element = this.openElement[this.depth - 1]
      if (element) element.text += this.decode(from, to, false)
    } else if (this.depth === this.rawDepth) {
      rawContent.text += this.decode(from, to, false)
      if (!rawContent.hasText && !this.isWhitespaceRange(from, to)) rawContent.hasText = true
    } else {
      this.checkReferences(from, to)
    }
  }

  private indexAtOrAfter(search: string, from: number): number {
    const found = this.xml.indexOf(search, from)
    return found === -1 ? NOTHING_AHEAD : found
  }

  private isWhitespaceRange(from: number, to: number): boolean {
    const xml = this.xml
    for (let index = from; index < to; index++) {
      if (!isWhitespace(xml.charCodeAt(index))) return false
    }
    return true
  }

  /** The first "&" in [from, to), or -1. */
  private ampersandIn(from: number, to: number): number {
    if (this.nextAmpersand < from) this.nextAmpersand = this.indexAtOrAfter('&', from)
    return this.nextAmpersand < to ? this.nextAmpersand : -1
  }

  /**
   * Text of [from, to) with references replaced. In attribute values literal tabs and line feeds become spaces, as
   * XML says; the same characters written as references survive.
   */
  private decode(from: number, to: number, isAttribute: boolean): string {
    let ampersand = this.ampersandIn(from, to)
    if (ampersand === -1) return this.literal(from, to, isAttribute)
    let decoded = ''
    let copiedUpTo = from
    while (ampersand !== -1) {
      decoded += this.literal(copiedUpTo, ampersand, isAttribute) + this.reference(ampersand)
      copiedUpTo = this.referenceEnd
      ampersand = this.ampersandIn(copiedUpTo, to)
    }
    return decoded + this.literal(copiedUpTo, to, isAttribute)
  }

  private literal(from: number, to: number, isAttribute: boolean): string {
    const text = this.xml.slice(from, to)
    if (!isAttribute || (!text.includes('\n') && !text.includes('\t'))) return text
    return text.replace(ATTRIBUTE_WHITESPACE, ' ')
  }

  private checkReferences(from: number, to: number): void {
    for (let ampersand = this.ampersandIn(from, to); ampersand !== -1; ) {
      let end = this.checkedReferenceEnd(ampersand)
      if (end === -1) {
        this.reference(ampersand)
        end = this.referenceEnd
      }
      ampersand = this.ampersandIn(end, to)
    }
  }

  /**
   * The index after the reference at `ampersand` when it is one of the common, valid forms (a predefined entity,
   * a numeric reference to an allowed character), found without a regular expression or a string; else -1, and
   * reference() gives the verdict.
   */
  private checkedReferenceEnd(ampersand: number): number {
    const xml = this.xml
    const first = xml.charCodeAt(ampersand + 1)
    if (first !== HASH) {
      const entity = PREDEFINED_REFERENCE_BODIES.get(first)
      if (entity === undefined) return -1
      if (xml.startsWith(entity, ampersand + 1)) return ampersand + 1 + entity.length
      // amp; and apos; share their first letter.
      return first === 0x61 && xml.startsWith('apos;', ampersand + 1) ? ampersand + 6 : -1
    }
    const isHex = xml.charCodeAt(ampersand + 2) === LOWER_X
    let index = ampersand + (isHex ? 3 : 2)
    const digitsStart = index
    let codePoint = 0
    for (; index - digitsStart < 7; index++) {
      const digit = digitValue(xml.charCodeAt(index), isHex)
      if (digit === -1) break
      codePoint = codePoint * (isHex ? 16 : 10) + digit
    }
    if (index === digitsStart || xml.charCodeAt(index) !== SEMICOLON || !isXmlCharacter(codePoint)) return -1
    return index + 1
  }

  /** Decodes the reference at `ampersand`, leaving the index after it in referenceEnd; throws if it is invalid. */
  private reference(ampersand: number): string {
    REFERENCE.lastIndex = ampersand
    const match = REFERENCE.exec(this.xml)
    if (!match) {
      throw new XmlError(
        `The document is not well-formed XML: ${this.where()} contains an "&" that does not start a reference. ` +
          'Write &amp; for a literal "&".',
      )
    }
    const [whole, hex, decimal, entity] = match
    this.referenceEnd = ampersand + whole.length
    if (entity !== undefined) {
      const replacement = PREDEFINED_ENTITIES[entity]
      if (replacement === undefined) {
        throw new XmlError(
          `The document's ${this.where()} uses the entity ${whole}, which XML does not define (only &lt; &gt; &amp; ` +
            '&quot; &apos; and numeric references such as &#160; are allowed).',
        )
      }
      return replacement
    }
    const codePoint = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(decimal ?? '', 10)
    if (!isXmlCharacter(codePoint)) {
      throw new XmlError(
        `The document's ${this.where()} contains the reference ${whole}, which is not a character XML allows.`,
      )
    }
    return String.fromCodePoint(codePoint)
  }

  // ── Comments, CDATA, declarations, processing instructions ────────────────────────────────────────────────────

  private markupDeclaration(lt: number): number {
    const xml = this.xml
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4)
      if (end === -1) throw this.error(lt, 'a comment (<!-- … -->) is never closed.')
      const doubleHyphen = xml.indexOf('--', lt + 4)
      if (doubleHyphen < end) throw this.error(doubleHyphen, 'a comment contains "--", which XML does not allow.')
      return end + 3
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      if (this.depth === 0) throw this.error(lt, 'a CDATA section is outside the root element.')
      const start = lt + 9
      const end = xml.indexOf(']]>', start)
      if (end === -1) throw this.error(lt, 'a CDATA section (<![CDATA[ … ]]>) is never closed.')
      const rawContent = this.rawContent
      if (rawContent === null) {
        const element = this.openElement[this.depth - 1]
        if (element) element.text += xml.slice(start, end)
      } else if (this.depth === this.rawDepth) {
        rawContent.text += xml.slice(start, end)
        if (!rawContent.hasText && !this.isWhitespaceRange(start, end)) rawContent.hasText = true
      }
      return end + 3
    }
    const keyword = xml.slice(lt, lt + 9).toUpperCase()
    if (keyword === '<!DOCTYPE') {
      throw new XmlError(
        'The document declares a DOCTYPE, which is refused: document type and entity declarations can read ' +
          'local files or expand without bound. Send the document without its <!DOCTYPE …> part.',
      )
    }
    if (keyword.startsWith('<!ENTITY')) {
      throw new XmlError(
        'The document declares an entity (<!ENTITY …>), which is refused. Send it without entity declarations.',
      )
    }
    throw this.error(lt, 'a "<!" starts neither a comment nor a CDATA section.')
  }

  private processingInstruction(lt: number): number {
    const xml = this.xml
    const end = xml.indexOf('?>', lt + 2)
    if (end === -1) throw this.error(lt, 'a processing instruction (<? … ?>) is never closed.')
    PI_TARGET.lastIndex = lt + 2
    const target = PI_TARGET.exec(xml)?.[0]
    if (target === undefined) throw this.error(lt, 'a processing instruction has no name.')
    if (target.toLowerCase() === 'xml' && lt !== 0) {
      throw this.error(lt, 'the XML declaration (<?xml … ?>) must be the very first thing in the document.')
    }
    return end + 2
  }

  // ── Tags ──────────────────────────────────────────────────────────────────────────────────────────────────────

  private endTag(lt: number): number {
    const xml = this.xml
    const depth = this.depth
    if (depth > 0) {
      const openedAt = this.openAt[depth - 1] ?? 0
      const nameLength = (this.openNameEnd[depth - 1] ?? 0) - openedAt - 1
      let matches = true
      for (let offset = 1; offset <= nameLength; offset++) {
        if (xml.charCodeAt(lt + 1 + offset) !== xml.charCodeAt(openedAt + offset)) {
          matches = false
          break
        }
      }
      if (matches) {
        let index = lt + 2 + nameLength
        while (isWhitespace(xml.charCodeAt(index))) index++
        if (xml.charCodeAt(index) === GT) {
          this.close(lt)
          return index + 1
        }
      }
    }
    END_TAG.lastIndex = lt
    const name = END_TAG.exec(xml)?.[1]
    if (name === undefined) throw this.error(lt, 'a closing tag is malformed.')
    if (depth === 0) throw this.error(lt, `the closing tag </${name}> has no opening tag.`)
    const openedAt = this.openAt[depth - 1] ?? 0
    throw this.error(
      lt,
      `the closing tag </${name}> does not match <${this.qualifiedNameAt(openedAt)}> opened at ` +
        `${lineAndColumn(xml, openedAt)}.`,
    )
  }

  /** Closes the innermost open element, whose end tag starts at `endTagAt`. */
  private close(endTagAt: number): void {
    const depth = --this.depth
    const scopeMark = this.openScopeMark[depth] ?? 0
    if (this.undo.length > scopeMark) this.restoreScope(scopeMark)
    if (this.rawContent !== null) {
      if (depth === this.rawDepth - 1) {
        this.rawContent.end = endTagAt
        this.rawContent = null
      } else if (depth === this.rawDepth && this.rawChild) {
        this.rawChild.end = endTagAt
      }
    }
    this.openElement[depth] = null
    if (depth === 0) this.rootClosed = true
  }

  private restoreScope(mark: number): void {
    const undo = this.undo
    while (undo.length > mark) {
      const previous = undo.pop() as Binding | undefined
      const prefix = undo.pop() as string
      if (previous === undefined) this.bindings.delete(prefix)
      else this.bindings.set(prefix, previous)
    }
  }

  private startTag(lt: number): number {
    const xml = this.xml
    const nameEnd = this.scanName(lt + 1)
    if (nameEnd === lt + 1) {
      throw this.error(lt, 'a "<" does not start a tag. Write &lt; for a literal "<" in text.')
    }
    const nameColon = this.nameColon
    if (this.depth === 0 && this.rootClosed) {
      throw this.error(lt, `<${xml.slice(lt + 1, nameEnd)}> is a second root element; a document has exactly one.`)
    }
    if (this.depth + 1 > this.maxDepth) {
      throw new XmlError(
        `The document is nested too deeply: more than ${this.maxDepth} levels of elements (at ${lineAndColumn(xml, lt)}).`,
      )
    }
    this.tagAt = lt
    this.tagNameEnd = nameEnd
    this.readingTag = true
    const afterTag = this.readAttributes(nameEnd)
    const selfClosing = this.tagSelfClosing

    const depth = this.depth + 1
    const scopeMark = this.undo.length
    if (this.tagHasDeclarations) this.declareNamespaces(depth)

    const wasRaw = this.rawContent !== null
    if (wasRaw) this.checkRawElement(nameColon, depth, afterTag)
    else this.buildElement(nameColon, depth, afterTag, selfClosing)
    this.readingTag = false

    if (selfClosing) {
      if (this.undo.length > scopeMark) this.restoreScope(scopeMark)
      if (depth === 1) this.rootClosed = true
      return afterTag
    }
    const slot = this.depth++
    this.openAt[slot] = lt
    this.openNameEnd[slot] = nameEnd
    this.openScopeMark[slot] = scopeMark
    if (wasRaw || this.rawContent === null) return afterTag

    // This element's content is kept raw: try the quick check first; the general path has the last word.
    const endTagAt = this.checkRawQuickly(afterTag)
    if (endTagAt !== -1) return endTagAt
    this.restartRaw()
    return afterTag
  }

  /**
   * Checks raw content made only of the common constructs (ASCII names without prefixes, attributes other than
   * prefix declarations, character and predefined entity references, comments, CDATA) in one tight loop, and
   * returns the index of the raw element's end tag. Anything else, including every error, returns -1, and the
   * general path checks the content again from its start. This is what keeps large XHTML bodies cheap.
   */
  private checkRawQuickly(start: number): number {
    const xml = this.xml
    const rawContent = this.rawContent as RawContent
    const defaultNs = this.bindings.get('')?.uri ?? ''
    const levelsAllowed = this.maxDepth - this.depth
    const nameStarts = this.quickOpenNameStart
    const nameEnds = this.quickOpenNameEnd
    let depth = 0
    let child: RawChild | null = null
    let index = start
    for (;;) {
      const lt = this.nextLt >= index ? this.nextLt : xml.indexOf('<', index)
      if (lt === -1) return -1
      if (lt > index) {
        if (this.nextCdataEnd < index) this.nextCdataEnd = this.indexAtOrAfter(']]>', index)
        if (this.nextCdataEnd < lt) return -1
        if (depth > 0) {
          if (!this.hasOnlyCommonReferences(index, lt)) return -1
        } else {
          rawContent.text += this.decode(index, lt, false)
          if (!rawContent.hasText && !this.isWhitespaceRange(index, lt)) rawContent.hasText = true
        }
      }

      const next = xml.charCodeAt(lt + 1)
      if (next === SLASH) {
        if (depth === 0) return lt
        depth--
        const nameStart = nameStarts[depth] ?? 0
        const nameLength = (nameEnds[depth] ?? 0) - nameStart
        for (let offset = 0; offset < nameLength; offset++) {
          if (xml.charCodeAt(lt + 2 + offset) !== xml.charCodeAt(nameStart + offset)) return -1
        }
        let after = lt + 2 + nameLength
        while (isWhitespace(xml.charCodeAt(after))) after++
        if (xml.charCodeAt(after) !== GT) return -1
        if (depth === 0 && child) child.end = lt
        index = after + 1
        continue
      }
      if (next === BANG) {
        if (xml.startsWith('<!--', lt)) {
          const end = xml.indexOf('-->', lt + 4)
          if (end === -1 || xml.indexOf('--', lt + 4) < end) return -1
          index = end + 3
        } else if (xml.startsWith('<![CDATA[', lt)) {
          const end = xml.indexOf(']]>', lt + 9)
          if (end === -1) return -1
          if (depth === 0) {
            rawContent.text += xml.slice(lt + 9, end)
            if (!rawContent.hasText && !this.isWhitespaceRange(lt + 9, end)) rawContent.hasText = true
          }
          index = end + 3
        } else {
          return -1
        }
        continue
      }

      const nameStart = lt + 1
      const nameEnd = this.quickNameEnd(nameStart)
      if (nameEnd === -1) return -1
      let tagEnd = nameEnd
      let attributeCount = 0
      let selfClosing: boolean
      let elementNs = defaultNs
      for (;;) {
        let at = tagEnd
        while (isWhitespace(xml.charCodeAt(at))) at++
        const code = xml.charCodeAt(at)
        if (code === GT || (code === SLASH && xml.charCodeAt(at + 1) === GT)) {
          selfClosing = code === SLASH
          tagEnd = at + (selfClosing ? 2 : 1)
          break
        }
        if (at === tagEnd) return -1
        const attributeNameEnd = this.quickNameEnd(at)
        if (attributeNameEnd === -1) return -1
        const isDefaultDeclaration = attributeNameEnd - at === 5 && xml.startsWith('xmlns', at)
        if (!isDefaultDeclaration && xml.startsWith('xmlns', at)) return -1
        for (let other = 0; other < attributeCount; other++) {
          if (this.sameAttributeName(other, at, attributeNameEnd)) return -1
        }
        let valueStart = attributeNameEnd
        while (isWhitespace(xml.charCodeAt(valueStart))) valueStart++
        if (xml.charCodeAt(valueStart) !== EQUALS) return -1
        valueStart++
        while (isWhitespace(xml.charCodeAt(valueStart))) valueStart++
        const quote = xml.charCodeAt(valueStart)
        if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return -1
        valueStart++
        const valueEnd = xml.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", valueStart)
        if (valueEnd === -1) return -1
        if (attributeCount === 0) this.nextLt = xml.indexOf('<', valueStart)
        if (this.nextLt !== -1 && this.nextLt < valueEnd) return -1
        if (!this.hasOnlyCommonReferences(valueStart, valueEnd)) return -1
        if (isDefaultDeclaration) {
          // A default namespace only decides the namespace of top-level elements here; reserved ones go the long way.
          if (this.ampersandIn(valueStart, valueEnd) !== -1) return -1
          const uri = xml.slice(valueStart, valueEnd)
          if (uri === XML_NS || uri === XMLNS_NS) return -1
          elementNs = KNOWN_NAMESPACES.get(uri) ?? uri
        }
        this.attributeNameStart[attributeCount] = at
        this.attributeNameEnd[attributeCount] = attributeNameEnd
        attributeCount++
        tagEnd = valueEnd + 1
      }

      if (depth + 1 > levelsAllowed) return -1
      if (depth === 0) {
        const name = xml.slice(nameStart, nameEnd)
        child = { source: xml, start: tagEnd, end: tagEnd, declarations: [], ns: elementNs, name }
        rawContent.children.push(child)
      }
      if (!selfClosing) {
        nameStarts[depth] = nameStart
        nameEnds[depth] = nameEnd
        depth++
      }
      index = tagEnd
    }
  }

  /** The end of the ASCII name without a colon at `start`; -1 when there is none or it may be anything else. */
  private quickNameEnd(start: number): number {
    const xml = this.xml
    let code = xml.charCodeAt(start)
    if (!(code < 128) || ((ASCII_NAME[code] ?? 0) & MAY_START_NAME) === 0 || code === COLON) return -1
    let end = start + 1
    for (;;) {
      code = xml.charCodeAt(end)
      if (code < 128 && code !== COLON && ((ASCII_NAME[code] ?? 0) & MAY_CONTINUE_NAME) !== 0) end++
      else return code >= 128 || code === COLON ? -1 : end
    }
  }

  private hasOnlyCommonReferences(from: number, to: number): boolean {
    for (let ampersand = this.ampersandIn(from, to); ampersand !== -1; ) {
      const end = this.checkedReferenceEnd(ampersand)
      if (end === -1) return false
      ampersand = this.ampersandIn(end, to)
    }
    return true
  }

  /** Forgets what the quick check found, so that the general path starts the raw content afresh. */
  private restartRaw(): void {
    const rawContent = this.rawContent as RawContent
    rawContent.text = ''
    rawContent.hasText = false
    rawContent.children.length = 0
    this.rawChild = null
    // The cached positions may lie beyond things the general path has yet to see.
    this.nextLt = -1
    this.nextAmpersand = -1
    this.nextCdataEnd = -1
  }

  /** Reads the attributes after a tag name into the attribute stacks; returns the index after the tag. */
  private readAttributes(nameEnd: number): number {
    const xml = this.xml
    let count = 0
    let index = nameEnd
    this.tagHasDeclarations = false
    this.tagHasPrefixedAttributes = false
    for (;;) {
      const afterSpace = this.skipWhitespace(index)
      const code = xml.charCodeAt(afterSpace)
      if (code === GT || (code === SLASH && xml.charCodeAt(afterSpace + 1) === GT)) {
        this.attributeCount = count
        this.tagSelfClosing = code === SLASH
        return afterSpace + (code === SLASH ? 2 : 1)
      }
      if (afterSpace === index) throw this.malformedTag(afterSpace)
      const attributeNameEnd = this.scanName(afterSpace)
      if (attributeNameEnd === afterSpace) throw this.malformedTag(afterSpace)
      const colon = this.nameColon
      let valueStart = this.skipWhitespace(attributeNameEnd)
      if (xml.charCodeAt(valueStart) !== EQUALS) throw this.malformedTag(afterSpace)
      valueStart = this.skipWhitespace(valueStart + 1)
      const quote = xml.charCodeAt(valueStart)
      if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) throw this.malformedTag(afterSpace)
      valueStart++
      const valueEnd = xml.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", valueStart)
      if (valueEnd === -1) throw this.malformedTag(afterSpace)
      // One search per tag finds the first "<" after the name; a valid tag has none before its end, and the main
      // loop reuses the answer as the next tag.
      if (count === 0) this.nextLt = xml.indexOf('<', valueStart)
      if (this.nextLt !== -1 && this.nextLt < valueEnd) throw this.malformedTag(afterSpace)

      for (let other = 0; other < count; other++) {
        if (this.sameAttributeName(other, afterSpace, attributeNameEnd)) {
          throw this.error(
            this.tagAt,
            `<${xml.slice(this.tagAt + 1, this.tagNameEnd)}> has the attribute "${xml.slice(afterSpace, attributeNameEnd)}" twice.`,
          )
        }
      }
      const isDeclaration =
        xml.startsWith('xmlns', afterSpace) && (attributeNameEnd - afterSpace === 5 || colon === afterSpace + 5)
      if (isDeclaration) this.tagHasDeclarations = true
      else if (colon !== -1) this.tagHasPrefixedAttributes = true
      // Raw content is never decoded, so its references are checked here; built values are checked as decoded.
      if (this.rawContent !== null) this.checkReferences(valueStart, valueEnd)
      this.attributeNameStart[count] = afterSpace
      this.attributeNameEnd[count] = attributeNameEnd
      this.attributeColon[count] = colon
      this.attributeValueStart[count] = valueStart
      this.attributeValueEnd[count] = valueEnd
      this.attributeIsDeclaration[count] = isDeclaration
      count++
      index = valueEnd + 1
    }
  }

  private malformedTag(index: number): XmlError {
    return this.error(
      index,
      `the tag <${this.xml.slice(this.tagAt + 1, this.tagNameEnd)}> is malformed: attributes must look like ` +
        'name="value" (quoted, separated by spaces, without "<"), and the tag must end with ">".',
    )
  }

  private skipWhitespace(index: number): number {
    const xml = this.xml
    while (isWhitespace(xml.charCodeAt(index))) index++
    return index
  }

  private sameAttributeName(attribute: number, start: number, end: number): boolean {
    const otherStart = this.attributeNameStart[attribute] ?? 0
    if ((this.attributeNameEnd[attribute] ?? 0) - otherStart !== end - start) return false
    const xml = this.xml
    for (let offset = 0; offset < end - start; offset++) {
      if (xml.charCodeAt(otherStart + offset) !== xml.charCodeAt(start + offset)) return false
    }
    return true
  }

  /** Brings the tag's namespace declarations into scope for an element at `depth`. */
  private declareNamespaces(depth: number): void {
    const xml = this.xml
    for (let attribute = 0; attribute < this.attributeCount; attribute++) {
      if (!this.attributeIsDeclaration[attribute]) continue
      const name = xml.slice(this.attributeNameStart[attribute], this.attributeNameEnd[attribute])
      const uri = this.decode(this.attributeValueStart[attribute] ?? 0, this.attributeValueEnd[attribute] ?? 0, true)
      const prefix = name === 'xmlns' ? '' : name.slice('xmlns:'.length)
      const where = `<${xml.slice(this.tagAt + 1, this.tagNameEnd)}>`
      if (name !== 'xmlns' && (prefix === '' || prefix.includes(':'))) {
        throw new XmlError(`The document's ${where} has the namespace declaration "${name}", which names no valid prefix.`)
      }
      if (prefix === 'xmlns') {
        throw new XmlError(`The document's ${where} declares the reserved prefix "xmlns:"; remove that declaration.`)
      }
      if (uri === XMLNS_NS || (uri === XML_NS) !== (prefix === 'xml')) {
        throw new XmlError(
          `The document's ${where} binds a reserved namespace or prefix ("${prefix || 'default'}" = "${uri}"); ` +
            'remove that declaration.',
        )
      }
      this.undo.push(prefix, this.bindings.get(prefix))
      // The same string object for a known namespace makes every later comparison with it instant.
      this.bindings.set(prefix, { uri: KNOWN_NAMESPACES.get(uri) ?? uri, depth })
    }
  }

  /** The binding of the prefix of the name [start, end) whose colon is at `colon`; throws when undeclared. */
  private bindingOf(start: number, colon: number, end: number): Binding {
    const xml = this.xml
    let valid = colon > start && colon < end - 1
    for (let index = colon + 1; valid && index < end; index++) valid = xml.charCodeAt(index) !== COLON
    if (!valid) {
      const where = `<${xml.slice(this.tagAt + 1, this.tagNameEnd)}>`
      throw new XmlError(
        `The document's ${where} uses the name "${xml.slice(start, end)}", which is not a valid namespaced name.`,
      )
    }
    const prefix = xml.slice(start, colon)
    const binding = this.bindings.get(prefix)
    if (!binding || binding.uri === '') {
      const where = `<${xml.slice(this.tagAt + 1, this.tagNameEnd)}>`
      throw new XmlError(`The document's ${where} uses the prefix "${prefix}:" without declaring it (xmlns:${prefix}="…").`)
    }
    return binding
  }

  private buildElement(nameColon: number, depth: number, afterTag: number, selfClosing: boolean): void {
    const xml = this.xml
    const nameStart = this.tagAt + 1
    const nameEnd = this.tagNameEnd
    let ns: string
    let name: string
    if (nameColon === -1) {
      ns = this.bindings.get('')?.uri ?? ''
      name = xml.slice(nameStart, nameEnd)
    } else {
      ns = this.bindingOf(nameStart, nameColon, nameEnd).uri
      name = xml.slice(nameColon + 1, nameEnd)
    }

    const attributes: Record<string, string> = Object.create(null)
    let prefixedCount = 0
    for (let attribute = 0; attribute < this.attributeCount; attribute++) {
      if (this.attributeIsDeclaration[attribute]) continue
      const start = this.attributeNameStart[attribute] ?? 0
      const end = this.attributeNameEnd[attribute] ?? 0
      const colon = this.attributeColon[attribute] ?? -1
      let key: string
      if (colon === -1) {
        key = xml.slice(start, end)
      } else {
        key = `{${this.bindingOf(start, colon, end).uri}}${xml.slice(colon + 1, end)}`
        if (++prefixedCount > 1 && Object.hasOwn(attributes, key)) {
          throw new XmlError(
            `The document is not well-formed XML: <${xml.slice(nameStart, nameEnd)}> has the attribute ${key} twice, ` +
              'through two prefixes.',
          )
        }
      }
      attributes[key] = this.decode(this.attributeValueStart[attribute] ?? 0, this.attributeValueEnd[attribute] ?? 0, true)
    }

    const element: XmlElement = { ns, name, attributes, children: [], text: '' }
    const parent = depth > 1 ? (this.openElement[depth - 2] ?? null) : null
    if (parent) parent.children.push(element)
    else this.root = element

    if (this.keepRaw?.(element, parent)) {
      const rawContent: RawContent = {
        source: xml,
        start: afterTag,
        end: afterTag,
        declarations: [],
        text: '',
        hasText: false,
        children: [],
      }
      this.raw.set(element, rawContent)
      if (!selfClosing) {
        this.rawContent = rawContent
        this.rawDepth = depth
        this.rawChild = null
      }
    }
    if (!selfClosing) this.openElement[depth - 1] = element
  }

  /**
   * Checks a start tag inside raw content without building anything. Prefixes it uses that were declared outside
   * the raw content (or outside its top-level element) are recorded, so the markup can be cut out and still stand.
   */
  private checkRawElement(nameColon: number, depth: number, afterTag: number): void {
    const rawContent = this.rawContent as RawContent
    const xml = this.xml
    const nameStart = this.tagAt + 1
    const nameEnd = this.tagNameEnd
    const level = depth - this.rawDepth

    if (level === 1) {
      this.topLevelTagAt = nameEnd
      const child: RawChild = {
        source: xml,
        start: afterTag,
        end: afterTag,
        declarations: [],
        ns: nameColon === -1 ? (this.bindings.get('')?.uri ?? '') : '',
        name: xml.slice(nameColon === -1 ? nameStart : nameColon + 1, nameEnd),
      }
      rawContent.children.push(child)
      this.rawChild = child
    } else if (level === 2) {
      this.secondLevelTagAt = nameEnd
    }

    if (nameColon !== -1) {
      const binding = this.bindingOf(nameStart, nameColon, nameEnd)
      if (level === 1 && this.rawChild) this.rawChild.ns = binding.uri
      this.notePrefixUse(xml.slice(nameStart, nameColon), binding, level)
    }

    if (this.tagHasPrefixedAttributes) this.checkRawPrefixedAttributes(level)
  }

  private checkRawPrefixedAttributes(level: number): void {
    const xml = this.xml
    let firstPrefixedKey: string | null = null
    let prefixedKeys: Set<string> | null = null
    for (let attribute = 0; attribute < this.attributeCount; attribute++) {
      const colon = this.attributeColon[attribute] ?? -1
      if (colon === -1 || this.attributeIsDeclaration[attribute]) continue
      const start = this.attributeNameStart[attribute] ?? 0
      const end = this.attributeNameEnd[attribute] ?? 0
      const binding = this.bindingOf(start, colon, end)
      this.notePrefixUse(xml.slice(start, colon), binding, level)
      const key = `{${binding.uri}}${xml.slice(colon + 1, end)}`
      if (firstPrefixedKey === null) {
        firstPrefixedKey = key
        continue
      }
      prefixedKeys ??= new Set([firstPrefixedKey])
      if (prefixedKeys.has(key)) {
        throw new XmlError(
          `The document is not well-formed XML: <${xml.slice(this.tagAt + 1, this.tagNameEnd)}> has the attribute ` +
            `${key} twice, through two prefixes.`,
        )
      }
      prefixedKeys.add(key)
    }
  }

  private notePrefixUse(prefix: string, binding: Binding, level: number): void {
    if (binding.depth === 0) return // xml:, bound in every document
    const declaredAtLevel = binding.depth - this.rawDepth
    if (declaredAtLevel <= 0) addDeclaration(this.rawContent?.declarations, this.topLevelTagAt, prefix, binding.uri)
    if (level >= 2 && declaredAtLevel <= 1) {
      addDeclaration(this.rawChild?.declarations, this.secondLevelTagAt, prefix, binding.uri)
    }
  }
}

function addDeclaration(list: NeededDeclaration[] | undefined, at: number, prefix: string, uri: string): void {
  if (!list || list.some((declaration) => declaration.at === at && declaration.prefix === prefix)) return
  list.push({ at, prefix, uri })
}
