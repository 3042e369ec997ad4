// The outbox operations the album and list panes follow: photos and list items they queued, and ones still open
// from before a restart. Kept fresh from the outbox's events, which may overtake the answer of the call that queued
// the operation: an item is always shown as its latest event says.
import { create } from 'zustand'
import type { OutboxItem, UploadProgress } from '../../../../src-shared/contract'
import { api } from '../../lib/api'

interface OutboxTrackingState {
  items: Partial<Record<number, OutboxItem>>
  progress: Partial<Record<number, UploadProgress>>
  /** Takes the answer of a call that queued an operation, unless an event already told of a later state. */
  track(item: OutboxItem): void
  /** The open operations going to `queueKey` (an album's or a list's PostURI), oldest first. */
  openFor(queueKey: string, kind: OutboxItem['kind']): Promise<OutboxItem[]>
  retry(operationId: number): Promise<void>
  discard(operationId: number): Promise<void>
}

let listening = false
/** Called when an operation a pane follows reaches `done`, so it can show the server's answer. */
const doneListeners = new Set<(item: OutboxItem) => void>()

export const useOutboxTracking = create<OutboxTrackingState>()((set, get) => ({
  items: {},
  progress: {},

  track(item) {
    if (get().items[item.id]) return
    set((state) => ({ items: { ...state.items, [item.id]: item } }))
  },

  async openFor(queueKey, kind) {
    const open = (await api.outbox.list()).filter((item) => item.queueKey === queueKey && item.kind === kind)
    for (const item of open) get().track(item)
    return open.map((item) => get().items[item.id] ?? item)
  },

  async retry(operationId) {
    await api.outbox.retry({ operationId })
  },

  async discard(operationId) {
    await api.outbox.discard({ operationId })
    set((state) => {
      const items = { ...state.items }
      delete items[operationId]
      return { items }
    })
  },
}))

/** Follows the outbox's events from now on (once per window); `onDone` hears each followed operation that is done. */
export function followOutbox(onDone: (item: OutboxItem) => void): () => void {
  if (!listening) {
    listening = true
    api.outbox.onChanged((item) => {
      if (item.kind !== 'photo' && item.kind !== 'list-item') return
      useOutboxTracking.setState((state) => ({ items: { ...state.items, [item.id]: item } }))
      if (item.state === 'done') for (const listener of doneListeners) listener(item)
    })
    api.outbox.onProgress((progress) => {
      useOutboxTracking.setState((state) => ({ progress: { ...state.progress, [progress.operationId]: progress } }))
    })
  }
  doneListeners.add(onDone)
  return () => doneListeners.delete(onDone)
}
