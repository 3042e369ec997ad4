// What the servers last said, kept so Blogdesk shows it at once and offline: an account's weblogs, albums and lists,
// each weblog's categories, and the first page of each feed. Every entry is replaced whole when fresh data arrives.
import type { Weblog } from '../../../src-preload/contract'
import type { Collection, FeedPage } from '../atom'
import type { LocalStore } from './database'

export interface Cached<T> {
  value: T
  /** When the server said it (ISO 8601), so the person can tell how old an offline view is. */
  fetchedAt: string
}

interface Kinds {
  weblogs: Weblog[]
  categories: string[]
  'feed-page': FeedPage
  albums: Collection[]
  lists: Collection[]
}

/** The key of what an account has one of. */
const WHOLE_ACCOUNT = ''

export class Caches {
  readonly #store: LocalStore
  readonly #now: () => number

  constructor(store: LocalStore, options: { now?: () => number } = {}) {
    this.#store = store
    this.#now = options.now ?? Date.now
  }

  weblogs(accountId: string): Cached<Weblog[]> | null {
    return this.#read(accountId, 'weblogs', WHOLE_ACCOUNT)
  }

  replaceWeblogs(accountId: string, weblogs: Weblog[]): void {
    this.#write(accountId, 'weblogs', WHOLE_ACCOUNT, weblogs)
  }

  /** One cached weblog by its PostURI: where its uploads and categories go. */
  weblog(accountId: string, postUri: string): Weblog | null {
    return this.weblogs(accountId)?.value.find((weblog) => weblog.postUri === postUri) ?? null
  }

  categories(accountId: string, weblogPostUri: string): Cached<string[]> | null {
    return this.#read(accountId, 'categories', weblogPostUri)
  }

  replaceCategories(accountId: string, weblogPostUri: string, categories: string[]): void {
    this.#write(accountId, 'categories', weblogPostUri, categories)
  }

  /** The first page of a feed (a weblog's posts, an album's photos), by the feed's URI. */
  feedPage(accountId: string, feedUri: string): Cached<FeedPage> | null {
    return this.#read(accountId, 'feed-page', feedUri)
  }

  replaceFeedPage(accountId: string, feedUri: string, page: FeedPage): void {
    this.#write(accountId, 'feed-page', feedUri, page)
  }

  albums(accountId: string): Cached<Collection[]> | null {
    return this.#read(accountId, 'albums', WHOLE_ACCOUNT)
  }

  replaceAlbums(accountId: string, albums: Collection[]): void {
    this.#write(accountId, 'albums', WHOLE_ACCOUNT, albums)
  }

  lists(accountId: string): Cached<Collection[]> | null {
    return this.#read(accountId, 'lists', WHOLE_ACCOUNT)
  }

  replaceLists(accountId: string, lists: Collection[]): void {
    this.#write(accountId, 'lists', WHOLE_ACCOUNT, lists)
  }

  #read<K extends keyof Kinds>(accountId: string, kind: K, key: string): Cached<Kinds[K]> | null {
    const row = this.#store.get('SELECT value, fetched_at FROM caches WHERE account_id = :accountId AND kind = :kind AND key = :key', {
      accountId,
      kind,
      key,
    })
    return row && { value: JSON.parse(String(row['value'])) as Kinds[K], fetchedAt: String(row['fetched_at']) }
  }

  #write<K extends keyof Kinds>(accountId: string, kind: K, key: string, value: Kinds[K]): void {
    this.#store.run(
      `INSERT INTO caches (account_id, kind, key, value, fetched_at) VALUES (:accountId, :kind, :key, :value, :fetchedAt)
       ON CONFLICT (account_id, kind, key) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at`,
      { accountId, kind, key, value: JSON.stringify(value), fetchedAt: new Date(this.#now()).toISOString() },
    )
  }
}
