import { describeElement } from './links'
import { ATOM_10_NS, NS } from './namespaces'
import { XmlError } from './xml-error'
import { parseXml } from './xml-document'
import { XML_DECLARATION, escapeText } from './xml-writer'

// AtomPub's categories document, which Atom 1.0 servers (MT's /1.0 endpoint among them) answer with.
const APP_NS = 'http://www.w3.org/2007/app'
const CATEGORY_ELEMENT_NAMESPACES = new Set<string>([NS.atom, ATOM_10_NS, NS.category])

/**
 * Reads a CategoryURI document, `<categories xmlns="http://sixapart.com/atom/category#">` of dc:subject elements,
 * into the category names in document order (trimmed, without empties or repeats). `<category term="…">` children
 * are accepted too, as is AtomPub's `<app:categories>`. Throws XmlError when refused or not a categories document.
 */
export function readCategories(xml: string): string[] {
  const root = parseXml(xml)
  if (root.name !== 'categories' || (root.ns !== NS.category && root.ns !== APP_NS)) {
    throw new XmlError(
      `Expected a categories document (<categories xmlns="${NS.category}">), but the document is ` +
        `${describeElement(root)}.`,
    )
  }
  const names = new Set<string>()
  for (const child of root.children) {
    let name: string | undefined
    if (child.ns === NS.dc && child.name === 'subject') name = child.text
    else if (child.name === 'category' && CATEGORY_ELEMENT_NAMESPACES.has(child.ns)) name = child.attributes.term
    name = name?.trim()
    if (name) names.add(name)
  }
  return [...names]
}

/** A CategoryURI document: one dc:subject per name. */
export function writeCategories(names: string[]): string {
  const subjects = names.map((name) => `  <dc:subject>${escapeText(name)}</dc:subject>\n`).join('')
  return `${XML_DECLARATION}\n<categories xmlns="${NS.category}" xmlns:dc="${NS.dc}">\n${subjects}</categories>\n`
}
