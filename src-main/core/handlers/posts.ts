// The weblog's posts as the server has them, and its categories: read through the account's Atom client, cached so
// they show offline, and opened in the editor as local drafts (edits and deletions then go out through the outbox).
import type {
  CategoryListing,
  DraftSummary,
  PostDraft,
  PostsPage,
  RemotePostRef,
  RemotePostSummary,
  Weblog,
  WeblogAddress,
} from '../../../src-shared/contract'
import { CoreError } from '../errors'
import type { FeedPage, RemotePost } from '../atom'
import type { Draft } from '../store'
import { accountsForSync, contentHash, heldMessage } from '../sync'
import { excerptOf } from './posts-text'
import type { HandlersOf, Services } from './services'

/** Drafts that no longer stand for a live post: its deletion is on its way or done. */
const GONE_STATES = new Set<Draft['state']>(['deleting', 'deleted'])

export function postsHandlers(services: Services): HandlersOf<'posts' | 'categories'> {
  const { accounts, caches, drafts, sync, platform, emit } = services
  const clients = accountsForSync(accounts, services.fetch)
  /** Posts being opened from the server, so two quick clicks make one draft. */
  const opening = new Map<string, Promise<Draft>>()
  const isOnline = () => platform.connectivity.isOnline()

  async function weblogOf({ accountId, weblogPostUri }: WeblogAddress): Promise<Weblog> {
    const cached = caches.weblog(accountId, weblogPostUri)
    if (cached) return cached
    if (!isOnline()) {
      throw new CoreError('offline', 'This computer is offline and this weblog has not been loaded here before. Connect to the network and try again.')
    }
    const weblogs = await accounts.weblogs(accountId)
    caches.replaceWeblogs(accountId, weblogs)
    const weblog = weblogs.find((candidate) => candidate.postUri === weblogPostUri)
    if (!weblog) {
      throw new CoreError('not-found', 'That weblog is no longer among this account’s weblogs on the server. Choose another one in the sidebar.')
    }
    return weblog
  }

  function draftsOfPost({ accountId, weblogPostUri, editUri }: RemotePostRef): Draft[] {
    return drafts.list(accountId, weblogPostUri).filter((draft) => draft.remote?.editUri === editUri)
  }

  /** The account's live draft of a post, if it has one. */
  function draftOfPost(ref: RemotePostRef): Draft | null {
    return draftsOfPost(ref).find((draft) => draft.state !== 'deleted') ?? null
  }

  function draftFor(ref: RemotePostRef): Promise<Draft> {
    const existing = draftOfPost(ref)
    if (existing) return Promise.resolve(existing)
    const key = `${ref.accountId}\n${ref.editUri}`
    let pending = opening.get(key)
    if (!pending) {
      pending = draftFromServer(ref).finally(() => opening.delete(key))
      opening.set(key, pending)
    }
    return pending
  }

  async function draftFromServer(ref: RemotePostRef): Promise<Draft> {
    const weblog = await weblogOf(ref)
    requireOnServerOf(ref.editUri, weblog, 'post')
    const post = await serverCopy(ref)
    const draft = drafts.create({
      accountId: ref.accountId,
      weblogPostUri: ref.weblogPostUri,
      title: post.title,
      content: post.content,
      categories: post.categories,
      summary: post.summary ?? '',
      state: 'published',
      remote: {
        editUri: post.editUri,
        id: post.id,
        permalink: post.permalink,
        baseModified: post.modified,
        baseContentHash: contentHash(post),
      },
    })
    emit('drafts:changed', summaryOf(draft))
    return draft
  }

  /** The post as the server has it now; offline, as the feed last showed it (a publish later finds any change since). */
  async function serverCopy({ accountId, editUri }: RemotePostRef): Promise<RemotePost> {
    if (isOnline()) {
      try {
        return await clients.atomClient(accountId).getPost(editUri)
      } catch (error) {
        if (!isUnreachable(error)) throw error
        const cached = caches.feedPost(accountId, editUri)
        if (cached) return cached.value
        throw error
      }
    }
    const cached = caches.feedPost(accountId, editUri)
    if (cached) return cached.value
    throw new CoreError('offline', 'This computer is offline and Blogdesk has no copy of that post yet. Open it again once you are back online.')
  }

  function pageOf(address: WeblogAddress, page: FeedPage, fetched: { offline: boolean; fetchedAt: string | null }): PostsPage {
    const draftsByEditUri = new Map<string, Draft>()
    for (const draft of drafts.list(address.accountId, address.weblogPostUri)) {
      if (draft.remote && !draftsByEditUri.has(draft.remote.editUri)) draftsByEditUri.set(draft.remote.editUri, draft)
    }
    const posts: RemotePostSummary[] = page.posts.flatMap((post) => {
      const draft = draftsByEditUri.get(post.editUri)
      if (draft && GONE_STATES.has(draft.state)) return []
      return [
        {
          editUri: post.editUri,
          title: post.title,
          excerpt: excerptOf(post.content),
          permalink: post.permalink,
          issued: post.issued,
          categories: post.categories,
          draftId: draft?.id ?? null,
          localEdit: draft ? summaryOf(draft, sync.heldUntil(draft.id)) : null,
        },
      ]
    })
    return { posts, next: page.next, ...fetched }
  }

  return {
    async 'posts:page'(request) {
      const weblog = await weblogOf(request)
      if (weblog.feedUri === null) {
        throw new CoreError(
          'rejected',
          `The server of “${weblog.title}” announces no FeedURI, so its published posts cannot be listed here. Its drafts still publish.`,
        )
      }
      const uri = request.pageUri ?? weblog.feedUri
      requireOnServerOf(uri, weblog, 'page of posts')
      const fromCache = (failure: CoreError) => {
        const cached = caches.feedPage(request.accountId, uri)
        if (!cached) throw failure
        return pageOf(request, cached.value, { offline: true, fetchedAt: cached.fetchedAt })
      }
      if (!isOnline()) {
        return fromCache(
          new CoreError('offline', `This computer is offline and the posts of “${weblog.title}” have not been loaded here before. They will show once it is back online.`),
        )
      }
      try {
        const page = await clients.atomClient(request.accountId).feedPage(uri)
        caches.replaceFeedPage(request.accountId, uri, page, request.weblogPostUri)
        return pageOf(request, page, { offline: false, fetchedAt: caches.feedPage(request.accountId, uri)!.fetchedAt })
      } catch (error) {
        if (!isUnreachable(error)) throw error
        return fromCache(error)
      }
    },

    async 'posts:edit'(request) {
      return postDraftOf(await draftFor(request))
    },

    async 'posts:delete'(request) {
      // A second click may come after the outbox has already sent the first: the post is gone, as asked.
      if (draftsOfPost(request).some((draft) => GONE_STATES.has(draft.state))) return null
      const draft = await draftFor(request)
      // The outbox announces the draft's move to `deleting` (drafts:changed) as it queues the deletion. Two clicks on
      // a post not opened before wait for the same draft; the second finds its deletion queued.
      if (draft.state !== 'deleting') {
        sync.enqueueDelete(draft.id)
        await sync.persisted()
      }
      return null
    },

    async 'categories:list'(request) {
      const cached = caches.categories(request.accountId, request.weblogPostUri)
      const fromCache = (problem: string | null): CategoryListing => ({
        categories: cached?.value ?? [],
        fetchedAt: cached?.fetchedAt ?? null,
        problem,
      })
      if (cached && !request.refresh) return fromCache(null)
      if (!isOnline()) {
        return fromCache(
          cached
            ? 'This computer is offline: these are the weblog’s categories as last read from the server.'
            : 'This computer is offline, and the weblog’s categories have not been read here before. They will show once it is back online.',
        )
      }
      try {
        const weblog = await weblogOf(request)
        if (weblog.categoriesUri === null) {
          return fromCache(`The server of “${weblog.title}” announces no CategoryURI, so Blogdesk cannot list its categories.`)
        }
        const categories = await clients.atomClient(request.accountId).categories(weblog.categoriesUri)
        caches.replaceCategories(request.accountId, request.weblogPostUri, categories)
        return { categories, fetchedAt: caches.categories(request.accountId, request.weblogPostUri)!.fetchedAt, problem: null }
      } catch (error) {
        if (!(error instanceof CoreError) || error.code === 'bug') throw error
        return fromCache(cached ? `${error.message} These are the categories as last read from the server.` : error.message)
      }
    },
  }
}

