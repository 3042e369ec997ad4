import { Button } from '../../ui'
import { useNavigation } from '../navigation'
import { useAccountsStore } from './store'
import './accounts.css'

/** Across the top of the window while an account's publishing is paused: why, and the way to go on. */
export function PausedBanner() {
  const accounts = useAccountsStore((state) => state.accounts)
  const showingSettingsOf = useNavigation((state) => (state.view?.kind === 'account' ? state.view.accountId : null))
  const navigate = useNavigation((state) => state.navigate)
  const shown = accounts.status === 'loaded' ? accounts.value.filter((account) => account.paused && account.id !== showingSettingsOf) : []
  if (shown.length === 0) return null
  return (
    <div className="paused-banner" role="region" aria-label="Paused publishing">
      {shown.map((account) => (
        <div className="paused-banner__row" key={account.id}>
          <p className="paused-banner__text">
            <strong>Publishing to {account.label} is paused.</strong> {account.paused}
          </p>
          <Button onClick={() => navigate({ kind: 'account', accountId: account.id })}>Change API password</Button>
        </div>
      ))}
    </div>
  )
}
