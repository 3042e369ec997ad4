import { ATOM_10_NS, NS, XML_NS } from './namespaces'
import type { XmlElement } from './xml-document'

/** A `link`: a weblog's (or album's, list's, entry's) service or page, by relation. */
export interface AtomLink {
  rel: string
  href: string
  type: string | null
  title: string | null
}

// Held locally: this is asked for every element an entry reader looks at.
const ATOM_03_NS: string = NS.atom

export function isAtomNamespace(ns: string): boolean {
  return ns === ATOM_03_NS || ns === ATOM_10_NS
}

const XML_BASE = `{${XML_NS}}base`

/**
 * The base URL for the inside of `element`: its xml:base resolved against `base`. An xml:base that cannot be
 * resolved is ignored rather than losing every link beneath it. `null` means there is no absolute base yet.
 */
export function withXmlBase(element: XmlElement, base: string | null): string | null {
  const xmlBase = element.attributes[XML_BASE]
  if (xmlBase === undefined) return base
  return absoluteUrl(xmlBase, base) ?? base
}

function absoluteUrl(reference: string, base: string | null): string | null {
  try {
    return new URL(reference.trim(), base ?? undefined).href
  } catch {
    return null
  }
}

/**
 * Reads a `link` element: rel (alternate when absent), href made absolute against `base` (and normalised), type and
 * title. Without a base the href is kept as sent. Null when the link has no usable href: it names nothing a client
 * could follow.
 */
export function readLink(element: XmlElement, base: string | null): AtomLink | null {
  const reference = element.attributes.href?.trim()
  if (!reference) return null
  const linkBase = withXmlBase(element, base)
  const href = linkBase === null ? reference : absoluteUrl(reference, linkBase)
  if (href === null) return null
  return {
    rel: element.attributes.rel?.trim() || 'alternate',
    href,
    type: element.attributes.type?.trim() || null,
    title: element.attributes.title ?? null,
  }
}

export function describeElement(element: XmlElement): string {
  return element.ns ? `<${element.name}> in the namespace ${element.ns}` : `<${element.name}> without a namespace`
}
