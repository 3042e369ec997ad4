// View state for accounts and their weblogs. The main process owns the data; this store mirrors what it last said,
// tracks what is loading, and remembers what the person selected.
import { create } from 'zustand'
import type { AccountSummary, NewAccount, Weblog } from '../../../../src-preload/contract'
import { api, toApiError, type ApiError } from '../../lib/api'

export type Loadable<T> =
  | { status: 'loading' }
  | { status: 'loaded'; value: T }
  | { status: 'failed'; error: ApiError }

export type AddAccountStatus = { status: 'idle' } | { status: 'checking' } | { status: 'failed'; error: ApiError }

export interface Selection {
  accountId: string | null
  /** A weblog is identified by its PostURI: the one link every weblog we can publish to has. */
  weblogUri: string | null
}

export interface AccountsState {
  accounts: Loadable<AccountSummary[]>
  weblogsByAccount: Partial<Record<string, Loadable<Weblog[]>>>
  selection: Selection
  /** True while the person has asked for the add-account form (it is always shown when there are no accounts). */
  addFormOpen: boolean
  adding: AddAccountStatus

  loadAccounts(): Promise<void>
  /** Takes a fresh list from the main process, fetching weblogs for accounts seen for the first time. */
  receiveAccounts(accounts: AccountSummary[]): void
  loadWeblogs(accountId: string): Promise<void>
  /** Resolves true once the server accepted the credentials and the account was saved. */
  addAccount(details: NewAccount): Promise<boolean>
  selectWeblog(accountId: string, weblogUri: string): void
  openAddForm(): void
  closeAddForm(): void
}

/** Accounts whose weblog request is in flight, so a retry or a change event does not send a second one. */
const weblogRequests = new Set<string>()

export const useAccountsStore = create<AccountsState>()((set, get) => ({
  accounts: { status: 'loading' },
  weblogsByAccount: {},
  selection: { accountId: null, weblogUri: null },
  addFormOpen: false,
  adding: { status: 'idle' },

  async loadAccounts() {
    set({ accounts: { status: 'loading' } })
    try {
      get().receiveAccounts(await api.accounts.list())
    } catch (error) {
      set({ accounts: { status: 'failed', error: toApiError(error) } })
    }
  },

  receiveAccounts(accounts) {
    const known = get().weblogsByAccount
    const weblogsByAccount: AccountsState['weblogsByAccount'] = {}
    for (const account of accounts) weblogsByAccount[account.id] = known[account.id]
    const { selection } = get()
    const stillThere = accounts.some((account) => account.id === selection.accountId)
    set({
      accounts: { status: 'loaded', value: accounts },
      weblogsByAccount,
      selection: stillThere ? selection : { accountId: accounts[0]?.id ?? null, weblogUri: null },
    })
    for (const account of accounts) {
      if (!known[account.id]) void get().loadWeblogs(account.id)
    }
  },

  async loadWeblogs(accountId) {
    if (weblogRequests.has(accountId)) return
    weblogRequests.add(accountId)
    setWeblogs(accountId, { status: 'loading' })
    try {
      const weblogs = await api.weblogs.list({ accountId })
      setWeblogs(accountId, { status: 'loaded', value: weblogs })
      const { selection } = get()
      if (selection.accountId === accountId && selection.weblogUri === null && weblogs[0]) {
        set({ selection: { accountId, weblogUri: weblogs[0].postUri } })
      }
    } catch (error) {
      setWeblogs(accountId, { status: 'failed', error: toApiError(error) })
    } finally {
      weblogRequests.delete(accountId)
    }
  },

  async addAccount(details) {
    set({ adding: { status: 'checking' } })
    let account: AccountSummary
    try {
      account = await api.accounts.add(details)
    } catch (error) {
      set({ adding: { status: 'failed', error: toApiError(error) } })
      return false
    }
    const { accounts } = get()
    const listed = accounts.status === 'loaded' ? accounts.value : []
    set({ adding: { status: 'idle' }, addFormOpen: false, selection: { accountId: account.id, weblogUri: null } })
    if (listed.some((existing) => existing.id === account.id)) {
      // The change event got here first and already asked for the weblogs; select the first one if they are in.
      const weblogs = get().weblogsByAccount[account.id]
      if (weblogs?.status === 'loaded' && weblogs.value[0]) get().selectWeblog(account.id, weblogs.value[0].postUri)
    } else {
      get().receiveAccounts([...listed, account])
    }
    return true
  },

  selectWeblog(accountId, weblogUri) {
    set({ selection: { accountId, weblogUri }, addFormOpen: false })
  },

  openAddForm() {
    set({ addFormOpen: true, adding: { status: 'idle' } })
  },

  closeAddForm() {
    set({ addFormOpen: false, adding: { status: 'idle' } })
  },
}))

function setWeblogs(accountId: string, weblogs: Loadable<Weblog[]>) {
  useAccountsStore.setState((state) =>
    // An account removed while its weblogs were loading stays removed.
    state.accounts.status === 'loaded' && !state.accounts.value.some((account) => account.id === accountId)
      ? state
      : { weblogsByAccount: { ...state.weblogsByAccount, [accountId]: weblogs } },
  )
}
