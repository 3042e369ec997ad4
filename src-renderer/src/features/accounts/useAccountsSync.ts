import { useEffect } from 'react'
import { api } from '../../lib/api'
import { useAccountsStore } from './store'

/** Loads the accounts once and follows the main process's change events while the app is mounted. */
export function useAccountsSync() {
  const loadAccounts = useAccountsStore((state) => state.loadAccounts)
  const receiveAccounts = useAccountsStore((state) => state.receiveAccounts)
  useEffect(() => {
    void loadAccounts()
    return api.accounts.onChanged(receiveAccounts)
  }, [loadAccounts, receiveAccounts])
}
