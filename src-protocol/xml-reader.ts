import { Buffer } from 'node:buffer'
import { XMLParser } from 'fast-xml-parser'
import { XML_NS, XMLNS_NS } from './namespaces'
import { checkWellFormed } from './well-formed'
import { isXmlCharacter } from './xml-characters'
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

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024
const DEFAULT_MAX_DEPTH = 64

// preserveOrder keeps mixed content in document order and gives every element its own attribute map, which is
// where namespace declarations live. Entities are left raw (processEntities: false) and decoded here, so that
// CDATA (kept apart as '#cdata') is never decoded and a bad reference is an error rather than silently kept.
const TEXT = '#text'
const CDATA = '#cdata'
const ATTRIBUTES = ':@'
const ATTRIBUTE_PREFIX = '@_'
const PARSER_RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype'])
const RESERVED_NAME_MARK = '#'
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  textNodeName: TEXT,
  cdataPropName: CDATA,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  jPath: false,
  // Depth is enforced by checkWellFormed, with the caller's limit and a readable message.
  maxNestedTags: Number.POSITIVE_INFINITY,
  // Keep element names such as <toString> as they are: the ordered output only ever stores them as own keys.
  onDangerousProperty: (name) => name,
  // The parser refuses these outright; a mark that no XML name can contain lets them through, to be removed below.
  transformTagName: (name) => (PARSER_RESERVED_NAMES.has(name) ? RESERVED_NAME_MARK + name : name),
})

type OrderedNode = Record<string, unknown>
type NamespaceScope = ReadonlyMap<string, string>
const DOCUMENT_SCOPE: NamespaceScope = new Map([['xml', XML_NS]])

/** Parses a whole document into its root element, resolving namespaces. Throws XmlError for anything it refuses. */
export function parseXml(xml: string, limits: XmlLimits = {}): XmlElement {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so only long strings need counting.
  if (xml.length > maxBytes || (xml.length * 3 > maxBytes && Buffer.byteLength(xml, 'utf8') > maxBytes)) {
    throw new XmlError(`The document is too large: the limit is ${describeBytes(maxBytes)}.`)
  }
  const document = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml
  checkWellFormed(document, maxDepth)

  let ordered: unknown
  try {
    ordered = parser.parse(document)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new XmlError(`The document could not be read as XML: ${reason}`)
  }
  const root = (ordered as OrderedNode[]).find((node) => tagOf(node) !== undefined)
  if (!root) throw new XmlError('The document is empty: it contains no XML element.')
  return buildElement(root, DOCUMENT_SCOPE)
}

function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024)
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB` : `${bytes} bytes`
}

function tagOf(node: OrderedNode): string | undefined {
  for (const key in node) {
    if (key !== ATTRIBUTES && key !== TEXT && key !== CDATA) return key
  }
  return undefined
}

function buildElement(node: OrderedNode, parentScope: NamespaceScope): XmlElement {
  const tag = tagOf(node) ?? ''
  const qualifiedName = tag.startsWith(RESERVED_NAME_MARK) ? tag.slice(RESERVED_NAME_MARK.length) : tag
  const where = `<${qualifiedName}>`
  const rawAttributes = (node[ATTRIBUTES] ?? {}) as Record<string, string>

  let declarations: Map<string, string> | undefined
  const plainAttributes: [string, string][] = []
  for (const key of Object.keys(rawAttributes)) {
    const name = key.slice(ATTRIBUTE_PREFIX.length)
    const value = decodeReferences(normalizeAttributeValue(rawAttributes[key] ?? ''), where)
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      const prefix = name === 'xmlns' ? '' : name.slice('xmlns:'.length)
      checkDeclaration(name, prefix, value, where)
      declarations ??= new Map(parentScope)
      declarations.set(prefix, value)
    } else {
      plainAttributes.push([name, value])
    }
  }

  const scope: NamespaceScope = declarations ?? parentScope
  const { ns, name } = resolveName(qualifiedName, scope, true, where)
  const attributes: Record<string, string> = Object.create(null)
  for (const [attributeName, value] of plainAttributes) {
    const key = attributeName.includes(':') ? expandedAttributeName(attributeName, scope, where) : attributeName
    if (Object.hasOwn(attributes, key)) {
      throw new XmlError(
        `The document is not well-formed XML: ${where} has the attribute ${key} twice, through two prefixes.`,
      )
    }
    attributes[key] = value
  }

  const children: XmlElement[] = []
  let text = ''
  for (const child of (node[tag] ?? []) as OrderedNode[]) {
    if (TEXT in child) text += decodeReferences(String(child[TEXT]), where)
    else if (CDATA in child) text += cdataText(child)
    else children.push(buildElement(child, scope))
  }
  return { ns, name, attributes, children, text }
}

function cdataText(node: OrderedNode): string {
  return ((node[CDATA] ?? []) as OrderedNode[]).map((part) => String(part[TEXT] ?? '')).join('')
}

function checkDeclaration(attributeName: string, prefix: string, uri: string, where: string): void {
  if (attributeName !== 'xmlns' && (prefix === '' || prefix.includes(':'))) {
    throw new XmlError(
      `The document's ${where} has the namespace declaration "${attributeName}", which names no valid prefix.`,
    )
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
}

