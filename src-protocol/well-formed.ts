// What XML 1.0 requires of a document and fast-xml-parser does not check: its parser reads mismatched tags, two
// roots, undefined entities, "<" in attribute values and DOCTYPEs without complaint, and its XMLValidator accepts
// most of these too (and costs 10–13× JSON.parse on its own, over the codec's whole budget). One forward pass over
// the document, jumping from "<" to "<"; it builds nothing. Every search for the next "&" or "]]>" is reused until
// passed, so the pass stays linear whatever the document holds.
import { NAME } from './xml-names'
import { isXmlCharacter } from './xml-characters'
import { XmlError } from './xml-error'
import { isWhitespace } from './xml-text'

export interface WellFormednessLimits {
  maxDepth: number
  maxAttributes: number
}

// Each pattern comes twice: for ASCII names, and for any XML name when the quick one does not match. The u flag,
// which the second needs, makes a pattern several times slower.
const ASCII_NAME = '[A-Za-z_:][A-Za-z0-9_:.-]*'
// A name alone must not stop short of a character beyond ASCII.
const nameAt = bothWays((name) => (name === ASCII_NAME ? `${name}(?![\\w:.\\u0080-\\uFFFF-])` : name))
const endTagAt = bothWays((name) => `</(${name})[\\t\\n\\r ]*>`)
// One attribute after its separating whitespace: the value quoted, without "<".
const attributeAt = bothWays((name) => `[\\t\\n\\r ]+(${name})[\\t\\n\\r ]*=[\\t\\n\\r ]*(?:"([^"<]*)"|'([^'<]*)')`)

/** A matcher at one position of `pattern` around an XML name: tried with ASCII names, then with any. */
function bothWays(pattern: (name: string) => string): (xml: string, at: number) => RegExpExecArray | null {
  const ascii = new RegExp(pattern(ASCII_NAME), 'y')
  const any = new RegExp(pattern(NAME), 'uy')
  return (xml, at) => {
    ascii.lastIndex = at
    const match = ascii.exec(xml)
    if (match) return match
    any.lastIndex = at
    return any.exec(xml)
  }
}
const TAG_END = /[\t\n\r ]*(\/?)>/y
const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([A-Za-z_][\w.-]*));/y
const PREDEFINED_ENTITIES = new Set(['lt', 'gt', 'amp', 'quot', 'apos'])
const NOTHING_AHEAD = Number.MAX_SAFE_INTEGER

/** Line and column of `index`, for messages (counted only when there is something to report). */
export function lineAndColumn(xml: string, index: number): string {
  let line = 1
  let lineStart = 0
  for (let at = xml.indexOf('\n'); at !== -1 && at < index; at = xml.indexOf('\n', at + 1)) {
    line++
    lineStart = at + 1
  }
  return `line ${line}, column ${index - lineStart + 1}`
}

export function notWellFormed(xml: string, index: number, problem: string): XmlError {
  return new XmlError(`The document is not well-formed XML (${lineAndColumn(xml, index)}): ${problem}`)
}

/**
 * Throws XmlError, saying what and where, unless `xml` (line breaks already normalised, characters already checked)
 * is one well-formed element with nothing but comments, processing instructions and whitespace around it, and no
 * DOCTYPE or entity declaration anywhere: no external entity is ever fetched, no expansion ever happens.
 */
export function checkWellFormed(xml: string, limits: WellFormednessLimits): void {
  new WellFormednessCheck(xml, limits).run()
}

class WellFormednessCheck {
  private readonly openNames: string[] = []
  private readonly openAt: number[] = []
  private rootClosed = false
  private nextAmpersand = -1
  private nextCdataEnd = -1

  constructor(
    private readonly xml: string,
    private readonly limits: WellFormednessLimits,
  ) {}

  run(): void {
    const xml = this.xml
    let index = 0
    for (;;) {
      const lt = xml.indexOf('<', index)
      const textEnd = lt === -1 ? xml.length : lt
      if (textEnd > index) this.text(index, textEnd)
      if (lt === -1) break
      const next = xml[lt + 1]
      if (next === '/') index = this.endTag(lt)
      else if (next === '?') index = this.processingInstruction(lt)
      else if (next === '!') index = this.markupDeclaration(lt)
      else index = this.startTag(lt)
    }
    const open = this.openNames.length
    if (open > 0) {
      const openedAt = this.openAt[open - 1] ?? 0
      throw notWellFormed(
        xml,
        xml.length,
        `the document ends before <${this.openNames[open - 1]}> (opened at ${lineAndColumn(xml, openedAt)}) is closed.`,
      )
    }
    if (!this.rootClosed) throw new XmlError('The document is empty: it contains no XML element.')
  }

  private error(index: number, problem: string): XmlError {
    return notWellFormed(this.xml, index, problem)
  }

  /** `<name>` of the innermost open element, for messages. */
  private where(): string {
    const name = this.openNames.at(-1)
    return name === undefined ? 'the document' : `<${name}>`
  }

  private text(from: number, to: number): void {
    if (this.openNames.length === 0) {
      if (!isWhitespace(this.xml.slice(from, to))) throw this.error(from, 'there is text outside the root element.')
      return
    }
    if (this.nextCdataEnd < from) this.nextCdataEnd = this.indexAtOrAfter(']]>', from)
    if (this.nextCdataEnd < to) {
      throw this.error(this.nextCdataEnd, 'the text contains "]]>", which XML allows only to end a CDATA section.')
    }
    this.checkReferences(from, to)
  }

  private indexAtOrAfter(search: string, from: number): number {
    const found = this.xml.indexOf(search, from)
    return found === -1 ? NOTHING_AHEAD : found
  }

