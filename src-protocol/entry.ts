import { describeElement, isAtomNamespace, readLink, withXmlBase, type AtomLink } from './links'
import { markupText, standaloneMarkup } from './markup'
import { ATOM_10_NS, NS } from './namespaces'
import { XmlError } from './xml-error'
import { type RawContent } from './raw-content'
import { readXml, type ReadXmlResult, type XmlElement, type XmlLimits } from './xml-document'
import { XML_DECLARATION, attributeList, escapeText } from './xml-writer'
import { NamespacePrefixes, type ExtensionElement } from './namespace-prefixes'

export type { ExtensionElement } from './namespace-prefixes'

export type ContentMode = 'xml' | 'escaped' | 'base64'

export interface AtomContent {
  mode: ContentMode
  type: string | null
  /**
   * xml: the inner markup of the XHTML div (div unwrapped) or of the content element, without surrounding
   * whitespace; unprefixed elements in it are XHTML, and prefixes declared outside it are declared on its
   * top-level elements, so it stands alone. escaped: the decoded text. base64: the base64 text without whitespace.
   */
  value: string
}

export interface AtomPerson {
  name: string | null
  url: string | null
  email: string | null
}

export interface AtomEntry {
  title: string | null
  summary: string | null
  content: AtomContent | null
  /** As sent (W3CDTF text, offsets untouched); parse with parseW3cDate. */
  issued: string | null
  modified: string | null
  created: string | null
  id: string | null
  author: AtomPerson | null
  /** hrefs made absolute (and normalised) against baseUrl and any xml:base; kept as sent when there is neither. */
  links: AtomLink[]
  /** Every dc:subject, plus <category term="…"> (MT and Atom 1.0 send these); trimmed, without empties or repeats. */
  subjects: string[]
  /** Every other child element (photo:, song:, book:, person:, link:, rvw:, bio:, …), namespace-resolved. */
  extensions: XmlElement[]
}

export interface ReadOptions extends XmlLimits {
  /** The address the document came from, to make relative links absolute. */
  baseUrl?: string
}

/**
 * Reads an Atom 0.3 entry document (Atom 1.0 is read too: published is issued, updated is modified). Elements are
 * matched by namespace URI, never by prefix. Throws XmlError when the document is refused or is not an entry.
 */
export function readEntry(xml: string, options: ReadOptions = {}): AtomEntry {
  const { root, raw } = readAtom(xml, options)
  if (!isAtomNamespace(root.ns) || root.name !== 'entry') {
    throw new XmlError(
      `Expected an Atom entry (<entry xmlns="${NS.atom}">), but the document is ${describeElement(root)}.`,
    )
  }
  return readEntryElement(root, raw, options.baseUrl === undefined ? null : new URL(options.baseUrl).href)
}

// Where those parts are in an entry document (entry.x) and a feed (feed.x, feed.entry.x), so that fast-xml-parser
// leaves them unbuilt. Prefixed Atom elements are not matched here; they are built, then kept raw all the same.
const ATOM_STOP_NODES = ['content', 'title', 'summary'].flatMap((name) => [`*.${name}`, `*.*.${name}`])

/** Reads an Atom entry or feed document, its text constructs and content kept raw. */
export function readAtom(xml: string, options: ReadOptions): ReadXmlResult {
  const { maxBytes, maxDepth } = options
  return readXml(xml, { maxBytes, maxDepth, keepRaw: isKeptRaw, stopNodes: ATOM_STOP_NODES })
}

/**
 * The parts of entries (and a feed's title) that are checked but kept as markup: content, which may be a large
 * XHTML body that is stored as it is, and the text constructs, whose text is read in document order.
 */
export function isKeptRaw(element: XmlElement, parent: XmlElement | null): boolean {
  if (parent === null || !isAtomNamespace(element.ns) || !isAtomNamespace(parent.ns)) return false
  if (parent.name === 'entry') return element.name === 'content' || element.name === 'title' || element.name === 'summary'
  return parent.name === 'feed' && element.name === 'title'
}

/** The text of a title or summary kept raw by isKeptRaw. */
export function textConstruct(element: XmlElement, raw: Map<XmlElement, RawContent>): string {
  const content = raw.get(element)
  return content ? markupText(content) : element.text
}

// Held locally: compared for every child of every entry.
const DC_NS: string = NS.dc

