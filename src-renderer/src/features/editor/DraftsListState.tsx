import { ErrorNotice, Spinner } from '../../ui'
import type { Loadable } from './store'

/** What a list of drafts (or of the Trash) shows before it has one: a spinner while it loads, or why it failed. */
export function DraftsListState({
  list,
  loadingLabel,
  onRetry,
}: {
  list: Loadable<unknown> | undefined
  loadingLabel: string
  onRetry: () => void
}) {
  if (list?.status === 'loaded') return null
  return (
    <div className="drafts-list__state">
      {list?.status === 'failed' ? <ErrorNotice error={list.error} onRetry={onRetry} /> : <Spinner label={loadingLabel} />}
    </div>
  )
}
