// The window's start, before React draws anything. It follows what the main process announces first, so no answer
// can be older than the news; then it asks for what the first screen shows: the accounts and the status bar's news
// and, when the window opens where it was left, that account's weblogs, albums and lists and the weblog's drafts or
// posts. The answers cross from the main process while the page draws, instead of one after another as each part
// mounts.
import { followAccounts, useAccountsStore } from './features/accounts'
import { useCollectionsStore } from './features/collections'
import { followDrafts, useDraftsStore } from './features/editor'
import { accountOfView, useNavigation } from './features/navigation'
import { usePostsStore } from './features/posts'
import { followShell, useStatusStore } from './features/shell'

export function startWindow(): void {
  followAccounts()
  followDrafts()
  followShell()

  const { loadAccounts, loadWeblogs } = useAccountsStore.getState()
  void loadAccounts()
  void useStatusStore.getState().load()
  const { view } = useNavigation.getState()
  const accountId = accountOfView(view)
  if (accountId === null) return
  void loadWeblogs(accountId)
  const collections = useCollectionsStore.getState()
  void collections.load(accountId, 'albums')
  void collections.load(accountId, 'lists')
  if (view?.kind === 'drafts') void useDraftsStore.getState().load(view)
  // The list asks again once drawn; that call joins this one, still on its way.
  if (view?.kind === 'posts') void usePostsStore.getState().loadPosts({ accountId: view.accountId, weblogPostUri: view.weblogPostUri })
}