function resolveName(
  qualifiedName: string,
  scope: NamespaceScope,
  isElement: boolean,
  where: string,
): { ns: string; name: string } {
  const colon = qualifiedName.indexOf(':')
  if (colon === -1) return { ns: isElement ? (scope.get('') ?? '') : '', name: qualifiedName }
  const prefix = qualifiedName.slice(0, colon)
  const name = qualifiedName.slice(colon + 1)
  if (prefix === '' || name === '' || name.includes(':')) {
    throw new XmlError(`The document's ${where} uses the name "${qualifiedName}", which is not a valid namespaced name.`)
  }
  const ns = scope.get(prefix)
  if (!ns) {
    throw new XmlError(`The document's ${where} uses the prefix "${prefix}:" without declaring it (xmlns:${prefix}="…").`)
  }
  return { ns, name }
}

function expandedAttributeName(qualifiedName: string, scope: NamespaceScope, where: string): string {
  const { ns, name } = resolveName(qualifiedName, scope, false, where)
  return `{${ns}}${name}`
}

// XML turns literal tabs and newlines in attribute values into spaces; references such as &#10; survive.
function normalizeAttributeValue(value: string): string {
  return /[\t\n\r]/.test(value) ? value.replace(/[\t\n\r]/g, ' ') : value
}

const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([A-Za-z_][\w.-]*));/y

function decodeReferences(raw: string, where: string): string {
  let ampersand = raw.indexOf('&')
  if (ampersand === -1) return raw
  let decoded = ''
  let copiedUpTo = 0
  while (ampersand !== -1) {
    REFERENCE.lastIndex = ampersand
    const reference = REFERENCE.exec(raw)
    if (!reference) {
      throw new XmlError(
        `The document is not well-formed XML: ${where} contains an "&" that does not start a reference. ` +
          'Write &amp; for a literal "&".',
      )
    }
    decoded += raw.slice(copiedUpTo, ampersand) + referencedText(reference, where)
    copiedUpTo = REFERENCE.lastIndex
    ampersand = raw.indexOf('&', copiedUpTo)
  }
  return decoded + raw.slice(copiedUpTo)
}

function referencedText([whole, hex, decimal, entity]: RegExpExecArray, where: string): string {
  if (entity !== undefined) {
    const replacement = PREDEFINED_ENTITIES[entity]
    if (replacement === undefined) {
      throw new XmlError(
        `The document's ${where} uses the entity ${whole}, which XML does not define (only &lt; &gt; &amp; &quot; &apos; and ` +
          'numeric references such as &#160; are allowed).',
      )
    }
    return replacement
  }
  const codePoint = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(decimal ?? '', 10)
  if (!isXmlCharacter(codePoint)) {
    throw new XmlError(`The document's ${where} contains the reference ${whole}, which is not a character XML allows.`)
  }
  return String.fromCodePoint(codePoint)
}
