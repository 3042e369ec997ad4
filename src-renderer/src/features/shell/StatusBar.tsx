import type { OutboxCounts } from '../../../../src-shared/contract'
import { classNames, Icon } from '../../ui'
import { useNavigation } from '../navigation'
import { useStatusStore } from './statusStore'
import './shell.css'

/** Always along the bottom: whether the computer is online, and what the outbox holds; opens the outbox. */
export function StatusBar() {
  const status = useStatusStore((state) => state.status)
  const error = useStatusStore((state) => state.error)
  const outboxShown = useNavigation((state) => state.view?.kind === 'outbox')
  const navigate = useNavigation((state) => state.navigate)
  const online = status?.online ?? true
  const needsAttention = (status?.outbox.needsAttention ?? 0) > 0
  return (
    <footer className="status-bar" aria-label="Status">
      <p className="status-bar__connection" role="status">
        <span className={classNames('status-bar__dot', online ? 'status-bar__dot--online' : 'status-bar__dot--offline')} aria-hidden="true" />
        {status === null ? (error ? 'Status unknown' : 'Checking the connection…') : online ? 'Online' : 'Offline — changes wait in the outbox'}
      </p>
      <button
        type="button"
        className={classNames('status-bar__outbox', needsAttention && 'status-bar__outbox--attention')}
        aria-current={outboxShown ? 'page' : undefined}
        onClick={() => navigate({ kind: 'outbox' })}
      >
        <Icon name="outbox" />
        <span className="visually-hidden">Outbox: </span>
        <span aria-live="polite">{status ? describeOutbox(status.outbox) : 'Outbox'}</span>
      </button>
    </footer>
  )
}

/** "3 waiting to publish · 1 needs attention", or "Everything is sent". */
export function describeOutbox({ waiting, needsAttention }: OutboxCounts): string {
  const parts: string[] = []
  if (waiting > 0) parts.push(`${waiting} waiting to publish`)
  if (needsAttention > 0) parts.push(`${needsAttention} ${needsAttention === 1 ? 'needs' : 'need'} attention`)
  return parts.length > 0 ? parts.join(' · ') : 'Everything is sent'
}
