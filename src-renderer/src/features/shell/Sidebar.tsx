import { useId } from 'react'
import type { AccountSummary, Weblog } from '../../../../src-shared/contract'
import { Button, ErrorNotice, Icon, NavItem, Spinner } from '../../ui'
import { useAccountsStore } from '../accounts'
import { CollectionsNav } from '../collections'
import { sameView, useNavigation, type View } from '../navigation'
import { SEARCH_KEYS, searchableAccount, useSearchStore } from '../search'
import { describeConnection, useConnection, useSecondsUntil } from './connection'
import { useStatusStore } from './statusStore'
import './shell.css'

/** Accounts, each with its weblogs (Drafts, Posts, Categories), photo albums and lists, and friends. */
export function Sidebar() {
  const accounts = useAccountsStore((state) => state.accounts)
  const addingAccount = useNavigation((state) => state.view?.kind === 'add-account')
  const navigate = useNavigation((state) => state.navigate)
  const hasAccounts = accounts.status === 'loaded' && accounts.value.length > 0
  return (
    <div className="sidebar">
      <div className="sidebar__brand">
        <span className="sidebar__mark" aria-hidden="true">
          B
        </span>
        <span className="sidebar__name">Blogdesk</span>
      </div>
      {hasAccounts && (
        <Button
          variant="quiet"
          block
          className="sidebar__search"
          aria-keyshortcuts={SEARCH_KEYS.aria}
          title={`Search drafts and posts (${SEARCH_KEYS.shown})`}
          onClick={() => {
            const accountId = searchableAccount()
            if (accountId !== null) useSearchStore.getState().show(accountId)
          }}
        >
          <Icon name="search" /> Search
        </Button>
      )}
      <nav className="sidebar__nav" aria-label="Accounts">
        {accounts.status === 'loading' && <Spinner label="Loading accounts…" className="sidebar__status" />}
        {accounts.status === 'failed' && <p className="sidebar__empty">Your accounts could not be loaded.</p>}
        {accounts.status === 'loaded' && !hasAccounts && <p className="sidebar__empty">No accounts yet. Add one to see its weblogs here.</p>}
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
          <Button
            variant="quiet"
            block
            className="sidebar__add"
            aria-current={addingAccount ? 'page' : undefined}
            onClick={() => navigate({ kind: 'add-account' })}
          >
            <Icon name="plus" /> Add account
          </Button>
        </div>
      )}
    </div>
  )
}

function AccountSection({ account }: { account: AccountSummary }) {
  const weblogs = useAccountsStore((state) => state.weblogsByAccount[account.id])
  const loadWeblogs = useAccountsStore((state) => state.loadWeblogs)
  const settings: View = { kind: 'account', accountId: account.id }
  const settingsShown = useNavigation((state) => sameView(state.view, settings))
  const navigate = useNavigation((state) => state.navigate)
  return (
    <li className="account">
      <div className="account__header">
        <h2 className="account__label">{account.label}</h2>
        <button
          type="button"
          className="account__settings"
          aria-label={`Settings of ${account.label}`}
          aria-current={settingsShown ? 'page' : undefined}
          onClick={() => navigate(settings)}
        >
          <Icon name="settings" />
        </button>
      </div>
      {account.paused && (
        <button type="button" className="account__paused" onClick={() => navigate(settings)}>
          Publishing paused: change the API password
        </button>
      )}
      <AccountUnreachable accountId={account.id} />
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
              <WeblogSection key={weblog.postUri} accountId={account.id} weblog={weblog} />
            ))}
          </ul>
        ))}
      <CollectionsNav accountId={account.id} />
      <ul className="nav-list" aria-label={`Friends of ${account.label}`}>
        <li>
          <Place view={{ kind: 'friends', accountId: account.id }} icon="friends">
            Friends
          </Place>
        </li>
      </ul>
    </li>
  )
}

function WeblogSection({ accountId, weblog }: { accountId: string; weblog: Weblog }) {
  const titleId = useId()
  const address = { accountId, weblogPostUri: weblog.postUri }
  return (
    <li className="weblog">
      <h3 className="weblog__title" id={titleId}>
        {weblog.title}
      </h3>
      <ul className="nav-list" aria-labelledby={titleId}>
        <li>
          <Place view={{ kind: 'drafts', ...address }} icon="drafts">
            Drafts
          </Place>
        </li>
        <li>
          <Place view={{ kind: 'posts', ...address }} icon="posts">
            Posts
          </Place>
        </li>
        <li>
          <Place view={{ kind: 'categories', ...address }} icon="categories">
            Categories
          </Place>
        </li>
      </ul>
    </li>
  )
}

function Place({ view, icon, children }: { view: View; icon: 'drafts' | 'posts' | 'categories' | 'friends'; children: string }) {
  const selected = useNavigation((state) => sameView(state.view, view))
  const navigate = useNavigation((state) => state.navigate)
  return (
    <NavItem selected={selected} icon={icon} onClick={() => navigate(view)}>
      {children}
    </NavItem>
  )
}

/** Under an account whose server cannot be reached: which server, what waits for it, the next try, and Try now. */
function AccountUnreachable({ accountId }: { accountId: string }) {
  const connection = useConnection(accountId)
  const tryNow = useStatusStore((state) => state.tryNow)
  const unreachable = connection?.state === 'unreachable' ? connection : null
  const secondsToNextTry = useSecondsUntil(unreachable?.nextTryAt ?? null)
  if (unreachable === null) return null
  return (
    <p className="account__unreachable" title={unreachable.reason ?? undefined}>
      {describeConnection(unreachable, secondsToNextTry)}
      <button type="button" className="account__try-now" onClick={() => void tryNow()}>
        Try now
      </button>
    </p>
  )
}
