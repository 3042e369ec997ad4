// View state for accounts and their weblogs. The main process owns the data; this store mirrors what it last said,
// tracks what is loading or being asked of the server, and moves the person to what they just added.
import { create } from 'zustand'
import type { AccountSummary, JsonConnection, NewAccount, Weblog } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { sharedWhileInFlight } from '../../lib/sharedWhileInFlight'
import { whenIdle } from '../../lib/whenIdle'
import { accountOfView, useNavigation } from '../navigation'

export type Loadable<T> =
  | { status: 'loading' }
  | { status: 'loaded'; value: T }
  | { status: 'failed'; error: ApiError }

/** A request to the server on the person's behalf: idle, waiting for the answer, or refused with why. */
export type Request = { status: 'idle' } | { status: 'busy' } | { status: 'failed'; error: ApiError }

const IDLE: Request = { status: 'idle' }

export interface AccountsState {
  accounts: Loadable<AccountSummary[]>
  weblogsByAccount: Partial<Record<string, Loadable<Weblog[]>>>
  adding: Request
  trying: Request
  /** OAuth sign-ins, by account: busy while the person answers in the sign-in window. */
  signIns: Partial<Record<string, Request>>
  /** The account just added, whose first weblog opens ready to write (New post has the focus), until it is shown. */
  landing: string | null

  loadAccounts(): Promise<void>
  /** Takes a fresh list from the main process, fetching weblogs for accounts seen for the first time. */
  receiveAccounts(accounts: AccountSummary[]): void
  loadWeblogs(accountId: string): Promise<void>
  /** Resolves true once the server accepted the credentials and the account was saved. */
  addAccount(details: NewAccount): Promise<boolean>
  /** Starts the built-in sandbox and adds its demo account. */
  trySandbox(): Promise<void>
  removeAccount(accountId: string): Promise<void>
  /** Throws the refusal, for the form to show beside the field. */
  updatePassword(accountId: string, apiPassword: string): Promise<void>
  connectJson(connection: JsonConnection): Promise<void>
  cancelSignIn(accountId: string): Promise<void>
  /** Shows the first weblog's drafts, or the first-run screen when there is nothing to show. */
  goHome(): void
}

/** The accounts, and each account's weblogs, asked for once at a time (a retry or a change event shares the request). */
const accountsRequest = sharedWhileInFlight()
const weblogsRequest = sharedWhileInFlight()
/** Accounts whose weblogs were read from the server in this session. */
const refreshedWeblogs = new Set<string>()

