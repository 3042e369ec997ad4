// Where the person is: what the sidebar selected (the list pane shows it) and which draft the editor has open.
// Every feature navigates through this store, so the sidebar, the list pane and the main pane never disagree.
import { create } from 'zustand'

export type View =
  | { kind: 'drafts'; accountId: string; weblogPostUri: string }
  | { kind: 'posts'; accountId: string; weblogPostUri: string }
  | { kind: 'categories'; accountId: string; weblogPostUri: string }
  | { kind: 'album'; accountId: string; collectionUri: string }
  | { kind: 'list'; accountId: string; collectionUri: string }
  | { kind: 'friends'; accountId: string }
  | { kind: 'account'; accountId: string }
  | { kind: 'outbox' }
  | { kind: 'add-account' }

export interface NavigationState {
  /** Null until there is an account to show something of. */
  view: View | null
  /** The draft in the editor, for the drafts and posts views. */
  draftId: string | null
  /** The friend whose feed is open, for the friends view. */
  friendId: string | null
  navigate(view: View): void
  openDraft(draftId: string | null): void
  openFriend(friendId: string | null): void
}

/** Where the window was when last closed: the next start opens there at once, without waiting for the server. */
const REMEMBERED_VIEW = 'blogdesk:view'

export const useNavigation = create<NavigationState>()((set) => ({
  view: rememberedView(),
  draftId: null,
  friendId: null,
  navigate(view) {
    set((state) => ({
      view,
      // A draft stays open while the person moves between its weblog's drafts and posts.
      draftId: sameWeblog(state.view, view) ? state.draftId : null,
      friendId: view.kind === 'friends' && state.view?.kind === 'friends' && state.view.accountId === view.accountId ? state.friendId : null,
    }))
  },
  openDraft(draftId) {
    set({ draftId })
  },
  openFriend(friendId) {
    set({ friendId })
  },
}))

// The places of an account are remembered; the outbox and the forms are where one goes for a moment.
useNavigation.subscribe((state, previous) => {
  if (state.view === previous.view) return
  if (state.view === null) localStorage.removeItem(REMEMBERED_VIEW)
  else if (accountOfView(state.view) !== null && state.view.kind !== 'account') localStorage.setItem(REMEMBERED_VIEW, JSON.stringify(state.view))
})

function rememberedView(): View | null {
  try {
    const view: unknown = JSON.parse(localStorage.getItem(REMEMBERED_VIEW) ?? 'null')
    return isPlace(view) ? view : null
  } catch {
    return null
  }
}

function isPlace(value: unknown): value is View {
  if (typeof value !== 'object' || value === null) return false
  const fields = value as Record<string, unknown>
  const text = (name: string) => typeof fields[name] === 'string'
  switch (fields['kind']) {
    case 'drafts':
    case 'posts':
    case 'categories':
      return text('accountId') && text('weblogPostUri')
    case 'album':
    case 'list':
      return text('accountId') && text('collectionUri')
    case 'friends':
      return text('accountId')
    default:
      return false
  }
}

/** The account a view shows something of; null for the views of the whole app. */
export function accountOfView(view: View | null): string | null {
  return view !== null && 'accountId' in view ? view.accountId : null
}

/** Whether two views are the same place, so the sidebar can mark the one shown. */
export function sameView(a: View | null, b: View): boolean {
  return a !== null && Object.entries(b).every(([key, value]) => (a as Record<string, unknown>)[key] === value)
}

function sameWeblog(before: View | null, after: View): boolean {
  return (
    before !== null &&
    'weblogPostUri' in before &&
    'weblogPostUri' in after &&
    before.accountId === after.accountId &&
    before.weblogPostUri === after.weblogPostUri
  )
}
