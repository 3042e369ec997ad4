// The app's status as the main process last told it: connectivity, the outbox's counts and paused accounts.
import { create } from 'zustand'
import type { AppStatus } from '../../../../src-preload/contract'
import { api, toApiError, type ApiError } from '../../lib/api'

export interface StatusState {
  status: AppStatus | null
  error: ApiError | null
  load(): Promise<void>
  receive(status: AppStatus): void
}

/** The status request in flight: the window asks before it first renders, and the shell may ask again meanwhile. */
let statusRequest: Promise<void> | null = null

export const useStatusStore = create<StatusState>()((set) => ({
  status: null,
  error: null,
  load() {
    statusRequest ??= api.app.status().then(
      (status) => {
        statusRequest = null
        set({ status, error: null })
      },
      (error: unknown) => {
        statusRequest = null
        set({ error: toApiError(error) })
      },
    )
    return statusRequest
  },
  receive(status) {
    set({ status, error: null })
  },
}))