  /** Refuses any "&" in [from, to) that does not start a predefined entity or a reference to an XML character. */
  private checkReferences(from: number, to: number): void {
    if (this.nextAmpersand < from) this.nextAmpersand = this.indexAtOrAfter('&', from)
    while (this.nextAmpersand < to) {
      const ampersand = this.nextAmpersand
      REFERENCE.lastIndex = ampersand
      const match = REFERENCE.exec(this.xml)
      if (!match) {
        throw new XmlError(
          `The document is not well-formed XML: ${this.where()} contains an "&" that does not start a reference. ` +
            'Write &amp; for a literal "&".',
        )
      }
      const [whole, hex, decimal, entity] = match
      if (entity !== undefined && !PREDEFINED_ENTITIES.has(entity)) {
        throw new XmlError(
          `The document's ${this.where()} uses the entity ${whole}, which XML does not define (only &lt; &gt; &amp; ` +
            '&quot; &apos; and numeric references such as &#160; are allowed).',
        )
      }
      if (entity === undefined) {
        const digits = hex ?? decimal ?? ''
        const codePoint = digits.length > 7 ? -1 : Number.parseInt(digits, hex === undefined ? 10 : 16)
        if (!isXmlCharacter(codePoint)) {
          throw new XmlError(
            `The document's ${this.where()} contains the reference ${whole}, which is not a character XML allows.`,
          )
        }
      }
      this.nextAmpersand = this.indexAtOrAfter('&', ampersand + whole.length)
    }
  }

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
      if (this.openNames.length === 0) throw this.error(lt, 'a CDATA section is outside the root element.')
      const end = xml.indexOf(']]>', lt + 9)
      if (end === -1) throw this.error(lt, 'a CDATA section (<![CDATA[ … ]]>) is never closed.')
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
    const target = nameAt(xml, lt + 2)?.[0]
    const after = lt + 2 + (target?.length ?? 0)
    if (target === undefined || (after < end && !/[\t\n\r ]/.test(xml[after] ?? ''))) {
      throw this.error(lt, 'a processing instruction has no name.')
    }
    if (target.includes(':')) throw this.error(lt, `the processing instruction name "${target}" holds a colon.`)
    if (target.toLowerCase() === 'xml' && lt !== 0) {
      throw this.error(lt, 'the XML declaration (<?xml … ?>) must be the very first thing in the document.')
    }
    return end + 2
  }

  private endTag(lt: number): number {
    const open = this.openNames.length
    const innermost = this.openNames[open - 1]
    // The common case, the innermost element's end tag written plainly, without a regular expression.
    if (innermost !== undefined && this.xml.startsWith(innermost, lt + 2) && this.xml[lt + 2 + innermost.length] === '>') {
      this.close(open)
      return lt + 3 + innermost.length
    }
    const match = endTagAt(this.xml, lt)
    if (!match) throw this.error(lt, 'a closing tag is malformed.')
    const name = match[1]
    if (open === 0) throw this.error(lt, `the closing tag </${name}> has no opening tag.`)
    if (name !== this.openNames[open - 1]) {
      throw this.error(
        lt,
        `the closing tag </${name}> does not match <${this.openNames[open - 1]}> opened at ` +
          `${lineAndColumn(this.xml, this.openAt[open - 1] ?? 0)}.`,
      )
    }
    this.close(open)
    return lt + match[0].length
  }

  private close(open: number): void {
    this.openNames.pop()
    this.openAt.pop()
    if (open === 1) this.rootClosed = true
  }

  private startTag(lt: number): number {
    const xml = this.xml
    const name = nameAt(xml, lt + 1)?.[0]
    if (name === undefined) throw this.error(lt, 'a "<" does not start a tag. Write &lt; for a literal "<" in text.')
    const depth = this.openNames.length
    if (depth === 0 && this.rootClosed) {
      throw this.error(lt, `<${name}> is a second root element; a document has exactly one.`)
    }
    if (depth + 1 > this.limits.maxDepth) {
      throw new XmlError(
        `The document is nested too deeply: more than ${this.limits.maxDepth} levels of elements ` +
          `(at ${lineAndColumn(xml, lt)}).`,
      )
    }
    let index = lt + 1 + name.length
    let firstName: string | null = null
    // Most tags have one attribute or none: the set of names is made for the second.
    let names: Set<string> | null = null
    for (;;) {
      const next = xml.charCodeAt(index)
      if (next === 0x3e || next === 0x2f) break // ">" or "/>"
      const attribute = attributeAt(xml, index)
      if (!attribute) break
      const attributeName = attribute[1] ?? ''
      if (firstName === null) {
        firstName = attributeName
      } else {
        names ??= new Set([firstName])
        if (names.has(attributeName)) throw this.error(lt, `<${name}> has the attribute "${attributeName}" twice.`)
        names.add(attributeName)
      }
      if (names !== null && names.size > this.limits.maxAttributes) {
        throw new XmlError(
          `The document's <${name}> (at ${lineAndColumn(xml, lt)}) has more than ${this.limits.maxAttributes} ` +
            'attributes, which is more than any element here needs.',
        )
      }
      const valueEnd = index + attribute[0].length - 1
      const value = attribute[2] ?? attribute[3] ?? ''
      this.checkReferences(valueEnd - value.length, valueEnd)
      index = valueEnd + 1
    }
    TAG_END.lastIndex = index
    const end = TAG_END.exec(xml)
    if (!end) {
      throw this.error(
        index,
        `the tag <${name}> is malformed: attributes must look like name="value" (quoted, separated by spaces, ` +
          'without "<"), and the tag must end with ">".',
      )
    }
    if (end[1] === '/') {
      if (depth === 0) this.rootClosed = true
    } else {
      this.openNames.push(name)
      this.openAt.push(lt)
    }
    return TAG_END.lastIndex
  }
}
