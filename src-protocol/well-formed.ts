import { NOT_XML_CHARACTER } from './xml-characters'
import { XmlError } from './xml-error'

// fast-xml-parser builds the tree but forgives what XML forbids (a stray closing tag just pops, a broken attribute
// is dropped, a DOCTYPE's entities are expanded). This scan runs first, hopping from '<' to '<', and refuses those
// documents with a message a person can act on. Entity and character references are checked when they are decoded.

// XML's Name production (the regular expressions using it need the u flag, for the astral range).
const NAME_START_CHARS =
  'A-Z_a-z:\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}'
// Combining marks open the class: after another character they would read as one combined character.
const NAME_CHARS = '\\u0300-\\u036F' + NAME_START_CHARS + '\\-.0-9\\u00B7\\u203F-\\u2040'
const NAME = `[${NAME_START_CHARS}][${NAME_CHARS}]*`

const START_TAG_NAME = new RegExp(NAME, 'uy')
const ATTRIBUTE = new RegExp(`[\\t\\n\\r ]+(${NAME})[\\t\\n\\r ]*=[\\t\\n\\r ]*(?:"[^"<]*"|'[^'<]*')`, 'uy')
const START_TAG_END = /[\t\n\r ]*(\/?)>/y
const END_TAG = new RegExp(`</(${NAME})[\\t\\n\\r ]*>`, 'uy')
const END_TAG_REST = /[\t\n\r ]*>/y
const WHITESPACE_RUN = /[\t\n\r ]*/y

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

function matchAt(pattern: RegExp, xml: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index
  return pattern.exec(xml)
}

function isWhitespaceOnly(xml: string, from: number, to: number): boolean {
  WHITESPACE_RUN.lastIndex = from
  WHITESPACE_RUN.exec(xml)
  return WHITESPACE_RUN.lastIndex >= to
}

function refuseDeclaration(xml: string, index: number): never {
  const keyword = xml.slice(index, index + 9).toUpperCase()
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
  throw notWellFormed(xml, index, 'a "<!" starts neither a comment nor a CDATA section.')
}

/** Throws XmlError unless `xml` is one well-formed element tree, without DOCTYPE, no deeper than `maxDepth`. */
export function checkWellFormed(xml: string, maxDepth: number): void {
  const forbidden = NOT_XML_CHARACTER.exec(xml)
  if (forbidden) {
    const code = (forbidden[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')
    throw notWellFormed(xml, forbidden.index, `it contains the character U+${code}, which XML does not allow.`)
  }

  const open: { name: string; at: number }[] = []
  let rootClosed = false
  let index = 0
  for (;;) {
    const lt = xml.indexOf('<', index)
    const textEnd = lt === -1 ? xml.length : lt
    if (open.length === 0 && textEnd > index && !isWhitespaceOnly(xml, index, textEnd)) {
      throw notWellFormed(xml, index, 'there is text outside the root element.')
    }
    if (lt === -1) break

    const next = xml.charCodeAt(lt + 1)
    if (next === 0x2f /* / */) {
      index = checkEndTag(xml, lt, open)
      if (open.length === 0) rootClosed = true
    } else if (next === 0x3f /* ? */) {
      const end = xml.indexOf('?>', lt + 2)
      if (end === -1) throw notWellFormed(xml, lt, 'a processing instruction (<? … ?>) is never closed.')
      const target = matchAt(START_TAG_NAME, xml, lt + 2)?.[0]
      if (target === undefined) throw notWellFormed(xml, lt, 'a processing instruction has no name.')
      if (target.toLowerCase() === 'xml' && lt !== 0) {
        throw notWellFormed(xml, lt, 'the XML declaration (<?xml … ?>) must be the very first thing in the document.')
      }
      index = end + 2
    } else if (next === 0x21 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4)
        if (end === -1) throw notWellFormed(xml, lt, 'a comment (<!-- … -->) is never closed.')
        index = end + 3
      } else if (xml.startsWith('<![CDATA[', lt)) {
        if (open.length === 0) throw notWellFormed(xml, lt, 'a CDATA section is outside the root element.')
        const end = xml.indexOf(']]>', lt + 9)
        if (end === -1) throw notWellFormed(xml, lt, 'a CDATA section (<![CDATA[ … ]]>) is never closed.')
        index = end + 3
      } else {
        refuseDeclaration(xml, lt)
      }
    } else {
      index = checkStartTag(xml, lt, open, rootClosed, maxDepth)
      if (open.length === 0) rootClosed = true // a self-closing root element
    }
  }

  const unclosed = open.pop()
  if (unclosed) {
    const openedAt = lineAndColumn(xml, unclosed.at)
    throw notWellFormed(xml, xml.length, `the document ends before <${unclosed.name}> (opened at ${openedAt}) is closed.`)
  }
  if (!rootClosed) throw new XmlError('The document is empty: it contains no XML element.')
}

/** Checks that the end tag at `lt` closes the innermost open element, closes it, and returns the index after it. */
function checkEndTag(xml: string, lt: number, open: { name: string; at: number }[]): number {
  const opened = open.pop()
  // The common case, the expected name, is checked without a regular expression over the name.
  if (opened && xml.startsWith(opened.name, lt + 2)) {
    const rest = matchAt(END_TAG_REST, xml, lt + 2 + opened.name.length)
    if (rest) return END_TAG_REST.lastIndex
  }
  const name = matchAt(END_TAG, xml, lt)?.[1]
  if (name === undefined) throw notWellFormed(xml, lt, 'a closing tag is malformed.')
  if (!opened) throw notWellFormed(xml, lt, `the closing tag </${name}> has no opening tag.`)
  throw notWellFormed(
    xml,
    lt,
    `the closing tag </${name}> does not match <${opened.name}> opened at ${lineAndColumn(xml, opened.at)}.`,
  )
}

/** Checks the start tag at `lt`, records it in `open`, and returns the index just after it. */
function checkStartTag(
  xml: string,
  lt: number,
  open: { name: string; at: number }[],
  rootClosed: boolean,
  maxDepth: number,
): number {
  const name = matchAt(START_TAG_NAME, xml, lt + 1)?.[0]
  if (name === undefined) {
    throw notWellFormed(xml, lt, 'a "<" does not start a tag. Write &lt; for a literal "<" in text.')
  }
  if (open.length === 0 && rootClosed) {
    throw notWellFormed(xml, lt, `<${name}> is a second root element; a document has exactly one.`)
  }
  if (open.length + 1 > maxDepth) {
    throw new XmlError(
      `The document is nested too deeply: more than ${maxDepth} levels of elements (at ${lineAndColumn(xml, lt)}).`,
    )
  }

  let index = START_TAG_NAME.lastIndex
  let attributeNames: Set<string> | undefined
  for (let attribute = matchAt(ATTRIBUTE, xml, index); attribute; attribute = matchAt(ATTRIBUTE, xml, index)) {
    const attributeName = attribute[1] ?? ''
    attributeNames ??= new Set()
    if (attributeNames.has(attributeName)) {
      throw notWellFormed(xml, lt, `<${name}> has the attribute "${attributeName}" twice.`)
    }
    attributeNames.add(attributeName)
    index = ATTRIBUTE.lastIndex
  }

  const end = matchAt(START_TAG_END, xml, index)
  if (!end) {
    throw notWellFormed(
      xml,
      index,
      `the tag <${name}> is malformed: attributes must look like name="value" (quoted, separated by spaces, ` +
        'without "<"), and the tag must end with ">".',
    )
  }
  if (end[1] === '') open.push({ name, at: lt })
  return START_TAG_END.lastIndex
}
