import { useId } from 'react'
import { Button, Card, ErrorNotice, Icon, Pane, Spinner } from '../../ui'
import { AddAccountForm } from './AddAccountForm'
import { useAccountsStore } from './store'
import './accounts.css'

/** The first-run screen: try everything on the built-in sandbox in one click, or add a real account. */
export function Welcome() {
  const trying = useAccountsStore((state) => state.trying)
  const trySandbox = useAccountsStore((state) => state.trySandbox)
  const busy = trying.status === 'busy'
  const offerTitleId = useId()
  return (
    <Pane layout="narrow" className="welcome-pane">
      <header className="welcome">
        <h1 className="welcome__title">Welcome to Blogdesk</h1>
        <p className="welcome__lead">
          Blogdesk writes and publishes to weblogs that speak the Atom publishing API: TypePad-style services, Movable Type, or the
          sandbox server that comes with Blogdesk. Everything you write is kept on this computer first, and sent when the server can
          be reached.
        </p>
      </header>
      <Card className="sandbox-offer" aria-labelledby={offerTitleId}>
        <div className="sandbox-offer__text">
          <h2 className="sandbox-offer__title" id={offerTitleId}>
            <Icon name="sandbox" /> Just looking?
          </h2>
          <p>
            Try Blogdesk on a sandbox server running on this computer, with a demo weblog, photo albums, lists and friends. Nothing
            leaves your computer.
          </p>
        </div>
        <Button variant="primary" disabled={busy} onClick={() => void trySandbox()}>
          {busy ? <Spinner label="Starting the sandbox…" /> : 'Try the local sandbox'}
        </Button>
        {trying.status === 'failed' && <ErrorNotice error={trying.error} onRetry={() => void trySandbox()} className="sandbox-offer__error" />}
      </Card>
      <Card>
        <AddAccountForm title="Add your first account" />
      </Card>
    </Pane>
  )
}
