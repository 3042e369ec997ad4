// View state for drafts: each weblog's list as the main process last said it, and the latest word on every draft
// (its state moves as the outbox sends it: Queued → Sending → Published). The main process owns the drafts; this
// store mirrors them and follows `drafts:changed`.
import { create } from 'zustand'
import type { DraftSummary, WeblogAddress } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { sharedWhileInFlight } from '../../lib/sharedWhileInFlight'

export type Loadable<T> = { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed'; error: ApiError }

/** A weblog's drafts as far as they have been read: the list reads a page more as the reader nears its end. */
export interface DraftsListing {
  drafts: DraftSummary[]
  /** Whether drafts changed longer ago are still to be read. */
  more: boolean
  /** Why the next page could not be read, until it is tried again. */
  moreError: ApiError | null
}

export interface DraftsState {
  /** Each weblog's drafts, newest change first, by `weblogKey`. */
  lists: Partial<Record<string, Loadable<DraftsListing>>>
  /** The latest summary of every draft heard of, by id: what the editor shows as the draft's state. */
  latest: Partial<Record<string, DraftSummary>>
  creating: { status: 'idle' } | { status: 'creating' } | { status: 'failed'; error: ApiError }

  /** Reads the weblog's first page of drafts (again). */
  load(address: WeblogAddress): Promise<void>
  /** Reads the page after the drafts already listed. */
  loadMore(address: WeblogAddress): Promise<void>
  /** Takes a draft's new summary (an event, or an answer): updates its list and its latest state. */
  receive(summary: DraftSummary): void
  /** Makes a new draft in the weblog; resolves with its id, or null when it could not be made (see `creating`). */
  create(address: WeblogAddress): Promise<string | null>
}

export function weblogKey({ accountId, weblogPostUri }: WeblogAddress): string {
  return `${accountId}\n${weblogPostUri}`
}

/** Pages being read, by `weblogKey` and which page. */
const pageRequest = sharedWhileInFlight()

function requestPage(address: WeblogAddress, which: 'first' | 'more'): Promise<void> {
  const key = weblogKey(address)
  return pageRequest(`${key}\n${which}`, () => readPage(key, { accountId: address.accountId, weblogPostUri: address.weblogPostUri }, which))
}

async function readPage(key: string, address: WeblogAddress, which: 'first' | 'more'): Promise<void> {
  const set = useDraftsStore.setState
  const shown = useDraftsStore.getState().lists[key]
  const after = which === 'more' && shown?.status === 'loaded' ? (shown.value.drafts.at(-1) ?? null) : null
  if (which === 'more' && (shown?.status !== 'loaded' || !shown.value.more || after === null)) return
  // A list already shown stays while it is read again, so the pane does not flash.
  if (shown?.status !== 'loaded') set((state) => ({ lists: { ...state.lists, [key]: { status: 'loading' } } }))
  try {
    const page = await api.drafts.list({ ...address, after: after && { updatedAt: after.updatedAt, id: after.id } })
    set((state) => {
      const current = state.lists[key]
      let drafts = page.drafts
      if (after !== null) {
        // The list was read again, or changed at its end, meanwhile: this page no longer follows it.
        const last = current?.status === 'loaded' ? current.value.drafts.at(-1) : undefined
        if (current?.status !== 'loaded' || last?.id !== after.id || last.updatedAt !== after.updatedAt) return state
        const listed = new Set(current.value.drafts.map((draft) => draft.id))
        drafts = [...current.value.drafts, ...page.drafts.filter((draft) => !listed.has(draft.id))]
      }
      return {
        lists: { ...state.lists, [key]: { status: 'loaded', value: { drafts, more: page.more, moreError: null } } },
        latest: { ...state.latest, ...Object.fromEntries(page.drafts.map((draft) => [draft.id, draft])) },
      }
    })
  } catch (error) {
    set((state) => {
      const current = state.lists[key]
      const failed = toApiError(error)
      if (after === null || current?.status !== 'loaded') return { lists: { ...state.lists, [key]: { status: 'failed', error: failed } } }
      return { lists: { ...state.lists, [key]: { status: 'loaded', value: { ...current.value, moreError: failed } } } }
    })
  }
}

export const useDraftsStore = create<DraftsState>()((set, get) => ({
  lists: {},
  latest: {},
  creating: { status: 'idle' },

  load: (address) => requestPage(address, 'first'),
  loadMore: (address) => requestPage(address, 'more'),

  receive(summary) {
    set((state) => {
      if (isStale(summary, state.latest[summary.id])) return state
      const key = weblogKey(summary)
      const list = state.lists[key]
      const lists =
        list?.status === 'loaded' ? { ...state.lists, [key]: { status: 'loaded' as const, value: withSummary(list.value, summary) } } : state.lists
      return { lists, latest: { ...state.latest, [summary.id]: summary } }
    })
  },

  async create(address) {
    set({ creating: { status: 'creating' } })
    try {
      const draft = await api.drafts.create(address)
      get().receive(draft)
      set({ creating: { status: 'idle' } })
      return draft.id
    } catch (error) {
      set({ creating: { status: 'failed', error: toApiError(error) } })
      return null
    }
  },
}))

/**
 * Answers and events can cross: an older word on a draft never replaces a newer one. Sending does not change the
 * draft (only its operation), so a "queued" answer to publish can arrive after the "sending" it led to.
 */
function isStale(summary: DraftSummary, previous: DraftSummary | undefined): boolean {
  if (!previous) return false
  if (previous.updatedAt !== summary.updatedAt) return previous.updatedAt > summary.updatedAt
  return previous.state === 'sending' && summary.state === 'queued'
}

/**
 * The listing with `summary` in its place (newest change first), or without it once the draft is deleted. A draft
 * older than all those read, while more are to be read, comes with its page.
 */
function withSummary(listing: DraftsListing, summary: DraftSummary): DraftsListing {
  const others = listing.drafts.filter((draft) => draft.id !== summary.id)
  const at = others.findIndex((draft) => draft.updatedAt <= summary.updatedAt)
  // Drafts holds unpublished writing only: once live, a post's copy is listed with the posts (PostsList).
  if (summary.state === 'deleted' || summary.live || (at === -1 && listing.more)) return { ...listing, drafts: others }
  const drafts = at === -1 ? [...others, summary] : [...others.slice(0, at), summary, ...others.slice(at)]
  return { ...listing, drafts }
}

/** Follows `drafts:changed` for as long as the window is open, so every list read and the editor stay current. */
export function followDrafts(): void {
  api.drafts.onChanged((summary) => useDraftsStore.getState().receive(summary))
}
