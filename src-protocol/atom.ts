import { ATOM_03_VERSION } from './feed'
import { describeElement, readLink, withXmlBase, type AtomLink } from './links'
import { NS } from './namespaces'
import { XmlError } from './xml-error'
import { parseXml } from './xml-document'
import { XML_DECLARATION, attributeList, escapeText } from './xml-writer'

/**
 * Reads a root listing (an Atom 0.3 `feed` of `link` elements, e.g. GET /t/atom/weblog) into its links, in
 * document order, with every href made absolute against `baseUrl` (an absolute URL) and any xml:base. Links
 * nested deeper than the feed (inside entries) are not part of the listing. A link without a usable href is left
 * out: it names nothing a client could follow, and the rest of the listing is still good.
 */
export function readLinkFeed(xml: string, baseUrl: string): AtomLink[] {
  const feed = parseXml(xml)
  if (feed.ns !== NS.atom || feed.name !== 'feed') {
    throw new XmlError(
      `Expected an Atom 0.3 feed (<feed xmlns="${NS.atom}">) listing the collections, but the document is ` +
        `${describeElement(feed)}. Check that the address points at the Atom endpoint (for example …/t/atom/weblog).`,
    )
  }
  const feedBase = withXmlBase(feed, new URL(baseUrl).href)
  const links: AtomLink[] = []
  for (const child of feed.children) {
    if (child.ns !== NS.atom || child.name !== 'link') continue
    const link = readLink(child, feedBase)
    if (link) links.push(link)
  }
  return links
}

/** A root listing: an Atom 0.3 `<feed version="0.3">` holding one `<link>` per entry of `links`. */
export function writeLinkFeed(links: AtomLink[]): string {
  const lines = links.map(
    (link) => `  <link${attributeList({ rel: link.rel, href: link.href, type: link.type, title: link.title })}/>`,
  )
  const feed = `<feed${attributeList({ xmlns: NS.atom, version: ATOM_03_VERSION })}>`
  return [XML_DECLARATION, feed, ...lines, '</feed>', ''].join('\n')
}

/** The body of every error response: `<error>message</error>`. */
export function writeErrorDocument(message: string): string {
  return `${XML_DECLARATION}\n<error>${escapeText(message)}</error>\n`
}
