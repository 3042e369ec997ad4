// View state for drafts: each weblog's list as the main process last said it, and the latest word on every draft
// (its state moves as the outbox sends it: Queued → Sending → Published). The main process owns the drafts; this
// store mirrors them and follows `drafts:changed`.
import { create } from 'zustand'
import type { DraftSummary, WeblogAddress } from '../../../../src-preload/contract'
import { api, toApiError, type ApiError } from '../../lib/api'

export type Loadable<T> = { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed'; error: ApiError }

export interface DraftsState {
  /** Each weblog's drafts, newest change first, by `weblogKey`. */
  lists: Partial<Record<string, Loadable<DraftSummary[]>>>
  /** The latest summary of every draft heard of, by id: what the editor shows as the draft's state. */
  latest: Partial<Record<string, DraftSummary>>
  creating: { status: 'idle' } | { status: 'creating' } | { status: 'failed'; error: ApiError }

  load(address: WeblogAddress): Promise<void>
  /** Takes a draft's new summary (an event, or an answer): updates its list and its latest state. */
  receive(summary: DraftSummary): void
  /** Makes a new draft in the weblog; resolves with its id, or null when it could not be made (see `creating`). */
  create(address: WeblogAddress): Promise<string | null>
}

export function weblogKey({ accountId, weblogPostUri }: WeblogAddress): string {
  return `${accountId}\n${weblogPostUri}`
}

export const useDraftsStore = create<DraftsState>()((set, get) => ({
  lists: {},
  latest: {},
  creating: { status: 'idle' },

  async load(address) {
    const key = weblogKey(address)
    const known = get().lists[key]
    // A list already shown stays while it is read again, so the pane does not flash.
    if (known?.status !== 'loaded') set((state) => ({ lists: { ...state.lists, [key]: { status: 'loading' } } }))
    try {
      const drafts = await api.drafts.list(address)
      set((state) => ({
        lists: { ...state.lists, [key]: { status: 'loaded', value: drafts } },
        latest: { ...state.latest, ...Object.fromEntries(drafts.map((draft) => [draft.id, draft])) },
      }))
    } catch (error) {
      set((state) => ({ lists: { ...state.lists, [key]: { status: 'failed', error: toApiError(error) } } }))
    }
  },

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

/** The list with `summary` in its place (newest change first), or without it once the draft is deleted. */
function withSummary(list: DraftSummary[], summary: DraftSummary): DraftSummary[] {
  const others = list.filter((draft) => draft.id !== summary.id)
  if (summary.state === 'deleted') return others
  const at = others.findIndex((draft) => draft.updatedAt <= summary.updatedAt)
  return at === -1 ? [...others, summary] : [...others.slice(0, at), summary, ...others.slice(at)]
}

let followers = 0
let unsubscribe: (() => void) | null = null

/** Follows `drafts:changed` while any component that shows drafts is mounted (one subscription for all). */
export function followDraftChanges(): () => void {
  followers++
  unsubscribe ??= api.drafts.onChanged((summary) => useDraftsStore.getState().receive(summary))
  return () => {
    followers--
    if (followers === 0) {
      unsubscribe?.()
      unsubscribe = null
    }
  }
}
