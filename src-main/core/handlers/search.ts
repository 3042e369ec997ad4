// The search namespace: the account's drafts and the posts last read from its weblogs, found by their words
// (store/search.ts), with the matched words marked for the renderer to highlight without markup.
import type { DraftState, MarkedText } from '../../../src-shared/contract'
import { MATCH_END, MATCH_START, Search } from '../store'
import type { HandlersOf, Services } from './services'

/** A screenful and more; past it, more words narrow the search better than scrolling does. */
const SEARCH_LIMIT = 50

export function searchHandlers(services: Services): HandlersOf<'search'> {
  const search = new Search(services.store)
  return {
    async 'search:query'({ accountId, query }) {
      const { documents, more } = search.find(accountId, query, SEARCH_LIMIT)
      return {
        hits: documents.map((document) => ({
          kind: document.kind,
          accountId: document.accountId,
          weblogPostUri: document.weblogPostUri,
          draftId: document.draftId,
          editUri: document.editUri,
          state: document.state as DraftState | null,
          title: markedTextOf(document.title),
          snippet: markedTextOf(document.snippet),
          at: document.at,
        })),
        more,
      }
    },
  }
}

/** "a \u0002b\u0003 c" → a, b (matched), c. */
export function markedTextOf(marked: string): MarkedText {
  const parts: MarkedText = []
  for (const piece of marked.split(MATCH_START)) {
    const end = piece.indexOf(MATCH_END)
    const [match, rest] = end === -1 ? ['', piece] : [piece.slice(0, end), piece.slice(end + 1)]
    if (match) parts.push({ text: match, match: true })
    if (rest) parts.push({ text: rest, match: false })
  }
  return parts
}