/** The server could not be reached or did not answer: what was cached may stand in. */
function isUnreachable(error: unknown): error is CoreError {
  return error instanceof CoreError && error.code === 'offline'
}

/**
 * Requests are signed with the account's password, so an address from the renderer is followed only on the
 * weblog's own server.
 */
function requireOnServerOf(uri: string, weblog: Weblog, what: string): void {
  if (originOf(uri) !== originOf(weblog.postUri)) {
    throw new CoreError('invalid-argument', `That ${what} is not on the server of “${weblog.title}”, so Blogdesk will not ask for it with this account.`)
  }
}

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin
  } catch {
    return null
  }
}

/**
 * What a list shows of a draft. `heldUntil` (ms, 0 for none): its post waits in this computer's outbox for its date
 * (sync's scheduling.ts), which its line then says.
 */
export function summaryOf(draft: Draft, heldUntil = 0): DraftSummary {
  return {
    id: draft.id,
    accountId: draft.accountId,
    weblogPostUri: draft.weblogPostUri,
    title: draft.title,
    excerpt: excerptOf(draft.content),
    state: draft.state,
    permalink: draft.remote?.permalink ?? null,
    lastError: draft.lastError ?? (heldUntil > 0 ? heldMessage(heldUntil) : null),
    updatedAt: draft.updatedAt,
    live: draft.remote !== null,
    unpublishedChanges: draft.unpublishedChanges,
    scheduledFor: draft.issued !== null && Date.parse(draft.issued) > Date.now() ? draft.issued : null,
    heldOnThisComputer: heldUntil > 0,
    droppedCategories: draft.droppedCategories,
  }
}

export function postDraftOf(draft: Draft, heldUntil = 0): PostDraft {
  const server = draft.conflict?.server
  return {
    ...summaryOf(draft, heldUntil),
    content: draft.content,
    categories: draft.categories,
    summary: draft.summary,
    issued: draft.issued,
    conflict: server ? { title: server.title, content: server.content, categories: server.categories, modified: server.modified } : null,
  }
}
