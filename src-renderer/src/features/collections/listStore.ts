// A typed list's pane: its items where the server lists them, else those Blogdesk added to it (with what the server
// looked up), and new ones on their way through the outbox, so an item added offline shows as queued and appears filled in once the server took it.
import { create } from 'zustand'
import type { ListContents, NewListEntry, OutboxItem } from '../../../../src-shared/contract'
import { api, toApiError } from '../../lib/api'
import { useOutboxTracking } from './outboxTracking'
import { useCollectionsStore, type Loadable } from './store'

/** An item added from this window (or still open in the outbox from before), by its operation. */
export interface AddedItem {
  operationId: number
  /** What the person gave, to tell it from what the server filled in; null for one restored from the outbox. */
  sent: Record<string, string> | null
}

interface ListState {
  /** By list key (listKey). */
  items: Partial<Record<string, Loadable<ListContents>>>
  added: Partial<Record<string, AddedItem[]>>
  /** The item the server took most recently, shown first in the list with what it filled in. */
  justAdded: Partial<Record<string, AddedItem>>
  loadItems(accountId: string, listUri: string): Promise<void>
  /** Queues the item and resolves with its operation; throws an ApiError when Blogdesk refuses it (the form shows why). */
  add(entry: NewListEntry): Promise<number>
  restoreQueued(accountId: string, listUri: string): Promise<void>
  /** The outbox says an item of this list is on the server: show it with what the server filled in. */
  itemDone(item: OutboxItem): Promise<void>
  forget(listKey: string, operationId: number): void
}

export function listKey(accountId: string, listUri: string): string {
  return `${accountId}\n${listUri}`
}

export const useListStore = create<ListState>()((set, get) => ({
  items: {},
  added: {},
  justAdded: {},

  async loadItems(accountId, listUri) {
    const key = listKey(accountId, listUri)
    if (get().items[key]?.status !== 'loaded') set((state) => ({ items: { ...state.items, [key]: { status: 'loading' } } }))
    try {
      const items = await api.lists.items({ accountId, collectionUri: listUri })
      set((state) => ({ items: { ...state.items, [key]: { status: 'loaded', value: items } } }))
      if (items.listType) useCollectionsStore.getState().learnListType(accountId, listUri, items.listType)
    } catch (error) {
      set((state) => ({ items: { ...state.items, [key]: { status: 'failed', error: toApiError(error) } } }))
    }
  },

  async add(entry) {
    const key = listKey(entry.accountId, entry.collectionUri)
    const item = await api.lists.add(entry)
    useOutboxTracking.getState().track(item)
    const added: AddedItem = { operationId: item.id, sent: entry.fields }
    set((state) => ({ added: { ...state.added, [key]: [...(state.added[key] ?? []), added] } }))
    // The server may have taken it before this answer came back.
    const latest = useOutboxTracking.getState().items[item.id]
    if (latest?.state === 'done') await get().itemDone(latest)
    return item.id
  },

  async restoreQueued(accountId, listUri) {
    const key = listKey(accountId, listUri)
    const open = await useOutboxTracking.getState().openFor(listUri, 'list-item')
    const known = new Set((get().added[key] ?? []).map((added) => added.operationId))
    const restored = open.filter((item) => item.accountId === accountId && !known.has(item.id)).map((item) => ({ operationId: item.id, sent: null }))
    if (restored.length > 0) set((state) => ({ added: { ...state.added, [key]: [...restored, ...(state.added[key] ?? [])] } }))
  },

  async itemDone(item) {
    const key = listKey(item.accountId, item.queueKey)
    const added = (get().added[key] ?? []).find((candidate) => candidate.operationId === item.id)
    await get().loadItems(item.accountId, item.queueKey)
    if (added) set((state) => ({ justAdded: { ...state.justAdded, [key]: added } }))
  },

  forget(key, operationId) {
    set((state) => ({ added: { ...state.added, [key]: (state.added[key] ?? []).filter((added) => added.operationId !== operationId) } }))
  },
}))
