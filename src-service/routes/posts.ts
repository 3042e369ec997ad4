// A weblog's Atom 0.3 interface (spec §4.2): FeedURI pages (feed-pages.ts), PostURI create, EditURI
// read/replace/delete and the CategoryURI document. Every write is one transaction with its event and idempotency record, so a refused or
// failed request leaves nothing behind.
import { ATOM_MEDIA_TYPE, writeCategories, writeEntry } from '../../src-protocol'
import type { AuthenticatedHandler } from '../auth/wsse'
import { w3cNow, type ServiceClock } from '../clock'
import { registerWeblogPages } from '../public/weblog-pages'
import type { Post, PostFields, Store, User, Weblog } from '../store'
import { MAX_ENTRY_BYTES, readAtomBody } from './body'
import { entryFromBody } from './entries'
import { registerPagedFeed, type PagedFeed } from './feed-pages'
import { ownedWeblog } from './ownership'
import { draftFromEntry, entryOfPost, idOf, postAddresses, weblogAddresses, type PostDraft } from './posts-entry'
import { idempotentRequest, remember, replay } from './posts-idempotency'
import { atomReply, HttpError, type Handler, type Reply } from './reply'
import type { Router } from './router'

/** Registers the weblog Atom routes (behind WSSE) and the weblogs' public pages. */
export function registerPostRoutes(
  router: Router,
  store: Store,
  withWsse: (handler: AuthenticatedHandler) => Handler,
  clock: ServiceClock,
  categoriesPerPost = Infinity,
): void {
  const feed = '/t/atom/weblog/blog_id=:blogId'
  const entry = `${feed}/entry_id=:entryId`
  registerPagedFeed(router, store, feed, withWsse, async ({ origin, params }, user) => {
    return weblogFeed(store, await ownedWeblog(store, user, params['blogId']), user, origin)
  })
  router
    .post(feed, withWsse(createPost(store, clock, categoriesPerPost)))
    .get(`${feed}/svc=categories`, withWsse(categoryList(store)))
    .get(entry, withWsse(readPost(store)))
    .put(entry, withWsse(replacePost(store, clock, categoriesPerPost)))
    .delete(entry, withWsse(deletePost(store)))
  registerWeblogPages(router, store, clock)
}

function weblogFeed(store: Store, weblog: Weblog, user: User, origin: string): PagedFeed<Post> {
  const addresses = weblogAddresses(origin, weblog)
  return {
    title: weblog.title,
    feedUri: addresses.feed,
    links: [
      { rel: 'alternate', href: addresses.page, type: 'text/html', title: weblog.title },
      { rel: 'service.post', href: addresses.feed, type: ATOM_MEDIA_TYPE, title: weblog.title },
    ],
    rows: (offset, limit) => store.posts.page(weblog.id, offset, limit),
    entry: (post) => entryOfPost(post, weblog, user, origin),
    modified: (post) => post.modified,
  }
}

function createPost(store: Store, clock: ServiceClock, categoriesPerPost: number): AuthenticatedHandler {
  return async ({ request, origin, params }, user) => {
    const weblog = await ownedWeblog(store, user, params['blogId'])
    const xml = await readAtomBody(request, MAX_ENTRY_BYTES)
    const idempotent = idempotentRequest(request, xml)
    // The look-up and the create share one transaction, and transactions take turns: one key, one post.
    return store.transaction(async () => {
      const earlier = idempotent && (await replay(store.idempotency, user.id, idempotent))
      if (earlier) return earlier

      const draft = draftFromEntry(entryFromBody(xml, request, origin))
      const createdAt = w3cNow(clock)
      const fields = await postFields(store, weblog, draft, createdAt, categoriesPerPost)
      const post = await store.posts.create(weblog.id, user.id, fields, createdAt)
      // A scheduled post's event waits for its date (scheduled-posts.ts).
      if (!post.scheduled) await store.events.record({ actorId: user.id, verb: 'NewAsset', objectType: 'Post', objectId: post.id, published: createdAt })
      const location = postAddresses(origin, weblog, post.id).edit
      const reply = entryReply(201, post, weblog, user, origin, { Location: location })
      if (idempotent) await remember(store.idempotency, user.id, idempotent, reply)
      return reply
    })
  }
}

