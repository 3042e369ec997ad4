// The first screen's reads, sent by the window's entry before the rest of its code is loaded and run: the answers
// cross from the main process (the posts from the server) while that code is fetched and parsed, instead of after.
// The stores' own first loads (startWindow.ts) ask the same and take these answers (lib/api.ts, askAhead).
import { askAhead } from './lib/api'
import { accountOfView, useNavigation } from './features/navigation/store'

export function sendFirstReads(): void {
  askAhead('accounts:list', null)
  askAhead('app:status', null)
  const { view } = useNavigation.getState()
  const accountId = accountOfView(view)
  if (accountId === null) return
  askAhead('weblogs:list', { accountId, refresh: false })
  askAhead('albums:list', { accountId, refresh: false })
  askAhead('lists:list', { accountId, refresh: false })
  if (view?.kind === 'posts') askAhead('posts:page', { accountId, weblogPostUri: view.weblogPostUri, pageUri: null })
  if (view?.kind === 'drafts') askAhead('drafts:list', { accountId, weblogPostUri: view.weblogPostUri, after: null })
}
