// The main process's core: everything Blogdesk does, with no Electron in sight, so it runs under plain Node in tests.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Event, Events, Handlers } from '../../src-preload/contract'
import { Accounts, type Vault } from './accounts'
import type { Fetch } from './atom'
import { FeedPoller } from './feed'
import { LocalStore } from './store'
import { accountsForSync, SyncEngine } from './sync'

export {
  Accounts,
  FileVault,
  SIGN_IN_TIMEOUT_MS,
  type JsonConsumer,
  type JsonCredentials,
  type JsonSide,
  type SecretCipher,
  type Vault,
} from './accounts'
export { FeedPoller, type FeedPollerOptions, type Friend, type FriendFeed, type FriendUpdate } from './feed'
export {
  JsonClient,
  type ImageLink,
  type JsonApiKey,
  type JsonAuthToken,
  type JsonEvent,
  type JsonEventObject,
  type JsonGroup,
  type JsonUser,
  type List,
  type Stream,
} from './json'
export { AtomClient, RequestFailure, type FailureKind, type FeedPage, type PostToSend, type RemotePost } from './atom'
export { MAX_MEDIA_BYTES, readPhotoPreview, type ImageType, type PhotoPreview } from './media'
export {
  Caches,
  DataInUseError,
  Drafts,
  LocalStore,
  MediaCopies,
  type Cached,
  type Draft,
  type DraftChanges,
  type DraftConflict,
  type DraftRemote,
  type DraftState,
  type MediaCopy,
  type NewDraft,
  type Revision,
} from './store'

export {
  LOCAL_MEDIA_SCHEME,
  SyncEngine,
  accountsForSync,
  contentHash,
  localMediaReference,
  type AccountsForSync,
  type NewListItem,
  type NewPhoto,
  type NewUpload,
  type Operation,
  type OperationKind,
  type OperationState,
  type OutboxCounts,
  type PausedAccount,
  type SyncChange,
  type SyncProgress,
} from './sync'

export interface CoreOptions {
  /** Where the local store lives (the app's userData in Electron, a temp dir in tests). */
  dataDir: string
  vault: Vault
  /** Electron's net.fetch in the app (system proxy and certificates); Node's fetch by default. */
  fetch?: Fetch
}

export type CoreEventListener = <E extends Event>(event: E, payload: Events[E]) => void

export interface Core {
  handlers: Handlers
  onEvent(listener: CoreEventListener): () => void
  /** The outbox: publishing, deleting, photos, uploads and list items, sent when the servers can be reached. */
  sync: SyncEngine
  /** Accounts, with their JSON side: attachJson, beginOAuthSignIn, jsonClient. */
  accounts: Accounts
  /** Friends' activity, polled and cached for reading offline; announces 'friend-updated'. */
  feed: FeedPoller
  close(): Promise<void>
}

export async function openCore(options: CoreOptions): Promise<Core> {
  await mkdir(options.dataDir, { recursive: true })
  const store = LocalStore.open(join(options.dataDir, 'blogdesk.sqlite'))
  const listeners = new Set<CoreEventListener>()
  const emit: CoreEventListener = (event, payload) => {
    for (const listener of listeners) listener(event, payload)
  }
  const fetch = options.fetch ?? globalThis.fetch
  const accounts = new Accounts({
    store,
    vault: options.vault,
    fetch,
    onChanged: (list) => emit('accounts:changed', list),
  })
  const sync = new SyncEngine({ store, accounts: accountsForSync(accounts, fetch) })
  sync.start()
  const feed = new FeedPoller({ store, clientOf: (accountId) => accounts.jsonClient(accountId) })
  feed.start()

  const handlers: Handlers = {
    'accounts:list': async () => accounts.list(),
    'accounts:add': (request) => accounts.add(request),
    'weblogs:list': (request) => accounts.weblogs(request.accountId),
  }

  return {
    handlers,
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    sync,
    accounts,
    feed,
    async close() {
      listeners.clear()
      await feed.stop()
      await sync.stop()
      store.close()
    },
  }
}