export const useAccountsStore = create<AccountsState>()((set, get) => ({
  accounts: { status: 'loading' },
  weblogsByAccount: {},
  adding: IDLE,
  landing: null,
  trying: IDLE,
  signIns: {},

  loadAccounts() {
    return accountsRequest('accounts', async () => {
      set({ accounts: { status: 'loading' } })
      try {
        get().receiveAccounts(await api.accounts.list())
      } catch (error) {
        set({ accounts: { status: 'failed', error: toApiError(error) } })
      }
    })
  },

  receiveAccounts(accounts) {
    const known = get().weblogsByAccount
    const weblogsByAccount: AccountsState['weblogsByAccount'] = {}
    for (const account of accounts) weblogsByAccount[account.id] = known[account.id]
    set({ accounts: { status: 'loaded', value: accounts }, weblogsByAccount })
    const shownAccount = accountOfView(useNavigation.getState().view)
    if (shownAccount !== null && !accounts.some((account) => account.id === shownAccount)) get().goHome()
    for (const account of accounts) {
      if (!known[account.id]) void get().loadWeblogs(account.id)
    }
  },

  loadWeblogs(accountId) {
    return weblogsRequest(accountId, async () => {
      if (get().weblogsByAccount[accountId]?.status !== 'loaded') setWeblogs(accountId, { status: 'loading' })
      try {
        // As Blogdesk last read them, at once; then, once a session and once the window is drawn, from the server.
        showWeblogs(accountId, await api.weblogs.list({ accountId, refresh: false }))
        if (refreshedWeblogs.has(accountId)) return
        await whenIdle()
        showWeblogs(accountId, await api.weblogs.list({ accountId, refresh: true }))
        refreshedWeblogs.add(accountId)
      } catch (error) {
        // What is shown stays shown; a first read that fails says why.
        if (get().weblogsByAccount[accountId]?.status !== 'loaded') setWeblogs(accountId, { status: 'failed', error: toApiError(error) })
      }
    })
  },

  async addAccount(details) {
    set({ adding: { status: 'busy' } })
    let account: AccountSummary
    try {
      account = await api.accounts.add(details)
    } catch (error) {
      set({ adding: { status: 'failed', error: toApiError(error) } })
      return false
    }
    set({ adding: IDLE })
    welcome(account)
    return true
  },

  async trySandbox() {
    set({ trying: { status: 'busy' } })
    try {
      welcome(await api.accounts.trySandbox())
      set({ trying: IDLE })
    } catch (error) {
      set({ trying: { status: 'failed', error: toApiError(error) } })
    }
  },

  async removeAccount(accountId) {
    await api.accounts.remove({ accountId })
    const accounts = get().accounts
    if (accounts.status === 'loaded') get().receiveAccounts(accounts.value.filter((account) => account.id !== accountId))
  },

  async updatePassword(accountId, apiPassword) {
    replaceAccount(await api.accounts.updatePassword({ accountId, apiPassword }))
  },

  async connectJson(connection) {
    setSignIn(connection.accountId, { status: 'busy' })
    try {
      replaceAccount(await api.accounts.connectJson(connection))
      setSignIn(connection.accountId, IDLE)
    } catch (error) {
      setSignIn(connection.accountId, { status: 'failed', error: toApiError(error) })
    }
  },

  async cancelSignIn(accountId) {
    await api.accounts.cancelSignIn({ accountId })
  },

  goHome() {
    const { accounts, weblogsByAccount } = get()
    for (const account of accounts.status === 'loaded' ? accounts.value : []) {
      const weblogs = weblogsByAccount[account.id]
      const first = weblogs?.status === 'loaded' ? weblogs.value[0] : undefined
      if (first) return useNavigation.getState().navigate({ kind: 'drafts', accountId: account.id, weblogPostUri: first.postUri })
    }
    useNavigation.setState({ view: null, draftId: null, friendId: null })
  },
}))

/** Follows the main process's word on the accounts for as long as the window is open. */
export function followAccounts(): void {
  api.accounts.onChanged((accounts) => useAccountsStore.getState().receiveAccounts(accounts))
}

/** Shows a newly added account: its first weblog's posts once the weblogs are in, with New post at hand. */
function welcome(account: AccountSummary) {
  const { accounts, weblogsByAccount } = useAccountsStore.getState()
  const listed = accounts.status === 'loaded' ? accounts.value : []
  const weblogs = weblogsByAccount[account.id]
  const first = weblogs?.status === 'loaded' ? weblogs.value[0] : undefined
  useAccountsStore.setState({ landing: account.id })
  if (first) useNavigation.getState().navigate({ kind: 'posts', accountId: account.id, weblogPostUri: first.postUri })
  else useNavigation.setState({ view: null })
  if (!listed.some((existing) => existing.id === account.id)) useAccountsStore.getState().receiveAccounts([...listed, account])
}

function replaceAccount(account: AccountSummary) {
  const { accounts, receiveAccounts } = useAccountsStore.getState()
  if (accounts.status !== 'loaded') return
  receiveAccounts(accounts.value.map((existing) => (existing.id === account.id ? account : existing)))
}

function setSignIn(accountId: string, request: Request) {
  useAccountsStore.setState((state) => ({ signIns: { ...state.signIns, [accountId]: request } }))
}

/** The account's weblogs as read; with nothing chosen yet, the first weblog's posts are shown. */
function showWeblogs(accountId: string, weblogs: Weblog[]) {
  setWeblogs(accountId, { status: 'loaded', value: weblogs })
  const { view, navigate } = useNavigation.getState()
  if (view === null && weblogs[0]) navigate({ kind: 'posts', accountId, weblogPostUri: weblogs[0].postUri })
}

function setWeblogs(accountId: string, weblogs: Loadable<Weblog[]>) {
  useAccountsStore.setState((state) =>
    // An account removed while its weblogs were loading stays removed.
    state.accounts.status === 'loaded' && !state.accounts.value.some((account) => account.id === accountId)
      ? state
      : { weblogsByAccount: { ...state.weblogsByAccount, [accountId]: weblogs } },
  )
}
