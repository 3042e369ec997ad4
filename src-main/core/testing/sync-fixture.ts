// A local store with one verified account and a sync engine over it, for tests and benchmarks of the outbox: a real
// SQLite file and a real file vault in a temp dir (or a given data dir, to come back to), talking to a real service.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Weblog } from '../../../src-shared/contract'
import { Accounts, FileVault } from '../accounts'
import type { AtomClient, FeedPage, RemotePost } from '../atom'
import { Caches, Drafts, LocalStore, MediaCopies } from '../store'
import { accountsForSync, SyncEngine, type SyncEngineOptions } from '../sync'
import { testCipher } from './core-fixture'

export interface SyncFixture {
  dataDir: string
  store: LocalStore
  accounts: Accounts
  vault: FileVault
  accountId: string
  weblogs: Weblog[]
  drafts: Drafts
  caches: Caches
  media: MediaCopies
  /** The account's Atom client: the one the engines send with. */
  client: AtomClient
  /** A sync engine over this store and account; stopped by `close`. */
  engine(options?: Partial<SyncEngineOptions>): SyncEngine
  /** Stops the engines and closes the store, keeping the data dir. */
  close(): Promise<void>
  /** Closes and removes the data dir. */
  dispose(): Promise<void>
}

export interface SyncAccount {
  atomBase: string
  username: string
  password: string
}

/**
 * Opens the store in `dataDir` (a new temp dir when absent). With `account`, adds it (verified with the server) and
 * caches its weblogs; without, uses the one account already in the store.
 */
export async function openSyncFixture(options: { account?: SyncAccount; dataDir?: string; requestTimeoutMs?: number }): Promise<SyncFixture> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'blogdesk-sync-'))
  mkdirSync(dataDir, { recursive: true })
  const store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
  const vault = new FileVault(join(dataDir, 'secrets.bin'), testCipher)
  const accounts = new Accounts({ store, vault, fetch, onChanged: () => {} })
  const drafts = new Drafts(store)
  const caches = new Caches(store)
  const media = new MediaCopies(store)
  let accountId: string
  let weblogs: Weblog[]
  if (options.account) {
    const { atomBase, username, password } = options.account
    accountId = (await accounts.add({ atomBase, username, apiPassword: password })).id
    weblogs = await accounts.weblogs(accountId)
    caches.replaceWeblogs(accountId, weblogs)
  } else {
    const [account] = accounts.list()
    if (!account) throw new Error(`The store in ${dataDir} has no account.`)
    accountId = account.id
    weblogs = caches.weblogs(accountId)?.value ?? []
  }
  const engines: SyncEngine[] = []
  const forSync = accountsForSync(accounts, fetch, { timeoutMs: options.requestTimeoutMs })
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await Promise.all(engines.map((engine) => engine.stop()))
    store.close()
  }
  return {
    dataDir,
    store,
    accounts,
    vault,
    accountId,
    weblogs,
    drafts,
    caches,
    media,
    client: forSync.atomClient(accountId),
    engine: (engineOptions = {}) => {
      const engine = new SyncEngine({ store, accounts: forSync, drafts, caches, media, ...engineOptions })
      engines.push(engine)
      return engine
    },
    close,
    dispose: async () => {
      await close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Every post of a weblog, newest first, following the feed's next links to the end. */
export async function walkFeed(client: AtomClient, feedUri: string): Promise<RemotePost[]> {
  const posts: RemotePost[] = []
  for (let uri: string | null = feedUri; uri !== null; ) {
    const page: FeedPage = await client.feedPage(uri)
    posts.push(...page.posts)
    uri = page.next
  }
  return posts
}
