// Paged Atom feeds, the same for a weblog's posts, an album's photos and a list's items: 20 entries a page, newest
// first, `prev`/`next` links to the neighbouring pages at `<feed>/offset=<n>` (docs/PROTOCOL.md, "Feed paging
// links"), rendered once per store write (RenderCache).
import { ATOM_03_VERSION, ATOM_MEDIA_TYPE, writeFeed, type AtomLink, type EntryToWrite } from '../../src-protocol'
import type { AuthenticatedHandler } from '../auth/wsse'
import type { Store, User } from '../store'
import { writesAtReadStart } from './reads'
import { RenderCache } from './render-cache'
import { atomReply, HttpError, type Handler, type RequestContext } from './reply'
import type { Router } from './router'

/** Spec §8: an Atom weblog feed page holds 20 posts. */
export const FEED_PAGE_SIZE = 20
/** Far beyond any collection, small enough that a page address stays a plain number. */
const MAX_OFFSET = 999_999_999

/** One collection's feed, as a route describes it for the page at `offset`. */
export interface PagedFeed<T> {
  title: string
  /** The first page's address; later pages add `/offset=<n>`. */
  feedUri: string
  /** Links every page carries besides its paging links (the collection's public page, its PostURI). */
  links: AtomLink[]
  /** Up to `limit` rows from `offset`, newest first. */
  rows(offset: number, limit: number): Promise<T[]>
  entry(row: T): EntryToWrite
  /** When the row last changed (W3CDTF): the page's `modified` is its latest. */
  modified(row: T): string
}

/**
 * Registers GET `path` and `path/offset=<n>` (behind WSSE). `feedOf` finds the collection the request asks for (and
 * refuses one the user does not own) and describes its feed. A page is rendered for the user and the address as
 * asked, and reused while the store is unchanged: it was rendered only after `feedOf` found the collection the user's,
 * and nothing has been written since, so `feedOf` is not asked again.
 */
export function registerPagedFeed<T>(
  router: Router,
  store: Store,
  path: string,
  withWsse: (handler: AuthenticatedHandler) => Handler,
  feedOf: (context: RequestContext, user: User) => Promise<PagedFeed<T>>,
): void {
  const pages = new RenderCache(store)
  const handler = withWsse(async (context, user) => {
    const offset = context.params['offset'] === undefined ? 0 : offsetOf(context.params['offset'])
    const rendering = `${context.origin} ${user.id} ${path} ${JSON.stringify(context.params)}`
    const render = async () => writePage(await feedOf(context, user), offset)
    return atomReply(200, await pages.document(rendering, render, writesAtReadStart(context.request)))
  })
  router.get(path, handler).get(`${path}/offset=:offset`, handler)
}

async function writePage<T>(feed: PagedFeed<T>, offset: number): Promise<string> {
  const rows = await feed.rows(offset, FEED_PAGE_SIZE + 1)
  const shown = rows.slice(0, FEED_PAGE_SIZE)
  const pageUri = (pageOffset: number) => (pageOffset > 0 ? `${feed.feedUri}/offset=${pageOffset}` : feed.feedUri)
  const pageLink = (rel: string, pageOffset: number): AtomLink => ({ rel, href: pageUri(pageOffset), type: ATOM_MEDIA_TYPE, title: feed.title })
  const links = [...feed.links]
  if (offset > 0) links.push(pageLink('prev', Math.max(0, offset - FEED_PAGE_SIZE)))
  if (rows.length > FEED_PAGE_SIZE) links.push(pageLink('next', offset + FEED_PAGE_SIZE))
  const modified = shown.reduce<string | null>((latest, row) => {
    const changed = feed.modified(row)
    return latest !== null && latest > changed ? latest : changed
  }, null)
  return writeFeed({ title: feed.title, links, entries: shown.map((row) => feed.entry(row)), modified, version: ATOM_03_VERSION })
}

function offsetOf(text: string): number {
  const offset = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN
  if (!(offset <= MAX_OFFSET)) {
    throw new HttpError(
      400,
      `The feed offset "${text}" is not a number of entries to skip. Use a whole number from 0 to ${MAX_OFFSET}, ` +
        "as the feed's next and prev links do.",
    )
  }
  return offset
}
