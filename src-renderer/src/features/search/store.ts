// Search across an account's drafts and posts: the query as typed and its results, the newest answer winning, and
// opening a result in the editor at its first match (the editor takes the words to find from `takeReveal`).
import { create } from 'zustand'
import type { SearchHit, SearchResults } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { useNavigation } from '../navigation'

export type SearchAnswer =
  | { status: 'idle' }
  | { status: 'searching'; shown: SearchResults | null }
  | { status: 'loaded'; value: SearchResults }
  | { status: 'failed'; error: ApiError }

export interface SearchState {
  open: boolean
  accountId: string | null
  query: string
  answer: SearchAnswer
  /** The draft just opened from a result, and the words to find in it. */
  reveal: { draftId: string; text: string } | null
  /** Why the result chosen could not be opened. */
  openError: ApiError | null

  show(accountId: string): void
  hide(): void
  setAccount(accountId: string): void
  setQuery(query: string): void
  openHit(hit: SearchHit): Promise<void>
}

let latestRequest = 0

export const useSearchStore = create<SearchState>()((set, get) => {
  async function run(): Promise<void> {
    const { accountId, query, answer } = get()
    const request = ++latestRequest
    if (accountId === null || query.trim() === '') {
      set({ answer: { status: 'idle' } })
      return
    }
    // The results shown stay while the next are read, so typing does not make the list flash.
    set({ answer: { status: 'searching', shown: answer.status === 'loaded' ? answer.value : answer.status === 'searching' ? answer.shown : null } })
    try {
      const value = await api.search.query({ accountId, query })
      if (request === latestRequest) set({ answer: { status: 'loaded', value } })
    } catch (error) {
      if (request === latestRequest) set({ answer: { status: 'failed', error: toApiError(error) } })
    }
  }

  return {
    open: false,
    accountId: null,
    query: '',
    answer: { status: 'idle' },
    reveal: null,
    openError: null,

    show(accountId) {
      const sameAccount = get().accountId === accountId
      set({ open: true, accountId, openError: null })
      if (!sameAccount) void run()
    },
    hide() {
      set({ open: false })
    },
    setAccount(accountId) {
      set({ accountId })
      void run()
    },
    setQuery(query) {
      set({ query })
      void run()
    },

    async openHit(hit) {
      set({ openError: null })
      try {
        const draftId =
          hit.draftId ??
          (await api.posts.edit({ accountId: hit.accountId, weblogPostUri: hit.weblogPostUri, editUri: hit.editUri! })).id
        const navigation = useNavigation.getState()
        navigation.navigate({ kind: hit.kind === 'draft' ? 'drafts' : 'posts', accountId: hit.accountId, weblogPostUri: hit.weblogPostUri })
        const text = hit.snippet.find((part) => part.match)?.text ?? null
        set({ open: false, reveal: text === null ? null : { draftId, text } })
        navigation.openDraft(draftId)
      } catch (error) {
        set({ openError: toApiError(error) })
      }
    },
  }
})

/** The words to find in `draftId` as it opens from a search result, handed over once. */
export function takeReveal(draftId: string): string | null {
  const { reveal } = useSearchStore.getState()
  if (reveal?.draftId !== draftId) return null
  useSearchStore.setState({ reveal: null })
  return reveal.text
}
