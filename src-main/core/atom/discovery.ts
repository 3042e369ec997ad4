// Finding a person's weblogs from the root listing: follow the links the server announces, never build URLs.
import { readLinkFeed, XmlError, type AtomLink, type WsseCredentials } from '../../../src-protocol'
import type { Weblog } from '../../../src-shared/contract'
import { CoreError } from '../errors'
import { unusableAnswer } from './failure'
import { atomRequest, type Fetch } from './http'

/** The root listing's link by which a server says it keeps a post dated in the future off its public pages until then. */
const SCHEDULING_REL = 'x-blogdesk.scheduling'

/**
 * Where the weblog root listing may be, for what a person typed as the Atom address: a root listing itself
 * (Movable Type's `…/mt-atom.cgi/weblog`), or a base that `/t/atom/weblog` (TypePad, ours) or `/weblog` hangs off.
 */
export function weblogRootCandidates(atomBase: string): string[] {
  const base = new URL(atomBase.trim())
  base.search = ''
  base.hash = ''
  const path = base.pathname.replace(/\/+$/, '')
  if (path.endsWith('/weblog')) return [withPath(base, path)]
  return [withPath(base, `${path}/t/atom/weblog`), withPath(base, `${path}/weblog`)]
}

/**
 * The gallery or lists root listing beside a weblog root: TypePad's three roots (`/t/atom/weblog`, `/t/atom/gallery`,
 * `/t/atom/lists`), and ours, differ only in their last segment. A server without photo albums or lists (Movable
 * Type) answers there with a 404.
 */
export function collectionRoot(weblogRoot: string, kind: 'gallery' | 'lists'): string {
  const root = new URL(weblogRoot)
  root.pathname = root.pathname.replace(/\/weblog\/*$/, '') + `/${kind}`
  return root.toString()
}

function withPath(base: URL, path: string): string {
  const url = new URL(base)
  url.pathname = path
  return url.toString()
}

export interface DiscoveredRoot {
  weblogRoot: string
  weblogs: Weblog[]
}

/** Tries each candidate root in turn; a refusal of the credentials stops the search, since it will not improve. */
export async function discoverWeblogRoot(fetch: Fetch, atomBase: string, credentials: WsseCredentials): Promise<DiscoveredRoot> {
  const candidates = weblogRootCandidates(atomBase)
  let lastMiss: CoreError | null = null
  for (const weblogRoot of candidates) {
    try {
      return { weblogRoot, weblogs: await listWeblogs(fetch, weblogRoot, credentials) }
    } catch (error) {
      if (!(error instanceof CoreError) || (error.code !== 'not-found' && error.code !== 'rejected')) throw error
      lastMiss = error
    }
  }
  throw new CoreError(
    'rejected',
    `No Atom weblog listing was found at ${new URL(atomBase).origin} (tried ${candidates.join(' and ')}). Check the Atom address: for Movable Type it ends in mt-atom.cgi/weblog.`,
    { cause: lastMiss },
  )
}

export async function listWeblogs(fetch: Fetch, weblogRoot: string, credentials: WsseCredentials): Promise<Weblog[]> {
  const links = await readRootListing(fetch, weblogRoot, credentials, 'an Atom weblog listing')
  return weblogsFromLinks(links)
}

/** The links of a root listing (weblogs, photo albums or lists); `what` names it in the refusal of anything else. */
export async function readRootListing(fetch: Fetch, rootUri: string, credentials: WsseCredentials, what: string, timeoutMs?: number): Promise<AtomLink[]> {
  const response = await atomRequest(fetch, { url: rootUri, credentials, timeoutMs })
  try {
    return readLinkFeed(response.body, response.url)
  } catch (error) {
    if (!(error instanceof XmlError)) throw error
    throw unusableAnswer(response, what, error.message)
  }
}

export function weblogsFromLinks(links: readonly AtomLink[]): Weblog[] {
  return collectionsFromLinks(links, 'Untitled weblog').map(({ title, hrefs }) => ({
    title,
    postUri: hrefs.get('service.post')!,
    feedUri: hrefs.get('service.feed') ?? null,
    uploadUri: hrefs.get('service.upload') ?? null,
    categoriesUri: hrefs.get('service.categories') ?? null,
    homeUrl: hrefs.get('alternate') ?? null,
    schedulesPosts: hrefs.has(SCHEDULING_REL),
  }))
}

export interface LinkedCollection {
  title: string
  /** The href of each rel the collection's links carry; always has `service.post`. */
  hrefs: Map<string, string>
}

/**
 * A root listing is a flat run of links; the links of one collection share its title. Each `service.post` link
 * opens a collection, and the other links join the latest collection of the same title. A collection we cannot
 * post to is left out.
 */
export function collectionsFromLinks(links: readonly AtomLink[], untitled: string): LinkedCollection[] {
  const collections: LinkedCollection[] = []
  const latestByTitle = new Map<string, LinkedCollection>()
  for (const link of links) {
    const title = link.title?.trim() || untitled
    const opening = link.rel === 'service.post'
    let collection = latestByTitle.get(title)
    if (!collection || (opening && collection.hrefs.has('service.post'))) {
      collection = { title, hrefs: new Map() }
      collections.push(collection)
      latestByTitle.set(title, collection)
    }
    collection.hrefs.set(link.rel, link.href)
  }
  return collections.filter((collection) => collection.hrefs.has('service.post'))
}