/** Reads an entry element of a document scanned with isKeptRaw; `base` is the absolute base URL around it, if any. */
export function readEntryElement(entry: XmlElement, raw: Map<XmlElement, RawContent>, base: string | null): AtomEntry {
  const entryBase = withXmlBase(entry, base)
  const read: AtomEntry = {
    title: null,
    summary: null,
    content: null,
    issued: null,
    modified: null,
    created: null,
    id: null,
    author: null,
    links: [],
    subjects: [],
    extensions: [],
  }
  const subjects = new Set<string>()
  for (const child of entry.children) {
    if (child.ns === DC_NS && child.name === 'subject') {
      addSubject(subjects, child.text)
      continue
    }
    if (!isAtomNamespace(child.ns)) {
      read.extensions.push(child)
      continue
    }
    switch (child.name) {
      case 'title':
        read.title ??= textConstruct(child, raw)
        break
      case 'summary':
        read.summary ??= textConstruct(child, raw)
        break
      case 'content':
        read.content ??= readContent(child, raw.get(child))
        break
      case 'issued':
      case 'published':
        read.issued ??= token(child)
        break
      case 'modified':
      case 'updated':
        read.modified ??= token(child)
        break
      case 'created':
        read.created ??= token(child)
        break
      case 'id':
        read.id ??= token(child)
        break
      case 'author':
        read.author ??= readPerson(child)
        break
      case 'link': {
        const link = readLink(child, entryBase)
        if (link) read.links.push(link)
        break
      }
      case 'category':
        addSubject(subjects, child.attributes.term)
        break
      default:
        read.extensions.push(child)
    }
  }
  read.subjects = [...subjects]
  return read
}

/** Categories one entry may carry: far more than any weblog uses on a post, and a bound on the work. */
const MAX_SUBJECTS_PER_ENTRY = 500

function addSubject(subjects: Set<string>, subject: string | undefined): void {
  const name = subject?.trim()
  if (!name) return
  subjects.add(name)
  if (subjects.size > MAX_SUBJECTS_PER_ENTRY) {
    throw new XmlError(
      `The entry has more than ${MAX_SUBJECTS_PER_ENTRY} categories (dc:subject or category); send at most ` +
        `${MAX_SUBJECTS_PER_ENTRY}.`,
    )
  }
}

/** A date, id or address: the text without surrounding whitespace; null when there is none. */
function token(element: XmlElement): string | null {
  return element.text.trim() || null
}

function readPerson(element: XmlElement): AtomPerson {
  const person: AtomPerson = { name: null, url: null, email: null }
  for (const child of element.children) {
    if (!isAtomNamespace(child.ns)) continue
    if (child.name === 'name') person.name ??= token(child)
    // url in Atom 0.3, homepage in its 0.2 draft (MT 2.64 feeds), uri in Atom 1.0.
    else if (child.name === 'url' || child.name === 'homepage' || child.name === 'uri') person.url ??= token(child)
    else if (child.name === 'email') person.email ??= token(child)
  }
  return person
}

const CONTENT_MODES = new Set<string>(['xml', 'escaped', 'base64'])
const XML_MEDIA_TYPE = /[+/]xml$/i
const BASE64_WHITESPACE = /[\t\n\r ]+/g

function readContent(element: XmlElement, content: RawContent | undefined): AtomContent {
  if (!content) throw new Error('Entry content was read without being kept raw; scan with isKeptRaw.')
  const { mode, type } = element.ns === ATOM_10_NS ? atom10ContentKind(element) : atom03ContentKind(element)
  return { mode, type, value: contentValue(mode, content) }
}

// Atom 0.3: mode says how the content is carried (xml when absent), type what it is.
function atom03ContentKind(element: XmlElement): { mode: ContentMode; type: string | null } {
  const mode = element.attributes.mode?.trim().toLowerCase() || 'xml'
  if (!CONTENT_MODES.has(mode)) {
    throw new XmlError(
      `The entry's <content> has mode="${element.attributes.mode}", which is not one of xml, escaped or base64.`,
    )
  }
  return { mode: mode as ContentMode, type: element.attributes.type?.trim() || null }
}

// Atom 1.0 has no mode: type says both (text, html, xhtml, or a media type, where non-text non-XML is base64).
function atom10ContentKind(element: XmlElement): { mode: ContentMode; type: string | null } {
  const type = element.attributes.type?.trim()
  if (!type) return { mode: 'escaped', type: null }
  switch (type.toLowerCase()) {
    case 'text':
      return { mode: 'escaped', type: 'text/plain' }
    case 'html':
      return { mode: 'escaped', type: 'text/html' }
    case 'xhtml':
      return { mode: 'xml', type: 'application/xhtml+xml' }
  }
  if (XML_MEDIA_TYPE.test(type)) return { mode: 'xml', type }
  return { mode: type.toLowerCase().startsWith('text/') ? 'escaped' : 'base64', type }
}

