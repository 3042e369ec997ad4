import { Card, Pane } from '../../ui'
import { AddAccountForm } from './AddAccountForm'
import { useAccountsStore } from './store'

/** The add-account form in the main pane, for people who already have an account. */
export function AddAccountPanel() {
  const goHome = useAccountsStore((state) => state.goHome)
  return (
    <Pane layout="narrow">
      <Card>
        <AddAccountForm title="Add account" onCancel={goHome} />
      </Card>
    </Pane>
  )
}
