// Roots of the Atom interface: a `feed` of links per collection the user owns (docs/PROTOCOL.md, "Atom 0.3 interface").
import { ATOM_MEDIA_TYPE, writeLinkFeed, type AtomLink } from '../../src-protocol'
import type { AuthenticatedHandler } from '../auth/wsse'
import type { Weblog, Weblogs } from '../store'
import { atomReply } from './reply'

/** Blogdesk's extension: this PostURI keeps a post dated in the future off the weblog's public pages until then. */
export const SCHEDULING_REL = 'x-blogdesk.scheduling'

/**
 * GET /t/atom/weblog: each weblog's PostURI, FeedURI, UploadURI, CategoryURI and public page, and the scheduling
 * extension's link: a post sent there dated in the future waits off the public pages until then (docs/PROTOCOL.md).
 */
export function weblogRoot(weblogs: Weblogs): AuthenticatedHandler {
  return async ({ origin }, user) =>
    atomReply(200, writeLinkFeed((await weblogs.ownedBy(user.id)).flatMap((weblog) => weblogLinks(origin, weblog))))
}

function weblogLinks(origin: string, weblog: Weblog): AtomLink[] {
  const feedUri = `${origin}/t/atom/weblog/blog_id=${weblog.id}`
  const { title } = weblog
  const atomLink = (rel: string, href: string): AtomLink => ({ rel, href, type: ATOM_MEDIA_TYPE, title })
  return [
    atomLink('service.post', feedUri),
    atomLink('service.feed', feedUri),
    atomLink('service.upload', `${feedUri}/svc=upload`),
    atomLink('service.categories', `${feedUri}/svc=categories`),
    atomLink(SCHEDULING_REL, feedUri),
    { rel: 'alternate', href: `${origin}/blogs/${encodeURIComponent(weblog.slug)}/`, type: 'text/html', title },
  ]
}
