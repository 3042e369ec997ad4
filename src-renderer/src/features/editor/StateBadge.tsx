import type { DraftState } from '../../../../src-shared/contract'
import { classNames } from '../../ui'
import './state-badge.css'

export const STATE_LABELS: { [S in DraftState]: string } = {
  draft: 'Draft',
  queued: 'Queued',
  sending: 'Sending',
  published: 'Published',
  'needs-attention': 'Needs attention',
  conflict: 'Conflict',
  deleting: 'Deleting',
  deleted: 'Deleted',
}

/** Where a draft stands on its way to the weblog, as a small coloured label. */
export function StateBadge({ state, className }: { state: DraftState; className?: string }) {
  return <span className={classNames('state-badge', `state-badge--${state}`, className)}>{STATE_LABELS[state]}</span>
}
