import type { OutboxCounts } from '../../../../src-shared/contract'
import { classNames, Icon } from '../../ui'
import { useAccountsStore } from '../accounts'
import { useNavigation } from '../navigation'
import { describeConnection, useConnection, useSecondsUntil } from './connection'
import { useStatusStore } from './statusStore'
import './shell.css'

/**
 * Always along the bottom: the connection as Blogdesk knows it from its requests (online, a server out of reach with
 * what waits for it and Try now, this computer offline, an account signed out), and what the outbox holds.
 */
export function StatusBar() {
  const status = useStatusStore((state) => state.status)
  const error = useStatusStore((state) => state.error)
  const tryNow = useStatusStore((state) => state.tryNow)
  const connection = useConnection()
  const secondsToNextTry = useSecondsUntil(connection?.nextTryAt ?? null)
  const accountLabel = useAccountsStore((state) =>
    state.accounts.status === 'loaded' ? state.accounts.value.find((account) => account.id === connection?.accountId)?.label : undefined,
  )
  const outboxShown = useNavigation((state) => state.view?.kind === 'outbox')
  const navigate = useNavigation((state) => state.navigate)
  const needsAttention = (status?.outbox.needsAttention ?? 0) > 0
  const state = connection?.state ?? 'online'
  return (
    <footer className="status-bar" aria-label="Status">
      <p className="status-bar__connection">
        <span className={classNames('status-bar__dot', `status-bar__dot--${state}`)} aria-hidden="true" />
        <span role="status">
          {connection === null ? (error ? 'Status unknown' : 'Checking the connection…') : describeConnection(connection, secondsToNextTry, accountLabel)}
        </span>
        {state === 'unreachable' && (
          <button type="button" className="status-bar__action" onClick={() => void tryNow()}>
            Try now
          </button>
        )}
        {state === 'signed-out' && connection?.accountId && (
          <button type="button" className="status-bar__action" onClick={() => navigate({ kind: 'account', accountId: connection.accountId! })}>
            Sign in again
          </button>
        )}
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
