// FOAF autodiscovery: a homepage points to its owner's FOAF file with
// <link rel="meta" type="application/rdf+xml" title="FOAF" href="…">, and that RDF/XML file describes the person
// (foaf:name, foaf:mbox, foaf:homepage, foaf:nick). Read with the service's own XML reader: namespace-aware, and
// refusing DOCTYPEs and entity declarations, so a hostile file cannot expand or reach out.
import { parseXml, type XmlElement } from '../../src-protocol'
import { debugLookup, describeError } from './debug'
import { cleanText, HTML_TYPES, linkElements, pageTitle } from './html'
import type { PersonDetails, PersonFinder } from './index'
import type { SafeFetcher } from './safe-fetch'

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'
const FOAF = 'http://xmlns.com/foaf/0.1/'
const RDF_ABOUT = `{${RDF}}about`
const RDF_ID = `{${RDF}}ID`
const RDF_NODE_ID = `{${RDF}}nodeID`
const RDF_RESOURCE = `{${RDF}}resource`
const XML_BASE = '{http://www.w3.org/XML/1998/namespace}base'

const RDF_TYPES = ['application/rdf+xml', 'application/xml', 'text/xml']
const MAX_NAME_LENGTH = 200

export class FoafPersonFinder implements PersonFinder {
  readonly #fetcher: SafeFetcher

  constructor(fetcher: SafeFetcher) {
    this.#fetcher = fetcher
  }

  async findPerson(
    start: { homepage: string | null; foafUrl: string | null },
    signal?: AbortSignal,
  ): Promise<PersonDetails> {
    const found: PersonDetails = { name: null, email: null, homepage: null, homepageName: null, foafUrl: null }
    let foafUrl = start.foafUrl
    if (start.homepage !== null) {
      try {
        const page = await this.#fetcher.fetchText(start.homepage, HTML_TYPES, signal)
        found.homepageName = pageTitle(page.text)
        found.foafUrl = discoverFoaf(page.text, page.url)
        foafUrl ??= found.foafUrl
      } catch (error) {
        debugLookup('homepage %s not read: %s', start.homepage, describeError(error))
      }
    }
    if (foafUrl === null) return found
    try {
      const document = await this.#fetcher.fetchText(foafUrl, RDF_TYPES, signal)
      const person = readFoafPerson(document.text, document.url, start.homepage)
      if (person === null) debugLookup('FOAF file %s describes no foaf:Person', foafUrl)
      return { ...found, ...person }
    } catch (error) {
      debugLookup('FOAF file %s not read: %s', foafUrl, describeError(error))
      return found
    }
  }
}

/** The FOAF file a page links to (preferring one titled "FOAF"), made absolute; null when it links none. */
export function discoverFoaf(html: string, pageUrl: string): string | null {
  const candidates = linkElements(html).filter(
    (link) =>
      (link['rel'] ?? '').toLowerCase().split(/\s+/).includes('meta') &&
      (link['type'] ?? '').trim().toLowerCase() === 'application/rdf+xml' &&
      (link['href'] ?? '').trim() !== '',
  )
  const chosen = candidates.find((link) => link['title']?.trim().toUpperCase() === 'FOAF') ?? candidates[0]
  return chosen ? httpUrl(chosen['href'] ?? '', pageUrl) : null
}

type FoafPerson = Pick<PersonDetails, 'name' | 'email' | 'homepage'>

/**
 * The person a FOAF document is about: the primaryTopic (or maker) of its PersonalProfileDocument, else the
 * top-level Person whose homepage is `homepage`, else the first top-level Person, else the first Person at all.
 * Properties present as absent keys are left out, so they never overwrite what is known. Throws XmlError.
 */
