// The account's photo albums and typed lists, as the sidebar and the album and list panes show them. Shown from
// Blogdesk's cache at once, then read again from the server once per session, so a new album appears without a
// restart and an offline start still shows what was there.
import { create } from 'zustand'
import type { CollectionListing, CollectionSummary, ListType } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { sharedWhileInFlight } from '../../lib/sharedWhileInFlight'
import { whenIdle } from '../../lib/whenIdle'

export type CollectionKind = 'albums' | 'lists'

export type Loadable<T> = { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed'; error: ApiError }

interface CollectionsState {
  /** By account id, then kind. */
  listings: Partial<Record<string, Partial<Record<CollectionKind, Loadable<CollectionListing>>>>>
  /** Loads from the cache, then (once per session, or when asked) from the server. */
  load(accountId: string, kind: CollectionKind, options?: { refresh?: boolean }): Promise<void>
  /** Types the person chose this session, by `${accountId}\n${listUri}`: core learns a list's with its next item. */
  chosenListTypes: Partial<Record<string, ListType>>
  chooseListType(accountId: string, listUri: string, listType: ListType): void
  /** The list's feed told what it holds: the listing says so where nobody had. */
  learnListType(accountId: string, listUri: string, listType: ListType): void
}

/** Listings read from the server in this session; later visits show the cache without asking again. */
const refreshed = new Set<string>()
const listingRequest = sharedWhileInFlight()

export const useCollectionsStore = create<CollectionsState>()((set, get) => {
  function put(accountId: string, kind: CollectionKind, listing: Loadable<CollectionListing>) {
    set((state) => ({ listings: { ...state.listings, [accountId]: { ...state.listings[accountId], [kind]: listing } } }))
  }

  async function fetchListing(accountId: string, kind: CollectionKind, refresh: boolean): Promise<void> {
    const current = get().listings[accountId]?.[kind]
    if (current?.status !== 'loaded') put(accountId, kind, { status: 'loading' })
    try {
      const listing = await api[kind].list({ accountId, refresh })
      put(accountId, kind, { status: 'loaded', value: listing })
      if (refresh) refreshed.add(`${accountId}\n${kind}`)
      // The cache answered: ask the server too, once, in the background once the window is drawn.
      if (!refresh && !refreshed.has(`${accountId}\n${kind}`)) {
        await whenIdle()
        await fetchListing(accountId, kind, true)
      }
    } catch (error) {
      // What is shown stays shown; a first load that fails says why.
      if (get().listings[accountId]?.[kind]?.status !== 'loaded') put(accountId, kind, { status: 'failed', error: toApiError(error) })
    }
  }

  return {
    listings: {},

    load(accountId, kind, { refresh = false } = {}) {
      return listingRequest(`${accountId}\n${kind}\n${refresh}`, () => fetchListing(accountId, kind, refresh))
    },

    chosenListTypes: {},

    chooseListType(accountId, listUri, listType) {
      set((state) => ({ chosenListTypes: { ...state.chosenListTypes, [`${accountId}\n${listUri}`]: listType } }))
    },

    learnListType(accountId, listUri, listType) {
      const listing = get().listings[accountId]?.lists
      if (listing?.status !== 'loaded') return
      const collections = listing.value.collections.map((list) => (list.postUri === listUri && list.listType === null ? { ...list, listType } : list))
      put(accountId, 'lists', { status: 'loaded', value: { ...listing.value, collections } })
    },
  }
})

/** What the list holds: as the person chose it this session, else as core remembers it; null when nobody said yet. */
export function useListType(accountId: string, listUri: string): ListType | null {
  const chosen = useCollectionsStore((state) => state.chosenListTypes[`${accountId}\n${listUri}`])
  const known = useCollection(accountId, 'lists', listUri)?.listType
  return chosen ?? known ?? null
}

/** The album or list the pane shows, once its account's listing is in. */
export function useCollection(accountId: string, kind: CollectionKind, collectionUri: string): CollectionSummary | null {
  return useCollectionsStore((state) => {
    const listing = state.listings[accountId]?.[kind]
    return listing?.status === 'loaded' ? (listing.value.collections.find((collection) => collection.postUri === collectionUri) ?? null) : null
  })
}
