// Reading XML documents: fast-xml-parser builds the tree; the pieces it lacks are small and named — the size limit,
// XML's Char range (xml-characters), well-formedness and the refusal of DOCTYPEs (well-formed), namespaces
// (namespace-scope), and content kept as written (raw-content).
import { Buffer } from 'node:buffer'
import { XMLParser, type X2jOptions } from 'fast-xml-parser'
import { NamespaceScope, isNamespaceDeclaration, twoPrefixesError } from './namespace-scope'
import { readRawContent, type RawContent } from './raw-content'
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
  /**
   * fast-xml-parser paths (`*.*.content`) of elements it should not build, because keepRaw is expected to keep
   * them. Only a saving: an element stopped here that keepRaw does not keep is built all the same.
   */
  stopNodes?: readonly string[]
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
  const source = checkXml(xml, options)
  const stopNodes = options.stopNodes ?? []
  const builder = new TreeBuilder(source, options.keepRaw ?? null, stopNodes)
  const root = builder.elementNodes(parse(stopNodes, source))[0]
  if (root === undefined) throw new XmlError('The document is empty: it contains no XML element.')
  return { root: builder.element(root, null, 1), raw: builder.raw }
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

// ── fast-xml-parser ─────────────────────────────────────────────────────────────────────────────────────────────

/** A node of fast-xml-parser's preserveOrder output: `{ name: children, ':@': attributes }`, `#text` or `#cdata`. */
type ParsedNode = Record<string | symbol, unknown>

const TEXT = '#text'
const CDATA = '#cdata'
const ATTRIBUTES = ':@'
const ATTRIBUTE_PREFIX = '@'
const METADATA = XMLParser.getMetaDataSymbol() as unknown as symbol
// Names fast-xml-parser refuses as element names (they could pollute prototypes in its other output shapes); a
// space, which no XML name holds, carries them through.
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype'])
const RESERVED_MARK = ' '

const PARSER_OPTIONS: X2jOptions = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  // References and attribute whitespace are decoded here, after the well-formedness check has vouched for them.
  processEntities: false,
  htmlEntities: false,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: CDATA,
  captureMetaData: true,
  // The well-formedness check applies the depth limit.
  maxNestedTags: Number.POSITIVE_INFINITY,
  jPath: false,
  onDangerousProperty: (name) => name,
  transformTagName: (name) => (RESERVED_NAMES.has(name) ? RESERVED_MARK + name : name),
}

const parsers = new Map<readonly string[], XMLParser>()

function parserFor(stopNodes: readonly string[]): XMLParser {
  let parser = parsers.get(stopNodes)
  if (!parser) {
    parser = new XMLParser({ ...PARSER_OPTIONS, stopNodes: [...stopNodes] })
    parsers.set(stopNodes, parser)
  }
  return parser
}

/**
 * fast-xml-parser's reading of a checked document. It still refuses a few things XML allows (an odd number of
 * quotes in a processing instruction): those come back as XmlError, saying so.
 */
function parse(stopNodes: readonly string[], source: string): ParsedNode[] {
  try {
    return parserFor(stopNodes).parse(source) as ParsedNode[]
  } catch (error) {
    throw new XmlError(`The document could not be read: ${(error as Error).message}`)
  }
}

