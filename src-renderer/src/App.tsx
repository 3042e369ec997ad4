import { Suspense, type ReactNode } from 'react'
import type { AccountSummary } from '../../src-shared/contract'
import {
  AccountPanel,
  AddAccountPanel,
  PausedBanner,
  WeblogDetails,
  Welcome,
  useAccountsStore,
  type AccountsState,
  type Loadable,
} from './features/accounts'
import { AlbumPane, ListPane } from './features/collections'
import { DraftsList, PostEditor, UndoTrashToast, startNewPost } from './features/editor'
import { ActivityFeed, FriendsList } from './features/feed'
import { accountOfView, useNavigation, type View } from './features/navigation'
import { CategoriesPane, PostsList } from './features/posts'
import { SearchDialog } from './features/search'
import { OutboxPanel, PaneBoundary, Sidebar, StatusBar } from './features/shell'
import { AppShell, ErrorNotice, Pane, Spinner, useListInDrawer } from './ui'

export function App() {
  const accounts = useAccountsStore((state) => state.accounts)
  const view = useNavigation((state) => state.view)
  const firstRun = accounts.status === 'loaded' && accounts.value.length === 0 && view?.kind !== 'outbox'
  const withoutJson = useAccountsStore((state) => view?.kind === 'friends' && !hasJsonSide(state.accounts, view.accountId))
  const placeName = useAccountsStore((state) => placeNameOf(state, view))
  const list = firstRun || withoutJson ? null : listPaneOf(view, placeName)
  const listPick = useNavigation((state) => state.draftId ?? state.friendId)
  return (
    <>
    <AppShell
      sidebar={<Sidebar />}
      banner={<PausedBanner />}
      list={
        list && (
          <PaneBoundary what="the list">
            <Suspense fallback={<Loading label="Opening the list…" />}>{list.content}</Suspense>
          </PaneBoundary>
        )
      }
      listLabel={list?.label}
      listPick={listPick}
      statusBar={<StatusBar />}
    >
      <PaneBoundary what={view?.kind === 'drafts' || view?.kind === 'posts' ? 'the editor' : 'this pane'}>
        {/* Most panes load their code when first shown (see each feature's index.ts). */}
        <Suspense fallback={<Loading label="Opening…" />}>{firstRun ? <Welcome /> : <MainPane />}</Suspense>
      </PaneBoundary>
    </AppShell>
    <SearchDialog />
    {/* Outside the list pane: in a narrow window the drafts list is in a drawer, closed once the draft is deleted. */}
    <UndoTrashToast />
    </>
  )
}

/** The weblog's title, or the account's label, that the list pane's name says it belongs to. */
function placeNameOf({ accounts, weblogsByAccount }: AccountsState, view: View | null): string {
  const accountId = accountOfView(view)
  if (accountId === null) return ''
  if (view !== null && 'weblogPostUri' in view) {
    const weblogs = weblogsByAccount[accountId]
    const weblog = weblogs?.status === 'loaded' ? weblogs.value.find((each) => each.postUri === view.weblogPostUri) : undefined
    if (weblog) return weblog.title
  }
  return (accounts.status === 'loaded' && accounts.value.find((account) => account.id === accountId)?.label) || 'this account'
}

function listPaneOf(view: View | null, placeName: string): { label: string; content: ReactNode } | null {
  switch (view?.kind) {
    case 'drafts':
      return { label: `Drafts of ${placeName}`, content: <DraftsList accountId={view.accountId} weblogPostUri={view.weblogPostUri} /> }
    case 'posts':
      return { label: `Posts of ${placeName}`, content: <PostsList accountId={view.accountId} weblogPostUri={view.weblogPostUri} /> }
    case 'friends':
      return {
        label: `Friends of ${placeName}`,
        content: <FriendsList accountId={view.accountId} />,
      }
    default:
      return null
  }
}

