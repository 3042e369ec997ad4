// The Trash: drafts deleted in the last 30 days (core keeps them), the Undo offered right after a deletion, and the
// Trash view's list of a weblog. Restoring hands the draft back to the drafts list (store.ts) and opens it.
import { create } from 'zustand'
import type { DraftSummary, TrashedDraft, WeblogAddress } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { useNavigation } from '../navigation'
import { useDraftsStore, weblogKey, type Loadable } from './store'

/** Which draft, in which weblog's Trash. */
type InTrash = Pick<DraftSummary, 'id' | 'accountId' | 'weblogPostUri'>

export interface TrashState {
  /** The draft just moved to the Trash, while its Undo is offered. */
  justTrashed: InTrash | null
  /** Why the last Undo, restore or deletion for good failed, until the next one. */
  error: ApiError | null
  /** Each weblog's Trash as last read, by `weblogKey`. */
  lists: Partial<Record<string, Loadable<TrashedDraft[]>>>

  /** Moves a draft never published to the Trash (a Trash shown lists it) and offers to undo it. */
  moveToTrash(draft: InTrash): Promise<void>
  /** Brings the draft just trashed back and opens it. */
  undo(): Promise<void>
  dismissUndo(): void
  load(address: WeblogAddress): Promise<void>
  /** Brings a draft back from the Trash and opens it. */
  restore(draft: TrashedDraft): Promise<void>
  deleteForever(draft: TrashedDraft): Promise<void>
  /** Deletes for good everything in the weblog's Trash. */
  emptyTrash(address: WeblogAddress): Promise<void>
}

export const useTrashStore = create<TrashState>()((set, get) => {
  const withoutDraft = (draft: InTrash) =>
    set((state) => {
      const key = weblogKey(draft)
      const list = state.lists[key]
      if (list?.status !== 'loaded') return state
      return { lists: { ...state.lists, [key]: { status: 'loaded', value: list.value.filter((trashed) => trashed.id !== draft.id) } } }
    })
  /** Restores the draft: the drafts list hears of it at once (and by drafts:changed), and the editor opens it. */
  async function bringBack(draft: InTrash): Promise<void> {
    try {
      const restored = await api.drafts.untrash({ draftId: draft.id })
      withoutDraft(draft)
      useDraftsStore.getState().receive(restored)
      useNavigation.getState().openDraft(restored.id)
      set({ error: null })
    } catch (error) {
      set({ error: toApiError(error) })
    }
  }

  return {
    justTrashed: null,
    error: null,
    lists: {},

    async moveToTrash(draft) {
      await api.drafts.remove({ draftId: draft.id })
      set({ justTrashed: { id: draft.id, accountId: draft.accountId, weblogPostUri: draft.weblogPostUri }, error: null })
      if (get().lists[weblogKey(draft)]?.status === 'loaded') await get().load(draft)
    },

    async undo() {
      const draft = get().justTrashed
      if (!draft) return
      set({ justTrashed: null })
      await bringBack(draft)
    },

    dismissUndo() {
      set({ justTrashed: null })
    },

    async load(address) {
      const key = weblogKey(address)
      // A Trash already shown stays while it is read again, so the pane does not flash.
      if (get().lists[key]?.status !== 'loaded') set((state) => ({ lists: { ...state.lists, [key]: { status: 'loading' } } }))
      try {
        const value = await api.drafts.trash({ accountId: address.accountId, weblogPostUri: address.weblogPostUri })
        set((state) => ({ lists: { ...state.lists, [key]: { status: 'loaded', value } } }))
      } catch (error) {
        set((state) => ({ lists: { ...state.lists, [key]: { status: 'failed', error: toApiError(error) } } }))
      }
    },

    restore: bringBack,

    async emptyTrash(address) {
      try {
        await api.drafts.emptyTrash({ accountId: address.accountId, weblogPostUri: address.weblogPostUri })
        set((state) => ({ lists: { ...state.lists, [weblogKey(address)]: { status: 'loaded', value: [] } }, error: null }))
      } catch (error) {
        set({ error: toApiError(error) })
      }
    },

    async deleteForever(draft) {
      try {
        await api.drafts.deleteForever({ draftId: draft.id })
        withoutDraft(draft)
        set({ error: null })
      } catch (error) {
        set({ error: toApiError(error) })
      }
    },
  }
})
