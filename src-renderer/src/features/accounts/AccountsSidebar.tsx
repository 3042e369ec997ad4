import { useId } from 'react'
import type { AccountSummary, Weblog } from '../../../../src-preload/contract'
import { Button, ErrorNotice, Spinner, classNames } from '../../ui'
import { displayUrl } from './displayUrl'
import { useAccountsStore } from './store'
import './accounts.css'

export function AccountsSidebar() {
  const accounts = useAccountsStore((state) => state.accounts)
  const addFormOpen = useAccountsStore((state) => state.addFormOpen)
  const openAddForm = useAccountsStore((state) => state.openAddForm)
  const hasAccounts = accounts.status === 'loaded' && accounts.value.length > 0
  return (
    <div className="sidebar">
      <div className="sidebar__brand">
        <span className="sidebar__mark" aria-hidden="true">
          B
        </span>
        <span className="sidebar__name">Blogdesk</span>
      </div>
      <nav className="sidebar__nav" aria-label="Accounts">
        {accounts.status === 'loading' && <Spinner label="Loading accounts…" className="sidebar__status" />}
        {accounts.status === 'failed' && <p className="sidebar__empty">Your accounts could not be loaded.</p>}
        {accounts.status === 'loaded' && !hasAccounts && (
          <p className="sidebar__empty">No accounts yet. Add one to see its weblogs here.</p>
        )}
        {hasAccounts && (
          <ul className="account-list">
            {accounts.value.map((account) => (
              <AccountSection key={account.id} account={account} />
            ))}
          </ul>
        )}
      </nav>
      {hasAccounts && (
        <div className="sidebar__footer">
          <Button variant="quiet" block className="sidebar__add" aria-current={addFormOpen ? 'page' : undefined} onClick={openAddForm}>
            <span aria-hidden="true">+</span> Add account
          </Button>
        </div>
      )}
    </div>
  )
}

function AccountSection({ account }: { account: AccountSummary }) {
  const weblogs = useAccountsStore((state) => state.weblogsByAccount[account.id])
  const loadWeblogs = useAccountsStore((state) => state.loadWeblogs)
  return (
    <li className="account">
      <h2 className="account__label">
        {account.label}
      </h2>
      {(!weblogs || weblogs.status === 'loading') && <Spinner label="Loading weblogs…" className="account__status" />}
      {weblogs?.status === 'failed' && (
        <ErrorNotice error={weblogs.error} onRetry={() => void loadWeblogs(account.id)} className="account__error" />
      )}
      {weblogs?.status === 'loaded' &&
        (weblogs.value.length === 0 ? (
          <p className="account__empty">This account has no weblogs yet.</p>
        ) : (
          <ul className="weblog-list" aria-label={`Weblogs of ${account.label}`}>
            {weblogs.value.map((weblog) => (
              <WeblogLink key={weblog.postUri} accountId={account.id} weblog={weblog} />
            ))}
          </ul>
        ))}
    </li>
  )
}

function WeblogLink({ accountId, weblog }: { accountId: string; weblog: Weblog }) {
  const selected = useAccountsStore(
    (state) => !state.addFormOpen && state.selection.accountId === accountId && state.selection.weblogUri === weblog.postUri,
  )
  const selectWeblog = useAccountsStore((state) => state.selectWeblog)
  const homeId = useId()
  return (
    <li>
      <button
        type="button"
        className={classNames('weblog-link', selected && 'weblog-link--selected')}
        aria-label={weblog.title}
        aria-describedby={weblog.homeUrl ? homeId : undefined}
        aria-current={selected ? 'page' : undefined}
        onClick={() => selectWeblog(accountId, weblog.postUri)}
      >
        <span className="weblog-link__title">{weblog.title}</span>
        {weblog.homeUrl && (
          <span className="weblog-link__home" id={homeId}>
            {displayUrl(weblog.homeUrl)}
          </span>
        )}
      </button>
    </li>
  )
}
