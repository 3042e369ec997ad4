import { Card, Pane } from '../../ui'
import { AddAccountForm } from './AddAccountForm'
import './accounts.css'

/** The first-run screen: what Blogdesk needs, and the form to give it. */
export function Welcome() {
  return (
    <Pane layout="narrow">
      <header className="welcome">
        <h1 className="welcome__title">Welcome to Blogdesk</h1>
        <p className="welcome__lead">
          Blogdesk writes and publishes to weblogs that speak the Atom publishing API: TypePad-style services, Movable
          Type, or the sandbox server that comes with Blogdesk.
        </p>
        <p className="welcome__lead">
          Add an account to start. Blogdesk checks the details with the server right away and keeps the API password
          encrypted on this computer.
        </p>
      </header>
      <Card>
        <AddAccountForm title="Add your first account" />
      </Card>
    </Pane>
  )
}
