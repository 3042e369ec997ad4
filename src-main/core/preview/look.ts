// A weblog's look for the preview: its public page read by main, its styles inlined and the frame around a post
// found (frame.ts). Where the frontpage shows no known post whole (it may list titles only, as Blogdesk's own
// service does), the newest known post's own page is read instead: the same theme, with a post on it.
import type { PostFrame, WeblogStyle } from '../../../src-shared/contract'
import type { Fetch } from '../atom'
import { frameByClassNames, frameOfKnownPost, type KnownPost } from './frame'
import { parseHtml } from './html-tree'
import { allowedFetch, LookFailure, type AllowedFetch } from './page-fetch'
import { stylesOf } from './stylesheets'

export const MAX_PAGE_BYTES = 2 * 1024 * 1024
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1'

export interface PostOnTheWeblog extends KnownPost {
  /** Its public page (alternate), when the feed gave one. */
  permalink: string | null
}

export interface LookRequest {
  fetch: Fetch
  /** The weblog's public page: its `alternate` link. */
  pageUrl: string
  /** The places the account points to: its server, its weblog's public page. Nothing else is read. */
  allowedOrigins: readonly string[]
  /** Posts of this weblog, newest first, as its feed has them. */
  knownPosts: readonly PostOnTheWeblog[]
}

export interface ReadLook {
  style: WeblogStyle
  /** Stylesheets left out (elsewhere, too large, unreadable). */
  skipped: string[]
}

/** Reads the weblog's look; a LookFailure says why there is none to show. */
export async function readWeblogLook(request: LookRequest): Promise<ReadLook> {
  const fetch = allowedFetch(request.fetch, [...request.allowedOrigins, request.pageUrl])
  const frontpage = await readPage(fetch, request.pageUrl)
  let page = frontpage
  let frame = frameOfKnownPost(frontpage.document, request.knownPosts)
  const newest = request.knownPosts.find((post) => post.permalink !== null && fetch.allows(post.permalink))
  if (!frame && newest?.permalink) {
    const postPage = await readPage(fetch, newest.permalink).catch((error: unknown) => {
      if (error instanceof LookFailure) return null
      throw error
    })
    const postFrame = postPage && frameOfKnownPost(postPage.document, [newest])
    if (postPage && postFrame) {
      page = postPage
      frame = postFrame
    }
  }
  frame ??= frameByClassNames(frontpage.document) ?? plainFrame()
  const styles = await stylesOf(page.document, page.url, fetch)
  if (styles.css.trim() === '') throw new LookFailure('its public page has no stylesheet')
  return { style: { css: styles.css, frame, pageUrl: page.url }, skipped: styles.skipped }
}

async function readPage(fetch: AllowedFetch, url: string) {
  const page = await fetch.text(url, { maxBytes: MAX_PAGE_BYTES, accept: HTML_ACCEPT })
  if (!/html/i.test(page.contentType)) throw new LookFailure(`${page.url} is not an HTML page`)
  return { url: page.url, document: parseHtml(page.body) }
}

/** A page with styles but no post Blogdesk could find on it: the post goes straight into its body. */
function plainFrame(): PostFrame {
  return { root: { tag: 'html', id: null, className: null }, body: { tag: 'body', id: null, className: null }, entry: [], title: [], content: [] }
}
