import type { DraftState } from '../../../../src-shared/contract'
import { classNames } from '../../ui'
import { describeWaiting, useConnection, useSecondsUntil } from '../shell'
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

/**
 * Where a draft stands on its way to the weblog, as a small coloured label. A queued draft whose server cannot be
 * reached says so, "Waiting — next try in N s", and stays put until the server answers.
 */
export function StateBadge({ state, accountId, className }: { state: DraftState; accountId: string; className?: string }) {
  const connection = useConnection(accountId)
  const waiting = state === 'queued' && connection?.state === 'unreachable'
  const secondsToNextTry = useSecondsUntil(waiting ? connection.nextTryAt : null)
  return (
    <span className={classNames('state-badge', `state-badge--${state}`, className)}>
      {waiting ? describeWaiting(secondsToNextTry) : STATE_LABELS[state]}
    </span>
  )
}