function MainPane() {
  const accounts = useAccountsStore((state) => state.accounts)
  const loadAccounts = useAccountsStore((state) => state.loadAccounts)
  const view = useNavigation((state) => state.view)
  const draftId = useNavigation((state) => state.draftId)
  const friendId = useNavigation((state) => state.friendId)
  // With the list in a closed drawer, its New post is out of sight: the main pane offers one itself.
  const listInDrawer = useListInDrawer()

  if (accounts.status === 'loading') {
    return (
      <Pane layout="centered">
        <Spinner label="Loading your accounts…" />
      </Pane>
    )
  }
  if (accounts.status === 'failed') {
    return (
      <Pane layout="narrow">
        <ErrorNotice error={accounts.error} onRetry={() => void loadAccounts()} />
      </Pane>
    )
  }
  switch (view?.kind) {
    case undefined:
      return <NothingChosen />
    case 'drafts':
    case 'posts':
      if (draftId === null) {
        return (
          <WeblogDetails
            accountId={view.accountId}
            weblogPostUri={view.weblogPostUri}
            hint={view.kind === 'drafts' ? 'Choose a draft in the list, or start a new post.' : 'Choose a post in the list to edit it.'}
            onNewPost={view.kind === 'posts' || listInDrawer ? () => void startNewPost({ accountId: view.accountId, weblogPostUri: view.weblogPostUri }) : undefined}
          />
        )
      }
      return (
        <Suspense fallback={<Loading label="Opening the editor…" />}>
          <PostEditor key={draftId} draftId={draftId} />
        </Suspense>
      )
    case 'categories':
      return <CategoriesPane accountId={view.accountId} weblogPostUri={view.weblogPostUri} />
    case 'album':
      return <AlbumPane key={view.collectionUri} accountId={view.accountId} collectionUri={view.collectionUri} />
    case 'list':
      return <ListPane key={view.collectionUri} accountId={view.accountId} collectionUri={view.collectionUri} />
    case 'friends':
      if (!hasJsonSide(accounts, view.accountId)) return <ConnectForFriends accountId={view.accountId} />
      if (friendId === null) return <Hint title="Choose a friend">Their activity shows here, newest first.</Hint>
      return (
        <Suspense fallback={<Loading label="Opening the activity feed…" />}>
          <ActivityFeed key={friendId} friendId={friendId} />
        </Suspense>
      )
    case 'account':
      return <AccountPanel accountId={view.accountId} />
    case 'outbox':
      return <OutboxPanel />
    case 'add-account':
      return <AddAccountPanel />
  }
}

/** Accounts exist but nothing is chosen yet: their weblogs are still loading, or could not be. */
function NothingChosen() {
  const loading = useAccountsStore((state) => Object.values(state.weblogsByAccount).some((weblogs) => !weblogs || weblogs.status === 'loading'))
  if (loading) return <Loading label="Loading your weblogs…" />
  return <Hint title="Choose a weblog">Pick Drafts, Posts or Categories of a weblog in the sidebar, or an album, a list or your friends.</Hint>
}

function hasJsonSide(accounts: Loadable<AccountSummary[]>, accountId: string): boolean {
  return accounts.status === 'loaded' && accounts.value.some((account) => account.id === accountId && account.json !== null)
}

/** Friends' activity comes from the account's JSON side: connecting it is the way in. */
function ConnectForFriends({ accountId }: { accountId: string }) {
  const navigate = useNavigation((state) => state.navigate)
  return (
    <Hint title="Connect the activity feed first">
      Friends’ activity comes from the service’s JSON interface, which this account is not connected to yet.{' '}
      <button type="button" className="link-button" onClick={() => navigate({ kind: 'account', accountId })}>
        Connect it in the account’s settings
      </button>
      .
    </Hint>
  )
}

function Loading({ label }: { label: string }) {
  return (
    <Pane layout="centered">
      <Spinner label={label} />
    </Pane>
  )
}

function Hint({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Pane layout="centered">
      <div className="empty-state">
        <h1 className="empty-state__title">{title}</h1>
        <p>{children}</p>
      </div>
    </Pane>
  )
}
