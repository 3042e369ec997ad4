// Namespaces in XML, which fast-xml-parser leaves to its users: prefixes resolved to URIs through the declarations
// in scope, undeclared prefixes and misuse of the reserved ones refused.
import { ATOM_10_NS, NS, XML_NS, XMLNS_NS } from './namespaces'
import { XmlError } from './xml-error'

export interface Binding {
  uri: string
  /** Depth of the element that declared it (the root is 1); 0 for the document-wide xml prefix. */
  depth: number
}

const XML_BINDING: Binding = { uri: XML_NS, depth: 0 }
// Known namespaces are stored as these very strings, which makes readers' comparisons with the constants instant.
const KNOWN_NAMESPACES = new Map([...Object.values(NS), ATOM_10_NS].map((uri) => [uri, uri]))

/** Whether an attribute name declares a namespace: xmlns, or xmlns:prefix. */
export function isNamespaceDeclaration(name: string): boolean {
  return name.startsWith('xmlns') && (name.length === 5 || name[5] === ':')
}

/** The prefixes in scope at one point of a document, as elements open and close. */
export class NamespaceScope {
  private readonly bindings = new Map<string, Binding>([['xml', XML_BINDING]])
  /** [prefix, the binding it had before] for every declaration in force, to restore as elements close. */
  private readonly shadowed: [string, Binding | undefined][] = []

  /** A mark to restore() to when the element about to declare its namespaces closes. */
  mark(): number {
    return this.shadowed.length
  }

  restore(mark: number): void {
    while (this.shadowed.length > mark) {
      const [prefix, previous] = this.shadowed.pop() as [string, Binding | undefined]
      if (previous === undefined) this.bindings.delete(prefix)
      else this.bindings.set(prefix, previous)
    }
  }

  /** Brings `name="uri"` (xmlns or xmlns:prefix) into scope for an element at `depth`; `tag` names it in messages. */
  declare(name: string, uri: string, depth: number, tag: string): void {
    const prefix = name === 'xmlns' ? '' : name.slice('xmlns:'.length)
    if (name !== 'xmlns' && (prefix === '' || prefix.includes(':'))) {
      throw new XmlError(
        `The document's <${tag}> has the namespace declaration "${name}", which names no valid prefix.`,
      )
    }
    if (prefix === 'xmlns') {
      throw new XmlError(`The document's <${tag}> declares the reserved prefix "xmlns:"; remove that declaration.`)
    }
    if (uri === XMLNS_NS || (uri === XML_NS) !== (prefix === 'xml')) {
      throw new XmlError(
        `The document's <${tag}> binds a reserved namespace or prefix ("${prefix || 'default'}" = "${uri}"); ` +
          'remove that declaration.',
      )
    }
    this.shadowed.push([prefix, this.bindings.get(prefix)])
    this.bindings.set(prefix, { uri: KNOWN_NAMESPACES.get(uri) ?? uri, depth })
  }

  /** The default namespace in scope ('' for none). */
  defaultNamespace(): string {
    return this.bindings.get('')?.uri ?? ''
  }

  /** The binding of the prefix of `qualifiedName`, whose colon is at `colon`; throws when it is not declared. */
  prefixBinding(qualifiedName: string, colon: number, tag: string): Binding {
    if (colon === 0 || colon === qualifiedName.length - 1 || qualifiedName.includes(':', colon + 1)) {
      throw new XmlError(
        `The document's <${tag}> uses the name "${qualifiedName}", which is not a valid namespaced name.`,
      )
    }
    const prefix = qualifiedName.slice(0, colon)
    const binding = this.bindings.get(prefix)
    if (!binding || binding.uri === '') {
      throw new XmlError(
        `The document's <${tag}> uses the prefix "${prefix}:" without declaring it (xmlns:${prefix}="…").`,
      )
    }
    return binding
  }

  /** Namespace URI and local name of an element named `qualifiedName`. */
  element(qualifiedName: string): { ns: string; name: string } {
    const colon = qualifiedName.indexOf(':')
    if (colon === -1) return { ns: this.defaultNamespace(), name: qualifiedName }
    return { ns: this.prefixBinding(qualifiedName, colon, qualifiedName).uri, name: qualifiedName.slice(colon + 1) }
  }

  /** How an attribute is keyed: its local name without a prefix (no namespace), `{uri}local` with one. */
  attributeKey(qualifiedName: string, tag: string): string {
    const colon = qualifiedName.indexOf(':')
    if (colon === -1) return qualifiedName
    return `{${this.prefixBinding(qualifiedName, colon, tag).uri}}${qualifiedName.slice(colon + 1)}`
  }
}

/** Refuses one attribute reached through two prefixes bound to the same namespace. */
export function twoPrefixesError(tag: string, key: string): XmlError {
  return new XmlError(
    `The document is not well-formed XML: <${tag}> has the attribute ${key} twice, through two prefixes.`,
  )
}