const NO_STOP_NODES: readonly string[] = []
// The end of a start tag, whose attribute values may hold ">".
const START_TAG = /<[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>/y

interface Metadata {
  startIndex: number
  endIndex: number
}

/** Turns fast-xml-parser's nodes into XmlElements, resolving namespaces as it goes down. */
class TreeBuilder {
  readonly raw = new Map<XmlElement, RawContent>()
  /** `depth name` of every element fast-xml-parser kept as text (stop node paths are made of "*" and a name). */
  private readonly stopped: Set<string>

  constructor(
    private readonly source: string,
    private readonly keepRaw: ReadXmlOptions['keepRaw'] | null,
    stopNodes: readonly string[],
    private readonly scope = new NamespaceScope(),
  ) {
    this.stopped = new Set(stopNodes.map((path) => `${path.split('.').length} ${path.split('.').at(-1)}`))
  }

  elementNodes(nodes: ParsedNode[]): ParsedNode[] {
    return nodes.filter((node) => !(TEXT in node) && !(CDATA in node))
  }

  element(node: ParsedNode, parent: XmlElement | null, depth: number): XmlElement {
    const tag = tagOf(node)
    const qualifiedName = tag.startsWith(RESERVED_MARK) ? tag.slice(RESERVED_MARK.length) : tag
    const scope = this.scope
    const mark = scope.mark()
    const parsedAttributes = node[ATTRIBUTES] as Record<string, string> | undefined
    const attributes: Record<string, string> = Object.create(null)
    if (parsedAttributes) {
      for (const key in parsedAttributes) {
        const name = key.slice(ATTRIBUTE_PREFIX.length)
        if (!isNamespaceDeclaration(name)) continue
        scope.declare(name, decodeAttribute(parsedAttributes[key] ?? ''), depth, qualifiedName)
      }
    }
    const { ns, name } = scope.element(qualifiedName)
    if (parsedAttributes) {
      let prefixedCount = 0
      for (const key in parsedAttributes) {
        const attributeName = key.slice(ATTRIBUTE_PREFIX.length)
        if (isNamespaceDeclaration(attributeName)) continue
        const attributeKey = scope.attributeKey(attributeName, qualifiedName)
        if (attributeKey !== attributeName && ++prefixedCount > 1 && Object.hasOwn(attributes, attributeKey)) {
          throw twoPrefixesError(qualifiedName, attributeKey)
        }
        attributes[attributeKey] = decodeAttribute(parsedAttributes[key] ?? '')
      }
    }

    const element: XmlElement = { ns, name, attributes, children: [], text: '' }
    if (this.keepRaw?.(element, parent)) {
      const { start, end } = this.innerMarkup(node)
      this.raw.set(element, readRawContent(this.source, start, end, scope, depth))
    } else if (this.stopped.has(`${depth} ${tag}`)) {
      this.expand(element, node, depth)
    } else {
      this.addContent(element, node[tag] as ParsedNode[], depth)
    }
    scope.restore(mark)
    return element
  }

  private addContent(element: XmlElement, nodes: ParsedNode[], depth: number): void {
    for (const child of nodes) {
      const text = child[TEXT] as string | undefined
      const cdata = child[CDATA] as ParsedNode[] | undefined
      if (text !== undefined) element.text += decodeText(text)
      else if (cdata !== undefined) element.text += (cdata[0]?.[TEXT] as string | undefined) ?? ''
      else element.children.push(this.element(child, element, depth + 1))
    }
  }

  /** Where the content of `node` lies in the source: after its start tag, before its end tag. */
  private innerMarkup(node: ParsedNode): { start: number; end: number } {
    const { startIndex, endIndex } = node[METADATA] as Metadata
    START_TAG.lastIndex = startIndex
    START_TAG.test(this.source)
    const start = START_TAG.lastIndex
    if (this.source.charCodeAt(start - 2) === 0x2f) return { start: endIndex, end: endIndex } // "/>"
    return { start, end: this.source.lastIndexOf('<', endIndex - 1) }
  }

  /** Builds the content of an element fast-xml-parser did not build, though it is not kept raw after all. */
  private expand(element: XmlElement, node: ParsedNode, depth: number): void {
    const { start, end } = this.innerMarkup(node)
    const wrapped = `<x>${this.source.slice(start, end)}</x>`
    const [wrapper] = parse(NO_STOP_NODES, wrapped)
    new TreeBuilder(wrapped, null, NO_STOP_NODES, this.scope).addContent(element, wrapper?.x as ParsedNode[], depth)
  }
}

function tagOf(node: ParsedNode): string {
  for (const key in node) if (key !== ATTRIBUTES) return key
  throw new XmlError('The document could not be read: an element has no name.')
}
