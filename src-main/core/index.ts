// The main process's core: everything Blogdesk does, with no Electron in sight, so it runs under plain Node in tests.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { CoreHandlers } from '../../src-shared/contract'
import { Accounts, RememberingVault, type Vault } from './accounts'
import type { Fetch } from './atom'
import { FeedPoller } from './feed'
import { inProcessImages, type ImageWorker } from './media'
import {
  accountsHandlers,
  collectionsHandlers,
  draftsHandlers,
  feedHandlers,
  outboxHandlers,
  postsHandlers,
  weblogSettingsHandlers,
  previewHandlers,
  searchHandlers,
  type CoreEventListener,
  type Services,
} from './handlers'
import type { Platform } from './platform'
import { Caches, Drafts, LocalStore, MediaCopies, WeblogSettings } from './store'
import { accountsForSync, Reachability, SyncEngine, systemClock } from './sync'

export {
  Accounts,
  FileVault,
  OAUTH_CALLBACK_PATH,
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
export { AtomClient, RequestFailure, type FailureKind, type Fetch, type FeedPage, type PostToSend, type RemotePost } from './atom'
export type { CoreEventListener } from './handlers'
export { CoreError, type CoreErrorCode } from './errors'
export type { Connectivity, Platform, SandboxDetails, ShownPage } from './platform'
export {
  MAX_MEDIA_BYTES,
  inProcessImages,
  readPhotoPreview,
  runImageJob,
  type ImageJob,
  type ImageResults,
  type ImageType,
  type ImageWorker,
  type PhotoPreview,
} from './media'
export {
  Caches,
  DataInUseError,
  Drafts,
  LocalStore,
  MediaCopies,
  Search,
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
  Reachability,
  type ServerReach,
  type SyncChange,
  type SyncProgress,
} from './sync'

export interface CoreOptions {
  /** Where the local store lives (the app's userData in Electron, a temp dir in tests). */
  dataDir: string
  vault: Vault
  /** What the desktop offers: connectivity, the browser, the built-in sandbox, a window for OAuth. */
  platform: Platform
  /** Electron's net.fetch in the app (system proxy and certificates); Node's fetch by default. */
  fetch?: Fetch
  /** Where sharp's work runs: a helper process in the app (Electron and sharp clash on Linux); here by default. */
  images?: ImageWorker
}

export interface Core {
  handlers: CoreHandlers
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
  const cleanups: (() => void)[] = []
  const emit: CoreEventListener = (event, payload) => {
    for (const listener of listeners) listener(event, payload)
  }
  const rawFetch = options.fetch ?? globalThis.fetch
  // Every request core makes tells what it learns of its server's reachability.
  const reachability = new Reachability({ clock: systemClock, fetch: rawFetch })
  const fetch = reachability.observe(rawFetch)
  const accounts = new Accounts({
    store,
    vault: new RememberingVault(options.vault),
    fetch,
    onChanged: (list) => emit('accounts:changed', list),
    // Asked only after openCore has returned, when `sync` exists.
    pausedReason: (accountId): string | null => sync.pausedAccounts().find((paused) => paused.accountId === accountId)?.reason ?? null,
    weblogTitle: (accountId): string | null => caches.weblogs(accountId)?.value[0]?.title ?? null,
  })
  const drafts = new Drafts(store)
  drafts.purgeTrash()
  const caches = new Caches(store)
  const media = new MediaCopies(store)
  const images = options.images ?? inProcessImages
  const weblogSettings = new WeblogSettings(store)
  const sync = new SyncEngine({ store, accounts: accountsForSync(accounts, fetch), drafts, caches, media, reachability, images, weblogSettings })
  const feed = new FeedPoller({ store, clientOf: (accountId) => accounts.jsonClient(accountId) })
  const services: Services = {
    store,
    accounts,
    sync,
    feed,
    reachability,
    drafts,
    caches,
    media,
    platform: options.platform,
    fetch,
    images,
    weblogSettings,
    emit,
    onClose: (cleanup) => void cleanups.push(cleanup),
  }
  const handlers: CoreHandlers = {
    ...accountsHandlers(services),
    ...outboxHandlers(services),
    ...draftsHandlers(services),
    ...postsHandlers(services),
    ...collectionsHandlers(services),
    ...feedHandlers(services),
    ...weblogSettingsHandlers(services),
    ...previewHandlers(services),
    ...searchHandlers(services),
  }
  sync.start()
  feed.start()

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
      for (const cleanup of cleanups.splice(0)) cleanup()
      await feed.stop()
      await sync.stop()
      store.close()
    },
  }
}
