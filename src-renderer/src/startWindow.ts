// The window's start, before React draws anything. It follows what the main process announces first, so no answer
// can be older than the news; then it asks for what the first screen shows: the accounts and the status bar's news
// and, when the window opens where it was left, that account's weblogs, albums and lists and the weblog's drafts or
// posts. It resolves once those answers are in the stores (what could not be read says so there), so the window can
// be drawn once, whole, instead of once with spinners and again as each answer comes.
import type { StoreApi, UseBoundStore } from 'zustand'
import { followAccounts, useAccountsStore } from './features/accounts'
import { useCollectionsStore } from './features/collections'
import { followDrafts, useDraftsStore } from './features/editor'
import { accountOfView, useNavigation } from './features/navigation'
import { prepareListDates, usePostsStore } from './features/posts'
import { followShell, useStatusStore } from './features/shell'

export function startWindow(): Promise<unknown> {
  followAccounts()
  followDrafts()
  followShell()

  const { loadAccounts, loadWeblogs } = useAccountsStore.getState()
  const answers: Promise<unknown>[] = [loadAccounts(), useStatusStore.getState().load()]
  const { view } = useNavigation.getState()
  const accountId = accountOfView(view)
  if (accountId === null) return Promise.all(answers)
  // Weblogs, albums and lists are read again from the server once the window is drawn: their first answer is the one
  // the first screen waits for, not their loads' end.
  void loadWeblogs(accountId)
  answers.push(until(useAccountsStore, (state) => state.weblogsByAccount[accountId]?.status !== 'loading'))
  const collections = useCollectionsStore.getState()
  void collections.load(accountId, 'albums')
  void collections.load(accountId, 'lists')
  answers.push(
    until(useCollectionsStore, (state) => {
      const listings = state.listings[accountId]
      return listings?.albums?.status !== 'loading' && listings?.lists?.status !== 'loading'
    }),
  )
  if (view?.kind === 'drafts') answers.push(useDraftsStore.getState().load(view))
  // The list, once drawn, takes this answer rather than asking again.
  if (view?.kind === 'posts') {
    answers.push(usePostsStore.getState().preloadPosts({ accountId: view.accountId, weblogPostUri: view.weblogPostUri }))
    prepareListDates()
  }
  return Promise.all(answers)
}

/** Resolves once the store's state meets `settled`. */
function until<State>(store: UseBoundStore<StoreApi<State>>, settled: (state: State) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (settled(store.getState())) return resolve()
    const unsubscribe = store.subscribe((state) => {
      if (!settled(state)) return
      unsubscribe()
      resolve()
    })
  })
}
