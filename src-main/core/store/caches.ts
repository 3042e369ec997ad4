// What the servers last said, kept so Blogdesk shows it at once and offline: an account's weblogs, albums and lists,
// each weblog's categories and look (for the preview), and the pages of feeds as last read. Every entry is replaced
// whole when fresh data arrives.
import type { AlbumPhoto, ListEntry, ListType, PhotoPreview, Weblog, WeblogStyle } from '../../../src-shared/contract'
import type { Collection, FeedPage, RemotePost } from '../atom'
import type { LocalStore } from './database'
import { indexFeedPage } from './search'

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
  'sent-photos': Sent<AlbumPhoto>[]
  'sent-list-entries': Sent<ListEntry>[]
  'list-type': ListType
  'weblog-look': WeblogStyle
  'album-feed': AlbumPhoto[]
  'list-feed': ListFeed
  'photo-preview': PhotoPreview
}

/** A list's items as its feed listed them, and the type their elements told. */
export interface ListFeed {
  entries: ListEntry[]
  listType: ListType | null
}

/** Something Blogdesk sent to an album or a list, as the server answered, by the outbox operation that sent it. */
interface Sent<T> {
  operationId: number
  value: T
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

  /** A page of a feed (a weblog's posts, an album's photos), by the page's URI: the feed's URI for its first page. */
  feedPage(accountId: string, feedUri: string): Cached<FeedPage> | null {
    return this.#read(accountId, 'feed-page', feedUri)
  }

  /** Keeps a page of a weblog's posts (`weblogPostUri`), which search then finds. */
  replaceFeedPage(accountId: string, feedUri: string, page: FeedPage, weblogPostUri: string): void {
    this.#store.transaction(() => {
      this.#write(accountId, 'feed-page', feedUri, page)
      indexFeedPage(this.#store, { accountId, weblogPostUri, pageUri: feedUri, posts: page.posts })
    })
  }

  /** A post as the most recently fetched of the account's cached feed pages showed it, found by its EditURI. */
  feedPost(accountId: string, editUri: string): Cached<RemotePost> | null {
    const rows = this.#store.all(
      "SELECT value, fetched_at FROM caches WHERE account_id = :accountId AND kind = 'feed-page' ORDER BY fetched_at DESC",
      { accountId },
    )
    for (const row of rows) {
      const post = (JSON.parse(String(row['value'])) as FeedPage).posts.find((candidate) => candidate.editUri === editUri)
      if (post) return { value: post, fetchedAt: String(row['fetched_at']) }
    }
    return null
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

  /**
   * The photos Blogdesk sent to the album, newest first, as the server answered. The Atom interface offers no way to
   * read an album, so this is what Blogdesk can show of one.
   */
  sentPhotos(accountId: string, albumUri: string): AlbumPhoto[] {
    return (this.#read(accountId, 'sent-photos', albumUri)?.value ?? []).map((sent) => sent.value)
  }

  /** Keeps a photo the album accepted; the same operation counts once. */
  addSentPhoto(accountId: string, albumUri: string, operationId: number, photo: AlbumPhoto): void {
    this.#addSent(accountId, 'sent-photos', albumUri, { operationId, value: photo })
  }

  /** The items Blogdesk added to the list, newest first, with what the server filled in. */
  sentListEntries(accountId: string, listUri: string): ListEntry[] {
    return (this.#read(accountId, 'sent-list-entries', listUri)?.value ?? []).map((sent) => sent.value)
  }

  addSentListEntry(accountId: string, listUri: string, operationId: number, entry: ListEntry): void {
    this.#addSent(accountId, 'sent-list-entries', listUri, { operationId, value: entry })
  }

  /** What the list holds, as the person said when adding to it: the lists root listing does not say. */
  listType(accountId: string, listUri: string): ListType | null {
    return this.#read(accountId, 'list-type', listUri)?.value ?? null
  }

  rememberListType(accountId: string, listUri: string, type: ListType): void {
    this.#write(accountId, 'list-type', listUri, type)
  }

  /** An album's photos as its feed (its `service.feed`) last listed them, newest first. */
  albumFeed(accountId: string, feedUri: string): Cached<AlbumPhoto[]> | null {
    return this.#read(accountId, 'album-feed', feedUri)
  }

  replaceAlbumFeed(accountId: string, feedUri: string, photos: AlbumPhoto[]): void {
    this.#write(accountId, 'album-feed', feedUri, photos)
  }

  listFeed(accountId: string, feedUri: string): Cached<ListFeed> | null {
    return this.#read(accountId, 'list-feed', feedUri)
  }

  replaceListFeed(accountId: string, feedUri: string, feed: ListFeed): void {
    this.#write(accountId, 'list-feed', feedUri, feed)
  }

  /**
   * What a queued photo showed when it was dropped (thumbnail, date, camera, place), by its media copy's hash: the
   * album shows it again after a restart, until the photo is sent.
   */
  photoPreview(accountId: string, hash: string): PhotoPreview | null {
    return this.#read(accountId, 'photo-preview', hash)?.value ?? null
  }

  rememberPhotoPreview(accountId: string, hash: string, preview: PhotoPreview): void {
    this.#write(accountId, 'photo-preview', hash, preview)
  }

  forgetPhotoPreview(accountId: string, hash: string): void {
    this.#store.run("DELETE FROM caches WHERE account_id = :accountId AND kind = 'photo-preview' AND key = :hash", { accountId, hash })
  }

  /** The weblog's look as the preview shows it (its styles and the frame around a post), by the weblog's PostURI. */
  weblogLook(accountId: string, weblogPostUri: string): Cached<WeblogStyle> | null {
    return this.#read(accountId, 'weblog-look', weblogPostUri)
  }

  replaceWeblogLook(accountId: string, weblogPostUri: string, style: WeblogStyle): void {
    this.#write(accountId, 'weblog-look', weblogPostUri, style)
  }

  #addSent<K extends 'sent-photos' | 'sent-list-entries'>(accountId: string, kind: K, key: string, sent: Kinds[K][number]): void {
    const earlier = (this.#read(accountId, kind, key)?.value ?? []) as Kinds[K]
    if (earlier.some((entry) => entry.operationId === sent.operationId)) return
    this.#write(accountId, kind, key, [sent, ...earlier] as Kinds[K])
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
