import {
  addNamespaces,
  entryElements,
  readAtom,
  linkElement,
  readEntryElement,
  textConstruct,
  type AtomEntry,
  type EntryToWrite,
  type ReadOptions,
} from './entry'
import { describeElement, isAtomNamespace, readLink, withXmlBase, type AtomLink } from './links'
import { NamespacePrefixes } from './namespace-prefixes'
import { NS } from './namespaces'
import { XmlError } from './xml-error'
import { XML_DECLARATION, attributeList, escapeText } from './xml-writer'

export interface AtomFeed {
  title: string | null
  /** The feed's own links (alternate, service.post, prev/next, …); links inside entries are on the entries. */
  links: AtomLink[]
  entries: AtomEntry[]
}

/** Reads an Atom 0.3 feed (Atom 1.0 too), its entries as readEntry reads them. Throws XmlError when refused. */
export function readFeed(xml: string, options: ReadOptions = {}): AtomFeed {
  const { root, raw } = readAtom(xml, options)
  if (!isAtomNamespace(root.ns) || root.name !== 'feed') {
    throw new XmlError(`Expected an Atom feed (<feed xmlns="${NS.atom}">), but the document is ${describeElement(root)}.`)
  }
  const base = withXmlBase(root, options.baseUrl === undefined ? null : new URL(options.baseUrl).href)
  const feed: AtomFeed = { title: null, links: [], entries: [] }
  for (const child of root.children) {
    if (!isAtomNamespace(child.ns)) continue
    if (child.name === 'entry') {
      feed.entries.push(readEntryElement(child, raw, base))
    } else if (child.name === 'link') {
      const link = readLink(child, base)
      if (link) feed.links.push(link)
    } else if (child.name === 'title') {
      feed.title ??= textConstruct(child, raw)
    }
  }
  return feed
}

export interface FeedToWrite {
  title: string
  links: AtomLink[]
  entries: EntryToWrite[]
  modified?: string | null
  /** The feed's version="…" attribute, which Atom 0.3 requires of feeds (ATOM_03_VERSION); left out when absent. */
  version?: string
}

/** What an Atom 0.3 feed's version attribute says. */
export const ATOM_03_VERSION = '0.3'

/** A whole feed document: `<feed xmlns="http://purl.org/atom/ns#">`, every prefix its entries use declared once. */
export function writeFeed(feed: FeedToWrite): string {
  const prefixes = new NamespacePrefixes()
  for (const entry of feed.entries) addNamespaces(prefixes, entry)
  const version = attributeList({ version: feed.version })
  let xml = `${XML_DECLARATION}\n<feed${prefixes.declarations()}${version}>\n`
  xml += `  <title>${escapeText(feed.title)}</title>\n`
  for (const link of feed.links) xml += `  ${linkElement(link)}\n`
  if (feed.modified != null) xml += `  <modified>${escapeText(feed.modified)}</modified>\n`
  for (const entry of feed.entries) xml += `  <entry>\n${entryElements(entry, prefixes, '    ')}  </entry>\n`
  return `${xml}</feed>\n`
}
