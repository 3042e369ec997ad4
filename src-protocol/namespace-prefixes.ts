import { ATOM_10_NS, NS, XML_NS } from './namespaces'
import { isLocalName } from './xml-names'
import { escapeAttribute, escapeText } from './xml-writer'

/** An element to write beside the Atom ones: `{uri}local` attribute names get a prefix, plain ones have none. */
export interface ExtensionElement {
  ns: string
  name: string
  text?: string
  attributes?: Record<string, string>
}

// The prefixes peers use for these namespaces. Readers match by URI, but people read the documents too.
const CONVENTIONAL_PREFIXES: ReadonlyMap<string, string> = new Map([
  [NS.atom, 'atom'],
  [NS.dc, 'dc'],
  [NS.photo, 'photo'],
  [NS.category, 'category'],
  [NS.song, 'song'],
  [NS.book, 'book'],
  [NS.person, 'person'],
  [NS.link, 'link'],
  [NS.rvw, 'rvw'],
  [NS.rvw02, 'rvw02'],
  [NS.bio, 'bio'],
  [NS.xhtml, 'xhtml'],
  [ATOM_10_NS, 'atom10'],
])

const EXPANDED_NAME = /^\{([^}]*)\}(.*)$/

/**
 * The namespaces of a document whose default namespace is Atom 0.3, each with a prefix: the conventional one, or
 * ns1, ns2, … for others. Collect every namespace first, declare them on the root, then write the elements.
 */
export class NamespacePrefixes {
  private readonly prefixes = new Map<string, string>()
  private readonly taken = new Set<string>()

  /** Gives `uri` a prefix (for an attribute, or an element outside the default namespace). */
  add(uri: string): void {
    if (this.prefixes.has(uri)) return
    let prefix = CONVENTIONAL_PREFIXES.get(uri)
    for (let number = 1; prefix === undefined || this.taken.has(prefix); number++) prefix = `ns${number}`
    this.prefixes.set(uri, prefix)
    this.taken.add(prefix)
  }

  addExtension(extension: ExtensionElement): void {
    if (extension.ns !== NS.atom && extension.ns !== '') this.add(extension.ns)
    for (const key of Object.keys(extension.attributes ?? {})) {
      const uri = EXPANDED_NAME.exec(key)?.[1]
      if (uri !== undefined && uri !== '' && uri !== XML_NS) this.add(uri)
    }
  }

  prefixOf(uri: string): string {
    const prefix = this.prefixes.get(uri)
    if (prefix === undefined) throw new Error(`The namespace ${uri} was not added before writing.`)
    return prefix
  }

  /** ` xmlns="…atom…" xmlns:p="…"…` for the root start tag. */
  declarations(): string {
    let declarations = ` xmlns="${NS.atom}"`
    for (const [uri, prefix] of this.prefixes) declarations += ` xmlns:${prefix}="${escapeAttribute(uri)}"`
    return declarations
  }

  /** `<p:name a="…">text</p:name>` for an extension added with addExtension. */
  element(extension: ExtensionElement): string {
    checkLocalName(extension.name, extension)
    let tag: string
    let noNamespace = ''
    if (extension.ns === NS.atom) {
      tag = extension.name
    } else if (extension.ns === '') {
      tag = extension.name
      noNamespace = ' xmlns=""'
    } else {
      tag = `${this.prefixOf(extension.ns)}:${extension.name}`
    }
    let attributes = noNamespace
    for (const [key, value] of Object.entries(extension.attributes ?? {})) {
      attributes += ` ${this.attributeName(key, extension)}="${escapeAttribute(value)}"`
    }
    const text = extension.text ?? ''
    return text === '' ? `<${tag}${attributes}/>` : `<${tag}${attributes}>${escapeText(text)}</${tag}>`
  }

  private attributeName(key: string, extension: ExtensionElement): string {
    const expanded = EXPANDED_NAME.exec(key)
    const [uri, local] = expanded ? [expanded[1] ?? '', expanded[2] ?? ''] : ['', key]
    checkLocalName(local, extension)
    if (uri === '') return local
    if (uri === XML_NS) return `xml:${local}`
    return `${this.prefixOf(uri)}:${local}`
  }
}

function checkLocalName(name: string, extension: ExtensionElement): void {
  if (!isLocalName(name)) {
    throw new RangeError(
      `Cannot write the extension element {${extension.ns}}${extension.name}: "${name}" is not an XML name ` +
        '(letters, digits, "-", "_", ".", no spaces or colons, not starting with a digit).',
    )
  }
}