function contentValue(mode: ContentMode, content: RawContent): string {
  if (mode === 'base64') {
    if (content.children.length > 0) {
      throw new XmlError(
        'The entry\'s <content mode="base64"> holds elements; base64 content must be only the encoded text.',
      )
    }
    return content.text.replace(BASE64_WHITESPACE, '')
  }
  // Escaped content that holds elements is HTML the sender did not escape: its markup is the text.
  if (mode === 'escaped') return content.children.length === 0 ? content.text : standaloneMarkup(content)
  const [only] = content.children
  const isWrappedInDiv =
    only !== undefined && content.children.length === 1 && !content.hasText && only.ns === NS.xhtml && only.name === 'div'
  return standaloneMarkup(isWrappedInDiv ? only : content)
}

// ── Writing ─────────────────────────────────────────────────────────────────────────────────────────────────────

export interface EntryToWrite {
  title: string
  summary?: string | null
  /** xml content is written as markup: pass only what isWellFormedMarkup accepts. */
  content?: AtomContent | null
  issued?: string | null
  modified?: string | null
  id?: string | null
  author?: AtomPerson | null
  links?: AtomLink[]
  subjects?: string[]
  extensions?: ExtensionElement[]
}

/** A whole entry document: `<entry xmlns="http://purl.org/atom/ns#">`, with dc: and extension prefixes declared. */
export function writeEntry(entry: EntryToWrite): string {
  const prefixes = new NamespacePrefixes()
  addNamespaces(prefixes, entry)
  return `${XML_DECLARATION}\n<entry${prefixes.declarations()}>\n${entryElements(entry, prefixes, '  ')}</entry>\n`
}

/** Gives every namespace `entry` will be written with a prefix. */
export function addNamespaces(prefixes: NamespacePrefixes, entry: EntryToWrite): void {
  if (entry.subjects?.length) prefixes.add(NS.dc)
  for (const extension of entry.extensions ?? []) prefixes.addExtension(extension)
}

/** The child elements of an entry, one per line at `indent`, with prefixes from `prefixes` (declared by the caller). */
export function entryElements(entry: EntryToWrite, prefixes: NamespacePrefixes, indent: string): string {
  let xml = `${indent}<title>${escapeText(entry.title)}</title>\n`
  if (entry.summary != null) xml += `${indent}<summary>${escapeText(entry.summary)}</summary>\n`
  if (entry.content) xml += `${indent}${contentElement(entry.content)}\n`
  if (entry.author) xml += `${indent}${personElement('author', entry.author)}\n`
  if (entry.issued != null) xml += `${indent}<issued>${escapeText(entry.issued)}</issued>\n`
  if (entry.modified != null) xml += `${indent}<modified>${escapeText(entry.modified)}</modified>\n`
  if (entry.id != null) xml += `${indent}<id>${escapeText(entry.id)}</id>\n`
  for (const link of entry.links ?? []) xml += `${indent}${linkElement(link)}\n`
  for (const subject of entry.subjects ?? []) {
    const dc = prefixes.prefixOf(NS.dc)
    xml += `${indent}<${dc}:subject>${escapeText(subject)}</${dc}:subject>\n`
  }
  for (const extension of entry.extensions ?? []) xml += `${indent}${prefixes.element(extension)}\n`
  return xml
}

export function linkElement(link: AtomLink): string {
  return `<link${attributeList({ rel: link.rel, href: link.href, type: link.type, title: link.title })}/>`
}

function personElement(name: string, person: AtomPerson): string {
  let children = ''
  if (person.name !== null) children += `<name>${escapeText(person.name)}</name>`
  if (person.url !== null) children += `<url>${escapeText(person.url)}</url>`
  if (person.email !== null) children += `<email>${escapeText(person.email)}</email>`
  return `<${name}>${children}</${name}>`
}

const BASE64_TEXT = /^[A-Za-z0-9+/=]*$/

function contentElement(content: AtomContent): string {
  switch (content.mode) {
    case 'xml': {
      const type = attributeList({ type: content.type ?? 'application/xhtml+xml' })
      return `<content mode="xml"${type}><div xmlns="${NS.xhtml}">${content.value}</div></content>`
    }
    case 'escaped':
      return `<content mode="escaped"${attributeList({ type: content.type })}>${escapeText(content.value)}</content>`
    case 'base64': {
      const value = BASE64_TEXT.test(content.value) ? content.value : escapeText(content.value)
      return `<content mode="base64"${attributeList({ type: content.type })}>${value}</content>`
    }
  }
}
