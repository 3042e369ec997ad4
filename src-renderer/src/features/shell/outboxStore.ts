// The outbox as the status panel shows it: every operation not yet sent, and those sent while the app was open (so
// the person sees them arrive), in the order they were queued, with each upload's progress.
import { create } from 'zustand'
import type { OutboxItem, UploadProgress } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'

export type OutboxList = { status: 'idle' } | { status: 'loading' } | { status: 'loaded' } | { status: 'failed'; error: ApiError }

export interface OutboxState {
  list: OutboxList
  /** By operation id. */
  items: Record<number, OutboxItem>
  progress: Record<number, UploadProgress>
  /** An operation whose Retry or Discard is on its way, and one that failed, with why. */
  acting: Record<number, { status: 'busy' } | { status: 'failed'; error: ApiError }>

  load(): Promise<void>
  receive(item: OutboxItem): void
  receiveProgress(progress: UploadProgress): void
  retry(operationId: number): Promise<void>
  discard(operationId: number): Promise<void>
}

export const useOutboxStore = create<OutboxState>()((set, get) => ({
  list: { status: 'idle' },
  items: {},
  progress: {},
  acting: {},

  async load() {
    if (get().list.status === 'idle') set({ list: { status: 'loading' } })
    try {
      const open = await api.outbox.list()
      set((state) => {
        // Sent ones stay for the person to see and follow; the rest is as the main process says now.
        const items: Record<number, OutboxItem> = {}
        for (const item of Object.values(state.items)) if (item.state === 'done') items[item.id] = item
        for (const item of open) items[item.id] = item
        return { list: { status: 'loaded' }, items }
      })
    } catch (error) {
      set({ list: { status: 'failed', error: toApiError(error) } })
    }
  },

  receive(item) {
    set((state) => {
      const progress = { ...state.progress }
      if (item.state !== 'sending') delete progress[item.id]
      return { items: { ...state.items, [item.id]: item }, progress }
    })
  },

  receiveProgress(progress) {
    set((state) => ({ progress: { ...state.progress, [progress.operationId]: progress } }))
  },

  async retry(operationId) {
    await act(operationId, () => api.outbox.retry({ operationId }))
  },

  async discard(operationId) {
    if (!(await act(operationId, () => api.outbox.discard({ operationId })))) return
    // Discarding a post's first publish takes the later changes of that draft with it: ask what is left.
    set((state) => {
      const items = { ...state.items }
      delete items[operationId]
      return { items }
    })
    await get().load()
  },
}))

async function act(operationId: number, request: () => Promise<null>): Promise<boolean> {
  const setActing = (value: OutboxState['acting'][number] | null) =>
    useOutboxStore.setState((state) => {
      const acting = { ...state.acting }
      if (value === null) delete acting[operationId]
      else acting[operationId] = value
      return { acting }
    })
  setActing({ status: 'busy' })
  try {
    await request()
    setActing(null)
    return true
  } catch (error) {
    setActing({ status: 'failed', error: toApiError(error) })
    return false
  }
}

/** The operations in the order they were queued. */
export function orderedItems(items: Record<number, OutboxItem>): OutboxItem[] {
  return Object.values(items).sort((a, b) => a.id - b.id)
}
