// The app's status as the main process last told it: connectivity, each server's reachability, the outbox's counts
// and paused accounts; and the person's "Try now" for servers that cannot be reached.
import { create } from 'zustand'
import type { AppStatus } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { sharedWhileInFlight } from '../../lib/sharedWhileInFlight'

export interface StatusState {
  status: AppStatus | null
  error: ApiError | null
  load(): Promise<void>
  receive(status: AppStatus): void
  /** Tries every server that cannot be reached now, and sends what waits for those that answer. */
  tryNow(): Promise<void>
}

const statusRequest = sharedWhileInFlight()

export const useStatusStore = create<StatusState>()((set) => ({
  status: null,
  error: null,
  load() {
    return statusRequest('status', async () => {
      try {
        set({ status: await api.app.status(), error: null })
      } catch (error) {
        set({ error: toApiError(error) })
      }
    })
  },
  receive(status) {
    set({ status, error: null })
  },
  async tryNow() {
    try {
      await api.outbox.tryNow()
    } catch (error) {
      set({ error: toApiError(error) })
    }
  },
}))
