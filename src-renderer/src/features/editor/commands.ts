// The application menu's commands reach the page as a `blogdesk:command` CustomEvent on window (the shell
// re-dispatches `app:command`); the editor's keyboard shortcuts lead to the same actions.
import { useEffect, useRef } from 'react'
import type { AppCommand, WeblogAddress } from '../../../../src-shared/contract'
import { useNavigation } from '../navigation'
import { useDraftsStore } from './store'

export const COMMAND_EVENT = 'blogdesk:command'

/** Calls `handler` with each command from the menu while the component is mounted. */
export function useAppCommand(handler: (command: AppCommand) => void): void {
  const latest = useRef(handler)
  useEffect(() => {
    latest.current = handler
  })
  useEffect(() => {
    const listener = (event: Event) => {
      if (event instanceof CustomEvent) latest.current(event.detail as AppCommand)
    }
    window.addEventListener(COMMAND_EVENT, listener)
    return () => window.removeEventListener(COMMAND_EVENT, listener)
  }, [])
}

/** The weblog a new post goes to: the one shown, or the one of the draft open in the editor. */
function weblogForNewPost(): WeblogAddress | null {
  const { view, draftId } = useNavigation.getState()
  if (view && 'weblogPostUri' in view) return { accountId: view.accountId, weblogPostUri: view.weblogPostUri }
  const open = draftId === null ? undefined : useDraftsStore.getState().latest[draftId]
  return open ? { accountId: open.accountId, weblogPostUri: open.weblogPostUri } : null
}

/** Makes a draft in `address` (or the weblog in view) and opens it in the editor, with its weblog's drafts beside it. */
export async function startNewPost(address: WeblogAddress | null = weblogForNewPost()): Promise<void> {
  if (address === null) return
  const draftId = await useDraftsStore.getState().create(address)
  if (draftId === null) return
  const navigation = useNavigation.getState()
  const view = navigation.view
  if (!(view?.kind === 'drafts' && view.accountId === address.accountId && view.weblogPostUri === address.weblogPostUri)) {
    navigation.navigate({ kind: 'drafts', ...address })
  }
  useNavigation.getState().openDraft(draftId)
}

let newPostFollowers = 0
const onNewPost = (event: Event) => {
  if (event instanceof CustomEvent && event.detail === 'new-post') void startNewPost()
}

/**
 * Answers the menu's New Post while any drafts view or editor is mounted: both call this, and one listener serves
 * them all, so a command makes one draft.
 */
export function useNewPostCommand(): void {
  useEffect(() => {
    if (newPostFollowers++ === 0) window.addEventListener(COMMAND_EVENT, onNewPost)
    return () => {
      if (--newPostFollowers === 0) window.removeEventListener(COMMAND_EVENT, onNewPost)
    }
  }, [])
}
