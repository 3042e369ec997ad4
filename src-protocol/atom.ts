import { NS, XML_NS } from './namespaces'
import { XmlError } from './xml-error'
import { parseXml, type XmlElement } from './xml-reader'
import { XML_DECLARATION, attributeList, escapeText } from './xml-writer'

/** A `link` of a root listing: a weblog's (or album's, list's) service or page, by relation. */
export interface AtomLink {
  rel: string
  href: string
  type: string | null
  title: string | null
}

const XML_BASE = `{${XML_NS}}base`

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
    const href = resolveUrl(child.attributes.href, withXmlBase(child, feedBase))
    if (href === null) continue
    links.push({
      rel: child.attributes.rel?.trim() || 'alternate',
      href,
      type: child.attributes.type?.trim() || null,
      title: child.attributes.title ?? null,
    })
  }
  return links
}

function describeElement(element: XmlElement): string {
  return element.ns ? `<${element.name}> in the namespace ${element.ns}` : `<${element.name}> without a namespace`
}

// An xml:base that cannot be resolved is ignored rather than losing every link beneath it.
function withXmlBase(element: XmlElement, base: string): string {
  return resolveUrl(element.attributes[XML_BASE], base) ?? base
}

function resolveUrl(reference: string | undefined, base: string): string | null {
  if (reference === undefined || reference.trim() === '') return null
  try {
    return new URL(reference.trim(), base).href
  } catch {
    return null
  }
}

/** A root listing: `<feed xmlns="http://purl.org/atom/ns#">` holding one `<link>` per entry of `links`. */
export function writeLinkFeed(links: AtomLink[]): string {
  const lines = links.map(
    (link) => `  <link${attributeList({ rel: link.rel, href: link.href, type: link.type, title: link.title })}/>`,
  )
  return [XML_DECLARATION, `<feed${attributeList({ xmlns: NS.atom })}>`, ...lines, '</feed>', ''].join('\n')
}

/** The body of every error response: `<error>message</error>`. */
export function writeErrorDocument(message: string): string {
  return `${XML_DECLARATION}\n<error>${escapeText(message)}</error>\n`
}
