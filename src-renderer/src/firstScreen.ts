// What the window shows first is asked for before React draws anything: the accounts and the status bar's news and,
// when the window opens where it was left, that account's weblogs, albums and lists and the weblog's drafts. The
// answers cross from the main process while the page draws, instead of one after another as each part mounts.
import { useAccountsStore } from './features/accounts'
import { useCollectionsStore } from './features/collections'
import { useDraftsStore } from './features/editor'
import { accountOfView, useNavigation } from './features/navigation'
import { useStatusStore } from './features/shell'

export function loadFirstScreen(): void {
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
}
