import { useLayoutEffect } from 'react'
import { api } from '../../lib/api'
import { useAccountsStore } from './store'

/**
 * Follows the main process's change events while the app is mounted, and loads the accounts unless the window's
 * start already has (loadFirstScreen). A layout effect, so the sidebar's request goes out before the panes ask for
 * their own (effects run children first).
 */
export function useAccountsSync() {
  const loadAccounts = useAccountsStore((state) => state.loadAccounts)
  const receiveAccounts = useAccountsStore((state) => state.receiveAccounts)
  useLayoutEffect(() => {
    if (useAccountsStore.getState().accounts.status !== 'loaded') void loadAccounts()
    return api.accounts.onChanged(receiveAccounts)
  }, [loadAccounts, receiveAccounts])
}
