import { api } from '../../lib/api'
import { useOutboxStore } from './outboxStore'
import { useStatusStore } from './statusStore'

/**
 * Follows the main process for as long as the window is open: the app's status, the outbox's operations, and the
 * application menu's commands, which go on to whichever part of the window handles them (the editor) as a
 * `blogdesk:command` DOM event on `window`, as quitting does as `blogdesk:quitting`.
 */
export function followShell(): void {
  const outbox = useOutboxStore.getState()
  api.app.onStatusChanged(useStatusStore.getState().receive)
  api.outbox.onChanged(outbox.receive)
  api.outbox.onProgress(outbox.receiveProgress)
  // A removed account takes its operations with it.
  api.accounts.onChanged(() => {
    if (useOutboxStore.getState().list.status === 'loaded') void useOutboxStore.getState().load()
  })
  api.app.onCommand((command) => {
    window.dispatchEvent(new CustomEvent('blogdesk:command', { detail: command }))
  })
  // Blogdesk is quitting: whatever holds unsaved text (the editor) saves it and hands over the promise; the main
  // process waits for the answer before it closes the store.
  api.app.onQuitting(() => {
    const saving: Promise<unknown>[] = []
    const detail: QuittingDetail = { waitUntil: (save) => void saving.push(save) }
    window.dispatchEvent(new CustomEvent('blogdesk:quitting', { detail }))
    void Promise.allSettled(saving).then(() => api.app.readyToQuit())
  })
}

/** The detail of the `blogdesk:quitting` DOM event. */
export interface QuittingDetail {
  waitUntil(save: Promise<unknown>): void
}
