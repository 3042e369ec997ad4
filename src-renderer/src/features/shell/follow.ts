import { api } from '../../lib/api'
import { useOutboxStore } from './outboxStore'
import { useStatusStore } from './statusStore'

/**
 * Follows the main process for as long as the window is open: the app's status, the outbox's operations, and the
 * application menu's commands, which go on to whichever part of the window handles them (the editor) as a
 * `blogdesk:command` DOM event on `window`.
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
}