function readPost(store: Store): AuthenticatedHandler {
  return async ({ origin, params }, user) => {
    const weblog = await ownedWeblog(store, user, params['blogId'])
    return entryReply(200, await postOf(store, user, weblog, params['entryId']), weblog, user, origin)
  }
}

/**
 * PUT replaces the post with what the entry describes (an entry without content or categories leaves the post
 * without them), except its date: a post keeps it when the entry leaves <issued> out.
 */
function replacePost(store: Store, clock: ServiceClock, categoriesPerPost: number): AuthenticatedHandler {
  return async ({ request, origin, params }, user) => {
    const weblog = await ownedWeblog(store, user, params['blogId'])
    const existing = await postOf(store, user, weblog, params['entryId'])
    const draft = draftFromEntry(entryFromBody(await readAtomBody(request, MAX_ENTRY_BYTES), request, origin))
    const fields = await postFields(store, weblog, draft, existing.issued, categoriesPerPost)
    const post = await store.transaction(() => store.posts.update(existing.id, fields, w3cNow(clock)))
    return entryReply(200, post, weblog, user, origin)
  }
}

function deletePost(store: Store): AuthenticatedHandler {
  return async ({ params }, user) => {
    const weblog = await ownedWeblog(store, user, params['blogId'])
    const post = await postOf(store, user, weblog, params['entryId'])
    // A trigger forgets the post's events and url id with it (migration 6).
    await store.posts.delete(post.id)
    // XML::Atom::Client and MT's clients need exactly 200 here; the body is empty, its type still declared.
    return atomReply(200, '')
  }
}

function categoryList(store: Store): AuthenticatedHandler {
  return async ({ params }, user) => {
    const weblog = await ownedWeblog(store, user, params['blogId'])
    return atomReply(200, writeCategories((await store.categories.of(weblog.id)).map((category) => category.name)))
  }
}

function entryReply(
  status: number,
  post: Post,
  weblog: Weblog,
  user: User,
  origin: string,
  headers: Record<string, string> = {},
): Reply & { body: string } {
  const body = writeEntry(entryOfPost(post, weblog, user, origin))
  return { ...atomReply(status, body, headers), body }
}

/**
 * The draft as a post of `weblog`: every subject must be one of the weblog's categories (spec §2.7). Only the first
 * `categoriesPerPost` of them are kept, the rest dropped without a word, as Movable Type keeps the first one.
 */
async function postFields(
  store: Store,
  weblog: Weblog,
  draft: PostDraft,
  defaultIssued: string,
  categoriesPerPost: number,
): Promise<PostFields> {
  // Most posts name no category: no look-up for them.
  const { found, unknown } =
    draft.subjects.length === 0 ? { found: [], unknown: [] } : await store.categories.match(weblog.id, draft.subjects)
  if (unknown.length > 0) {
    const names = (await store.categories.of(weblog.id)).map((category) => category.name)
    const asked = unknown.map((name) => `"${name}"`).join(', ')
    throw new HttpError(
      400,
      names.length === 0
        ? `The weblog "${weblog.title}" has no categories, so a post cannot be filed under ${asked}. ` +
            'Leave dc:subject out.'
        : `The weblog "${weblog.title}" has no ${unknown.length === 1 ? 'category' : 'categories'} ${asked}. ` +
            `Use ${names.length === 1 ? 'its category' : 'one or more of its categories'}: ${names.join(', ')}.`,
    )
  }
  const { title, content, contentKind, summary } = draft
  return { title, content, contentKind, summary, issued: draft.issued ?? defaultIssued, categories: found.slice(0, categoriesPerPost) }
}

/** The post an EditURI names: 403 when it is another user's, 404 when it is not in this weblog. */
async function postOf(store: Store, user: User, weblog: Weblog, entryId: string | undefined): Promise<Post> {
  const id = idOf(entryId)
  const post = id === null ? null : await store.posts.find(id)
  if (post && post.weblogId !== weblog.id && (await store.weblogs.find(post.weblogId))?.ownerId !== user.id) {
    throw new HttpError(403, `The entry ${post.id} belongs to another user, so ${user.username} cannot use it.`)
  }
  if (!post || post.weblogId !== weblog.id) {
    throw new HttpError(
      404,
      `The weblog "${weblog.title}" has no entry ${entryId ?? ''}. It may have been deleted; the weblog's feed lists ` +
        'the entries it has.',
    )
  }
  return post
}