export function readFoafPerson(xml: string, documentUrl: string, homepage: string | null): Partial<FoafPerson> | null {
  const root = parseXml(xml)
  const base = resolve(root.attributes[XML_BASE], documentUrl) ?? documentUrl
  const topLevel = root.ns === RDF && root.name === 'RDF' ? root.children : [root]
  const people = topLevel.filter(isPerson)

  const ownerOfHomepage = (candidate: XmlElement) =>
    homepage !== null && sameUrl(property(candidate, 'homepage', base), homepage)
  const person =
    primaryTopic(topLevel, people, base) ?? people.find(ownerOfHomepage) ?? people[0] ?? findDeep(root, isPerson)
  if (!person) return null

  const details: Partial<FoafPerson> = {}
  // FOAF has spelled the name parts several ways over the years.
  const firstOf = (...names: string[]): string | null =>
    names.map((name) => property(person, name, base)).find((value) => value !== null) ?? null
  const given = firstOf('givenName', 'givenname', 'firstName')
  const family = firstOf('familyName', 'family_name', 'surname', 'lastName')
  const name = firstOf('name') ?? (given !== null && family !== null ? `${given} ${family}` : null) ?? firstOf('nick')
  const cleanName = name === null ? null : cleanText(name, MAX_NAME_LENGTH)
  if (cleanName !== null) details.name = cleanName
  const email = emailOf(properties(person, 'mbox', base))
  if (email !== null) details.email = email
  const personHomepage = property(person, 'homepage', base)
  const usableHomepage = personHomepage === null ? null : httpUrl(personHomepage, base)
  if (usableHomepage !== null) details.homepage = usableHomepage
  return details
}

function primaryTopic(topLevel: XmlElement[], people: XmlElement[], base: string): XmlElement | undefined {
  const profile = topLevel.find((node) => hasType(node, 'PersonalProfileDocument'))
  if (!profile) return undefined
  for (const relation of ['primaryTopic', 'maker']) {
    const pointer = profile.children.find((child) => child.ns === FOAF && child.name === relation)
    if (!pointer) continue
    const nested = pointer.children.find(isPerson)
    if (nested) return nested
    const target = resolve(pointer.attributes[RDF_RESOURCE], base)
    const nodeId = pointer.attributes[RDF_NODE_ID]
    const match = people.find(
      (candidate) =>
        (target !== null && nodeIdentity(candidate, base) === target) ||
        (nodeId !== undefined && candidate.attributes[RDF_NODE_ID] === nodeId),
    )
    if (match) return match
  }
  return undefined
}

function isPerson(node: XmlElement): boolean {
  return hasType(node, 'Person')
}

/** A typed node element (<foaf:Person>) or a description with an rdf:type of that FOAF class. */
function hasType(node: XmlElement, foafClass: string): boolean {
  if (node.ns === FOAF && node.name === foafClass) return true
  return node.children.some(
    (child) => child.ns === RDF && child.name === 'type' && child.attributes[RDF_RESOURCE] === FOAF + foafClass,
  )
}

function nodeIdentity(node: XmlElement, base: string): string | null {
  const about = node.attributes[RDF_ABOUT]
  if (about !== undefined) return resolve(about, base)
  const id = node.attributes[RDF_ID]
  return id === undefined ? null : resolve(`#${id}`, base)
}

/** The first value of a FOAF property: a property attribute, a resource, or text. */
function property(node: XmlElement, name: string, base: string): string | null {
  const attribute = node.attributes[`{${FOAF}}${name}`]
  if (attribute !== undefined && attribute.trim() !== '') return attribute.trim()
  return properties(node, name, base)[0] ?? null
}

function properties(node: XmlElement, name: string, base: string): string[] {
  return node.children
    .filter((child) => child.ns === FOAF && child.name === name)
    .map((child) => {
      const resource = child.attributes[RDF_RESOURCE]
      return resource !== undefined ? (resolve(resource, base) ?? resource.trim()) : child.text.trim()
    })
    .filter((value) => value !== '')
}

/** The first mailto: address that looks like one. */
function emailOf(mailboxes: string[]): string | null {
  for (const mailbox of mailboxes) {
    if (!/^mailto:/i.test(mailbox)) continue
    let address: string
    try {
      address = decodeURIComponent(mailbox.slice('mailto:'.length).split('?', 1)[0] ?? '')
    } catch {
      continue
    }
    if (/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(address)) return address
  }
  return null
}

function findDeep(node: XmlElement, test: (node: XmlElement) => boolean): XmlElement | undefined {
  for (const child of node.children) {
    if (test(child)) return child
    const found = findDeep(child, test)
    if (found) return found
  }
  return undefined
}

function resolve(reference: string | undefined, base: string): string | null {
  if (reference === undefined) return null
  try {
    return new URL(reference.trim(), base).href
  } catch {
    return null
  }
}

function httpUrl(reference: string, base: string): string | null {
  const url = resolve(reference, base)
  return url !== null && /^https?:/.test(url) ? url : null
}

function sameUrl(a: string | null, b: string): boolean {
  return a !== null && resolve(a, 'http://invalid/') === resolve(b, 'http://invalid/')
}
