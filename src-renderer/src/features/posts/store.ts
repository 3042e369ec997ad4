// View state for a weblog's published posts and its categories. The main process fetches and caches; this store
// keeps what it last answered per weblog, what is loading, and what failed, so the list, the categories pane and
// every category picker of a weblog show the same thing.
import { create } from 'zustand'
import type {
  CategoryListing,
  ConflictResolution,
  DraftState,
  PostDraft,
  RemotePostSummary,
  WeblogAddress,
} from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { sharedWhileInFlight } from '../../lib/sharedWhileInFlight'
import { whenIdle } from '../../lib/whenIdle'

export interface PostsList {
  status: 'loading' | 'loaded' | 'failed'
  posts: RemotePostSummary[]
  /** The next (older) page, or null at the end of the feed. */
  next: string | null
  /** What is shown is the cache: the server could not be reached. */
  offline: boolean
  fetchedAt: string | null
  /** Why the first page could not be shown. */
  error: ApiError | null
  loadingOlder: boolean
  /** Why the next page could not be loaded; the pages already shown stay. */
  olderError: ApiError | null
}

export interface CategoriesView {
  status: 'loading' | 'loaded' | 'failed'
  listing: CategoryListing | null
  /** Asking the server now; the listing shown stays meanwhile. */
  refreshing: boolean
  error: ApiError | null
}

export interface PostsState {
  lists: Partial<Record<string, PostsList>>
  categories: Partial<Record<string, CategoriesView>>
  /** Loads (or reloads) the newest page; older pages shown before are dropped. */
  loadPosts(address: WeblogAddress): Promise<void>
  /**
   * Loads the newest page before the window is drawn: the list's own load as it is first drawn takes this answer
   * instead of asking again.
   */
  preloadPosts(address: WeblogAddress): Promise<void>
  loadOlder(address: WeblogAddress): Promise<void>
  /** Queues the post's deletion; resolves once it is queued, or throws why not. */
  deletePost(address: WeblogAddress, editUri: string): Promise<void>
  /** Opens a post as a draft (core makes one, or finds the one already editing it), marked in the list; resolves its id. */
  editPost(address: WeblogAddress, editUri: string): Promise<string>
  /** Reloads the list whenever a draft of the weblog is published or deleted; returns the function that stops. */
  followDrafts(address: WeblogAddress): () => void
  /** Settles a draft's conflict with the weblog; resolves the draft as it now is, or throws why not. */
  resolveConflict(resolution: ConflictResolution): Promise<PostDraft>
  /** `refresh`: ask the server now; otherwise core answers from its cache (reading the server only the first time). */
  loadCategories(address: WeblogAddress, options: { refresh: boolean }): Promise<void>
}

export const weblogKey = ({ accountId, weblogPostUri }: WeblogAddress): string => `${accountId}\n${weblogPostUri}`

const emptyList: PostsList = {
  status: 'loading',
  posts: [],
  next: null,
  offline: false,
  fetchedAt: null,
  error: null,
  loadingOlder: false,
  olderError: null,
}

/** Requests in flight, so a second click or a remount does not send a duplicate. */
const once = sharedWhileInFlight()
/** Pages read before the window was drawn, by weblog key, until the list takes them or the drawn window is idle. */
const preloaded = new Map<string, Promise<void>>()

