import { useId, useState } from 'react'
import type { AccountSummary } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { Alert, Button, Card, ConfirmDialog, ErrorNotice, Pane } from '../../ui'
import { ChangePasswordForm } from './ChangePasswordForm'
import { ConnectJsonForm } from './ConnectJsonForm'
import { useAccountsStore } from './store'
import './accounts.css'

/** An account's settings: where it publishes, its API password, its JSON side, and removing it. */
export function AccountPanel({ accountId }: { accountId: string }) {
  const account = useAccountsStore((state) =>
    state.accounts.status === 'loaded' ? state.accounts.value.find((candidate) => candidate.id === accountId) : undefined,
  )
  if (!account) {
    return (
      <Pane layout="centered">
        <p>This account is no longer in Blogdesk.</p>
      </Pane>
    )
  }
  return (
    <Pane layout="narrow" className="account-panel">
      <header className="account-panel__header">
        <h1 className="account-panel__title">{account.label}</h1>
        <dl className="account-panel__facts">
          <div>
            <dt>Atom base URL</dt>
            <dd>{account.atomBase}</dd>
          </div>
          <div>
            <dt>Username</dt>
            <dd>{account.username}</dd>
          </div>
        </dl>
      </header>
      {account.paused && (
        <Alert tone="warning" title="Publishing is paused">
          <p>{account.paused}</p>
        </Alert>
      )}
      <Card>
        <ChangePasswordForm account={account} />
      </Card>
      <Card>
        <ConnectJsonForm account={account} />
      </Card>
      <Card>
        <RemoveAccount account={account} />
      </Card>
    </Pane>
  )
}

function RemoveAccount({ account }: { account: AccountSummary }) {
  const removeAccount = useAccountsStore((state) => state.removeAccount)
  const [confirming, setConfirming] = useState(false)
  const titleId = useId()
  const [request, setRequest] = useState<{ status: 'idle' | 'busy' } | { status: 'failed'; error: ApiError }>({ status: 'idle' })

  const remove = async () => {
    setRequest({ status: 'busy' })
    try {
      await removeAccount(account.id)
    } catch (error) {
      setConfirming(false)
      setRequest({ status: 'failed', error: toApiError(error) })
    }
  }

  return (
    <section className="account-form" aria-labelledby={titleId}>
      <h2 className="account-form__title" id={titleId}>
        Remove this account
      </h2>
      <p className="account-form__lead">
        Blogdesk forgets the account on this computer: its drafts, what waits in the outbox, its friends and its passwords. What is
        already published stays on the server.
      </p>
      {request.status === 'failed' && <ErrorNotice error={request.error} />}
      <div className="account-form__actions">
        <Button className="account-form__danger" onClick={() => setConfirming(true)}>
          Remove account…
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Remove ${account.label}?`}
        confirmLabel="Remove account"
        destructive
        busy={request.status === 'busy'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove()}
      >
        <p>Its drafts and everything waiting in the outbox for it are deleted from this computer. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  )
}
