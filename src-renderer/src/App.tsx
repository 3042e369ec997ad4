import {
  AccountsSidebar,
  AddAccountPanel,
  WeblogDetails,
  Welcome,
  useAccountsStore,
  useAccountsSync,
} from './features/accounts'
import { AppShell, ErrorNotice, Pane, Spinner } from './ui'

export function App() {
  useAccountsSync()
  return (
    <AppShell sidebar={<AccountsSidebar />}>
      <MainPane />
    </AppShell>
  )
}

function MainPane() {
  const accounts = useAccountsStore((state) => state.accounts)
  const addFormOpen = useAccountsStore((state) => state.addFormOpen)
  const loadAccounts = useAccountsStore((state) => state.loadAccounts)

  switch (accounts.status) {
    case 'loading':
      return (
        <Pane layout="centered">
          <Spinner label="Loading your accounts…" />
        </Pane>
      )
    case 'failed':
      return (
        <Pane layout="narrow">
          <ErrorNotice error={accounts.error} onRetry={() => void loadAccounts()} />
        </Pane>
      )
    case 'loaded':
      if (accounts.value.length === 0) return <Welcome />
      return addFormOpen ? <AddAccountPanel /> : <WeblogDetails />
  }
}
