// Reading XML documents: one pass checks the document (the size limit, XML's Char range in xml-characters,
// well-formedness and the refusal of DOCTYPEs in well-formed), one more builds the tree from the checked markup,
// resolving namespaces (namespace-scope) and keeping chosen content as written (raw-content).
import { Buffer } from 'node:buffer'
import { NamespaceScope, isNamespaceDeclaration, twoPrefixesError } from './namespace-scope'
import { ATTRIBUTE, MARKUP_PART, readRawContent, type RawContent } from './raw-content'
import { checkWellFormed, notWellFormed } from './well-formed'
import { SUSPECT_CHARACTER } from './xml-characters'
import { XmlError } from './xml-error'
import { decodeAttribute, decodeText } from './xml-text'

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

export interface ReadXmlOptions extends XmlLimits {
  /**
   * Asked for every element that is built: true keeps the element's content as markup (checked completely, never
   * built); the element then has no children and no text, and its content is in the result's `raw`.
   */
  keepRaw?: (element: XmlElement, parent: XmlElement | null) => boolean
}

export interface ReadXmlResult {
  root: XmlElement
  raw: Map<XmlElement, RawContent>
}

/** The largest document the reader takes unless told otherwise. */
export const MAX_XML_BYTES = 16 * 1024 * 1024
const DEFAULT_MAX_DEPTH = 64
/** Attributes one element may have: far more than any Atom or XHTML element needs, and a bound on the work. */
const MAX_ATTRIBUTES_PER_ELEMENT = 256

/** Parses a whole document into its root element, resolving namespaces. Throws XmlError for anything it refuses. */
export function parseXml(xml: string, limits: XmlLimits = {}): XmlElement {
  return readXml(xml, limits).root
}

/** Checks a whole document and builds its element tree, except the content of the elements `keepRaw` keeps. */
export function readXml(xml: string, options: ReadXmlOptions = {}): ReadXmlResult {
  return new TreeBuilder(checkXml(xml, options), options.keepRaw ?? null).read()
}

/**
 * Checks a whole document without building anything: what readXml refuses but for namespaces, which only a reading
 * of its elements resolves. Answers the document as readers index it (no byte order mark, line breaks as XML reads them).
 */
export function checkXml(xml: string, limits: XmlLimits = {}): string {
  const source = prepare(xml, limits.maxBytes ?? MAX_XML_BYTES)
  checkWellFormed(source, { maxDepth: limits.maxDepth ?? DEFAULT_MAX_DEPTH, maxAttributes: MAX_ATTRIBUTES_PER_ELEMENT })
  return source
}

/** The document without its byte order mark and with line breaks as XML reads them, or a refusal. */
function prepare(xml: string, maxBytes: number): string {
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so only long strings need counting.
  if (xml.length > maxBytes || (xml.length * 3 > maxBytes && Buffer.byteLength(xml, 'utf8') > maxBytes)) {
    throw new XmlError(`The document is too large: the limit is ${describeBytes(maxBytes)}.`)
  }
  const document = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml
  checkCharacters(document)
  return document.includes('\r') ? document.replace(/\r\n?/g, '\n') : document
}

function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024)
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB` : `${bytes} bytes`
}

/** Refuses characters outside XML's Char production; surrogates are fine in pairs. */
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

// ── building the tree ───────────────────────────────────────────────────────────────────────────────────────────

interface OpenElement {
  element: XmlElement
  /** The namespace scope's mark from before the element's declarations, restored when it closes. */
  mark: number
}

/**
 * Builds the elements of a checked document in one forward pass over its parts, resolving namespaces as it goes
 * down. The check has vouched for the markup, so each part is read by a simple pattern and every tag is matched.
 */
class TreeBuilder {
  readonly #raw = new Map<XmlElement, RawContent>()
  readonly #scope = new NamespaceScope()
  readonly #open: OpenElement[] = []
  // The parts of checked markup (raw-content's MARKUP_PART), one at a time from where the last one ended.
  readonly #part = new RegExp(MARKUP_PART.source, 'y')

  constructor(
    private readonly source: string,
    private readonly keepRaw: ReadXmlOptions['keepRaw'] | null,
  ) {}

  read(): ReadXmlResult {
    const { source } = this
    const part = this.#part
    let root: XmlElement | null = null
    while (part.lastIndex < source.length) {
      const at = part.lastIndex
      const [, cdata, tag, attributeText = '', characters] = part.exec(source) as RegExpExecArray
      const parent = this.#open.at(-1)?.element ?? null
      if (characters !== undefined) {
        if (parent) parent.text += decodeText(characters)
      } else if (cdata !== undefined) {
        if (parent) parent.text += cdata
      } else if (tag !== undefined) {
        const element = this.#start(tag, attributeText, parent)
        root ??= element
      } else if (source.charCodeAt(at + 1) === 0x2f /* "/" */) {
        this.#scope.restore(this.#open.pop()!.mark)
      }
      // Comments and processing instructions (the XML declaration among them) are no part of the tree.
    }
    if (root === null) throw new XmlError('The document is empty: it contains no XML element.')
    return { root, raw: this.#raw }
  }

  /** The element a start tag opens: built and opened, or closed at once when empty or kept raw. */
  #start(qualifiedName: string, attributeText: string, parent: XmlElement | null): XmlElement {
    const scope = this.#scope
    const depth = this.#open.length + 1
    const mark = scope.mark()
    const parsed = attributeText.length > 1 ? [...attributeText.matchAll(ATTRIBUTE)] : []
    for (const [, name = '', doubleQuoted, singleQuoted] of parsed) {
      if (isNamespaceDeclaration(name)) scope.declare(name, decodeAttribute(doubleQuoted ?? singleQuoted ?? ''), depth, qualifiedName)
    }
    const { ns, name } = scope.element(qualifiedName)
    const attributes: Record<string, string> = Object.create(null)
    let prefixedCount = 0
    for (const [, attributeName = '', doubleQuoted, singleQuoted] of parsed) {
      if (isNamespaceDeclaration(attributeName)) continue
      const attributeKey = scope.attributeKey(attributeName, qualifiedName)
      if (attributeKey !== attributeName && ++prefixedCount > 1 && Object.hasOwn(attributes, attributeKey)) {
        throw twoPrefixesError(qualifiedName, attributeKey)
      }
      attributes[attributeKey] = decodeAttribute(doubleQuoted ?? singleQuoted ?? '')
    }

    const element: XmlElement = { ns, name, attributes, children: [], text: '' }
    parent?.children.push(element)
    const empty = attributeText.endsWith('/')
    if (this.keepRaw?.(element, parent)) {
      const part = this.#part
      const start = part.lastIndex
      const content = readRawContent(this.source, start, empty ? start : this.source.length, scope, depth)
      if (!empty) part.lastIndex = this.source.indexOf('>', content.end) + 1
      this.#raw.set(element, content)
      scope.restore(mark)
    } else if (empty) {
      scope.restore(mark)
    } else {
      this.#open.push({ element, mark })
    }
    return element
  }
}