export const usePostsStore = create<PostsState>()((set, get) => {
  const updateList = (key: string, change: (list: PostsList) => Partial<PostsList>) =>
    set((state) => {
      const list = state.lists[key] ?? emptyList
      return { lists: { ...state.lists, [key]: { ...list, ...change(list) } } }
    })
  const updateCategories = (key: string, change: (view: CategoriesView) => Partial<CategoriesView>) =>
    set((state) => {
      const view = state.categories[key] ?? { status: 'loading', listing: null, refreshing: false, error: null }
      return { categories: { ...state.categories, [key]: { ...view, ...change(view) } } }
    })

  return {
    lists: {},
    categories: {},

    loadPosts(address) {
      const key = weblogKey(address)
      const early = preloaded.get(key)
      if (early) {
        preloaded.delete(key)
        return early
      }
      return once(`posts\n${key}`, async () => {
        updateList(key, (list) => ({ status: list.status === 'loaded' ? 'loaded' : 'loading', error: null }))
        try {
          const page = await api.posts.page({ ...address, pageUri: null })
          updateList(key, () => ({
            status: 'loaded',
            posts: page.posts,
            next: page.next,
            offline: page.offline,
            fetchedAt: page.fetchedAt,
            error: null,
            olderError: null,
          }))
        } catch (error) {
          // A reload that fails leaves the pages already shown, with the reason above them.
          updateList(key, (list) => ({ status: list.status === 'loaded' ? 'loaded' : 'failed', error: toApiError(error) }))
        }
      })
    },

    preloadPosts(address) {
      const key = weblogKey(address)
      const loading = get().loadPosts(address)
      preloaded.set(key, loading)
      void whenIdle().then(() => preloaded.delete(key))
      return loading
    },

    loadOlder(address) {
      const key = weblogKey(address)
      const pageUri = get().lists[key]?.next
      if (!pageUri) return Promise.resolve()
      return once(`older\n${key}`, async () => {
        updateList(key, () => ({ loadingOlder: true, olderError: null }))
        try {
          const page = await api.posts.page({ ...address, pageUri })
          updateList(key, (list) => {
            // Offset pages shift when posts are added meanwhile: a post already shown is not shown twice.
            const shown = new Set(list.posts.map((post) => post.editUri))
            const older = page.posts.filter((post) => !shown.has(post.editUri))
            return {
              posts: [...list.posts, ...older],
              next: page.next,
              offline: list.offline || page.offline,
              loadingOlder: false,
            }
          })
        } catch (error) {
          updateList(key, () => ({ loadingOlder: false, olderError: toApiError(error) }))
        }
      })
    },

    async deletePost(address, editUri) {
      const key = weblogKey(address)
      await api.posts.delete({ ...address, editUri })
      // Core leaves a post whose deletion is queued out of every page it answers from now on.
      updateList(key, (list) => ({ posts: list.posts.filter((post) => post.editUri !== editUri) }))
    },

    async editPost(address, editUri) {
      const draft = await api.posts.edit({ ...address, editUri })
      updateList(weblogKey(address), (list) => ({
        posts: list.posts.map((post) => (post.editUri === editUri ? { ...post, draftId: draft.id, localEdit: draft } : post)),
      }))
      return draft.id
    },

    followDrafts(address) {
      // A draft of this weblog that has just been published or deleted changes what the server lists.
      const seen = new Map<string, DraftState>()
      return api.drafts.onChanged((draft) => {
        if (draft.accountId !== address.accountId || draft.weblogPostUri !== address.weblogPostUri) return
        // A post's local copy moves (changes saved, an update queued, sent, stopped): its line says so at once.
        updateList(weblogKey(address), (list) => ({
          posts: list.posts.map((post) => (post.draftId === draft.id ? { ...post, localEdit: draft } : post)),
        }))
        const before = seen.get(draft.id)
        seen.set(draft.id, draft.state)
        if (before !== undefined && before !== draft.state && (draft.state === 'published' || draft.state === 'deleted')) {
          void get().loadPosts(address)
        }
      })
    },

    resolveConflict: (resolution) => api.drafts.resolveConflict(resolution),

    loadCategories(address, { refresh }) {
      const key = weblogKey(address)
      return once(`categories\n${key}\n${refresh}`, async () => {
        updateCategories(key, (view) => ({ refreshing: refresh, error: null, status: view.listing ? 'loaded' : 'loading' }))
        try {
          const listing = await api.categories.list({ ...address, refresh })
          updateCategories(key, () => ({ status: 'loaded', listing, refreshing: false }))
        } catch (error) {
          updateCategories(key, (view) => ({ status: view.listing ? 'loaded' : 'failed', refreshing: false, error: toApiError(error) }))
        }
      })
    },
  }
})
