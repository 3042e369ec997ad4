// Finding a person's weblogs from the root listing: follow the links the server announces, never build URLs.
import { readLinkFeed, XmlError, type AtomLink, type WsseCredentials } from '../../../src-protocol'
import { BlogdeskError, type Weblog } from '../../../src-preload/contract'
import { atomRequest, type Fetch } from './http'

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
  let lastMiss: BlogdeskError | null = null
  for (const weblogRoot of candidates) {
    try {
      return { weblogRoot, weblogs: await listWeblogs(fetch, weblogRoot, credentials) }
    } catch (error) {
      if (!(error instanceof BlogdeskError) || (error.code !== 'not-found' && error.code !== 'rejected')) throw error
      lastMiss = error
    }
  }
  throw new BlogdeskError(
    'rejected',
    `No Atom weblog listing was found at ${new URL(atomBase).origin} (tried ${candidates.join(' and ')}). Check the Atom address: for Movable Type it ends in mt-atom.cgi/weblog.`,
    { cause: lastMiss },
  )
}

export async function listWeblogs(fetch: Fetch, weblogRoot: string, credentials: WsseCredentials): Promise<Weblog[]> {
  const response = await atomRequest(fetch, { url: weblogRoot, credentials })
  let links: AtomLink[]
  try {
    links = readLinkFeed(response.body, weblogRoot)
  } catch (error) {
    if (!(error instanceof XmlError)) throw error
    throw new BlogdeskError('rejected', `${weblogRoot} answered, but not with an Atom weblog listing (${error.message}).`, { cause: error })
  }
  return weblogsFromLinks(links)
}

/**
 * A root listing is a flat run of links; the links of one weblog share its title. Each `service.post` link opens a
 * weblog, and the other links join the latest weblog of the same title. A weblog we cannot post to is left out.
 */
export function weblogsFromLinks(links: readonly AtomLink[]): Weblog[] {
  const weblogs: Weblog[] = []
  const latestByTitle = new Map<string, Weblog>()
  const weblogFor = (title: string, opening: boolean): Weblog => {
    const latest = latestByTitle.get(title)
    if (latest && !(opening && latest.postUri)) return latest
    const weblog: Weblog = { title, postUri: '', feedUri: null, uploadUri: null, categoriesUri: null, homeUrl: null }
    weblogs.push(weblog)
    latestByTitle.set(title, weblog)
    return weblog
  }
  for (const link of links) {
    const title = link.title?.trim() || 'Untitled weblog'
    switch (link.rel) {
      case 'service.post':
        weblogFor(title, true).postUri = link.href
        break
      case 'service.feed':
        weblogFor(title, false).feedUri = link.href
        break
      case 'service.upload':
        weblogFor(title, false).uploadUri = link.href
        break
      case 'service.categories':
        weblogFor(title, false).categoriesUri = link.href
        break
      case 'alternate':
        weblogFor(title, false).homeUrl = link.href
        break
    }
  }
  return weblogs.filter((weblog) => weblog.postUri !== '')
}
