// Photo albums and typed lists: the account's albums and lists from the gallery and lists root listings (cached, so
// they show offline), what each holds, photos and list items queued through the outbox, and what the server answered.
//
// The Atom interface lets a client post to an album or a list but not read one (spec §4.2: no FeedURI). Blogdesk's
// service offers each a `service.feed` (collections-contents.ts), read where the listing announces it; elsewhere an
// album shows the photos Blogdesk sent to it and a list the items Blogdesk added. A list's type is what its feed's
// items tell, else the one the person chose when first adding to it.
import { basename } from 'node:path'
import type {
  AlbumPhoto,
  CollectionContents,
  CollectionListing,
  CollectionRef,
  CollectionsRequest,
  CollectionSummary,
  ListContents,
  QueuedPhoto,
} from '../../../src-shared/contract'
import { CoreError } from '../errors'
import { collectionRoot, type Collection } from '../atom'
import type { AtomEntry } from '../../../src-protocol'
import { readPhotoPreview } from '../media'
import type { Cached } from '../store'
import { listEntriesOf, photoOfEntry, readWholeFeed } from './collections-contents'
import { accountsForSync, type Operation } from '../sync'
import { listItemToSend } from './collections-list-items'
import { photoPreviewOf } from './collections-photos'
import { outboxItemOf } from './outbox-items'
import type { HandlersOf, Services } from './services'

type CollectionKind = 'gallery' | 'lists'

const WORDS: Record<CollectionKind, { plural: string; none: string; contents: string }> = {
  gallery: { plural: 'photo albums', none: 'has no photo albums', contents: 'the album’s photos' },
  lists: { plural: 'lists', none: 'has no typed lists', contents: 'the list’s items' },
}

export function collectionsHandlers(services: Services): HandlersOf<'albums' | 'photos' | 'lists'> {
  const { accounts, caches, media, sync, drafts, platform } = services
  const clients = accountsForSync(accounts, services.fetch)

  services.onClose(
    sync.on('changed', ({ operation }) => {
      if (operation?.state === 'done') keepWhatWasSent(operation)
      if (operation?.kind === 'photo' && operation.state === 'done') caches.forgetPhotoPreview(operation.accountId, operation.payload.hash)
    }),
  )

  /** What the server answered for a photo or a list item, kept for the album's and the list's panes. */
  function keepWhatWasSent(operation: Operation): void {
    if (operation.kind === 'photo' && operation.result) {
      const { title, caption } = operation.payload
      const { url, thumbnail, taken } = operation.result
      caches.addSentPhoto(operation.accountId, operation.queueKey, operation.id, {
        title,
        caption,
        url,
        thumbnailUrl: thumbnail,
        takenAt: taken ?? null,
      })
    } else if (operation.kind === 'list-item' && operation.result) {
      const { rating, notes } = operation.payload.item
      caches.addSentListEntry(operation.accountId, operation.queueKey, operation.id, {
        title: operation.result.title,
        fields: operation.result.fields,
        rating: rating ?? null,
        notes: notes ?? null,
        issued: operation.updatedAt,
      })
    }
  }

  function cachedOf(accountId: string, kind: CollectionKind): Cached<Collection[]> | null {
    return kind === 'gallery' ? caches.albums(accountId) : caches.lists(accountId)
  }

  function listingOf(accountId: string, kind: CollectionKind, collections: Collection[], fetchedAt: string | null, problem: string | null): CollectionListing {
    const summaries = collections.map(
      (collection): CollectionSummary => ({
        ...collection,
        // Listings cached before feeds were read have none.
        feedUri: collection.feedUri ?? null,
        listType: kind === 'lists' ? caches.listType(accountId, collection.postUri) : null,
      }),
    )
    return { collections: summaries, fetchedAt, problem }
  }

  /** The root listing from the server, or as last read when the server cannot be asked, with why in `problem`. */
  async function listCollections({ accountId, refresh }: CollectionsRequest, kind: CollectionKind): Promise<CollectionListing> {
    const root = collectionRoot(accounts.weblogRoot(accountId), kind)
    const cached = cachedOf(accountId, kind)
    const fromCache = (problem: string | null) => listingOf(accountId, kind, cached?.value ?? [], cached?.fetchedAt ?? null, problem)
    if (cached && !refresh) return fromCache(null)
    const { plural } = WORDS[kind]
    if (!platform.connectivity.isOnline()) {
      return fromCache(
        cached
          ? `This computer is offline: these are your ${plural} as last read from the server.`
          : `This computer is offline, and your ${plural} have not been read here before. They will show once it is back online.`,
      )
    }
    let collections: Collection[]
    try {
      collections = await clients.atomClient(accountId).listCollections(root)
    } catch (error) {
      if (!(error instanceof CoreError) || error.code === 'bug') throw error
      // A server without albums or lists (Movable Type) has no such listing: it simply has none.
      if (error.code === 'not-found') collections = []
      else return fromCache(cached ? `${error.message} These are your ${plural} as last read from the server.` : error.message)
    }
    if (kind === 'gallery') caches.replaceAlbums(accountId, collections)
    else caches.replaceLists(accountId, collections)
    return listingOf(accountId, kind, collections, cachedOf(accountId, kind)!.fetchedAt, null)
  }

  /**
   * The album or list the renderer names, among the account's: a photo or an item is sent with the account's
   * password, so only to a collection its server listed.
   */
  async function requireCollection({ accountId, collectionUri }: CollectionRef, kind: CollectionKind): Promise<Collection> {
    const known = (cachedOf(accountId, kind)?.value ?? []).find((collection) => collection.postUri === collectionUri)
    if (known) return known
    const listing = await listCollections({ accountId, refresh: true }, kind)
    const found = listing.collections.find((collection) => collection.postUri === collectionUri)
    if (found) return found
    const what = kind === 'gallery' ? 'album' : 'list'
    throw new CoreError(
      listing.problem ? 'offline' : 'not-found',
      listing.problem ?? `That ${what} is not among this account’s ${WORDS[kind].plural} on the server any more. Choose another one in the sidebar.`,
    )
  }

  /**
   * What the collection's feed lists, read now, or as last read when it cannot be (with why in `problem`); null when
   * the server offers no feed of it.
   */
  async function readFeed<T>(
    request: CollectionRef,
    kind: CollectionKind,
    feed: { cached(feedUri: string): Cached<T> | null; replace(feedUri: string, value: T): void; of(entries: AtomEntry[]): T; empty: T },
  ): Promise<{ value: T; fetchedAt: string | null; problem: string | null } | null> {
    const { feedUri } = await requireCollection(request, kind)
    if (!feedUri) return null
    const cached = feed.cached(feedUri)
    const fromCache = (problem: string) => ({ value: cached?.value ?? feed.empty, fetchedAt: cached?.fetchedAt ?? null, problem })
    const { contents } = WORDS[kind]
    if (!platform.connectivity.isOnline()) {
      return fromCache(
        cached
          ? `This computer is offline: these are ${contents} as last read from the server.`
          : `This computer is offline, and ${contents} have not been read here before. They will show once it is back online.`,
      )
    }
    try {
      feed.replace(feedUri, feed.of(await readWholeFeed(clients.atomClient(request.accountId), feedUri)))
    } catch (error) {
      if (!(error instanceof CoreError) || error.code === 'bug') throw error
      return fromCache(cached ? `${error.message} These are ${contents} as last read from the server.` : error.message)
    }
    const fresh = feed.cached(feedUri)!
    return { value: fresh.value, fetchedAt: fresh.fetchedAt, problem: null }
  }

  return {
    'albums:list': (request) => listCollections(request, 'gallery'),

    async 'albums:photos'(request): Promise<CollectionContents<AlbumPhoto>> {
      const { accountId } = request
      const read = await readFeed(request, 'gallery', {
        cached: (feedUri) => caches.albumFeed(accountId, feedUri),
        replace: (feedUri, photos) => caches.replaceAlbumFeed(accountId, feedUri, photos),
        of: (entries) => entries.map(photoOfEntry),
        empty: [],
      })
      if (read === null) return { source: 'sent', entries: caches.sentPhotos(accountId, request.collectionUri), fetchedAt: null, problem: null }
      return { source: 'feed', entries: read.value, fetchedAt: read.fetchedAt, problem: read.problem }
    },

    // Only this computer's own outbox is read: nothing to ask the server, so it answers offline too.
    async 'photos:queued'(request): Promise<QueuedPhoto[]> {
      return sync.operations().flatMap((operation) => {
        if (operation.kind !== 'photo' || operation.state === 'done') return []
        if (operation.accountId !== request.accountId || operation.queueKey !== request.collectionUri) return []
        const preview = caches.photoPreview(operation.accountId, operation.payload.hash)
        return preview ? [{ operationId: operation.id, preview }] : []
      })
    },

    'photos:preview': ({ path }) => photoPreviewOf(services.images, path),

    async 'photos:add'(request) {
      await requireCollection(request, 'gallery')
      const copy = await media.add(request.path, { imageOnly: true })
      if (request.stripGps && copy.type !== 'image/jpeg' && (await readPhotoPreview(copy.path)).location !== null) {
        throw new CoreError(
          'invalid-argument',
          `“${basename(request.path)}” records where it was taken, and Blogdesk can take that out only of JPEG photos. Send it with its location, or export it as a JPEG first.`,
        )
      }
      // Read again from the copy, not taken from the renderer: shown after a restart until the photo is sent.
      const preview = await photoPreviewOf(services.images, copy.path)
      caches.rememberPhotoPreview(request.accountId, copy.hash, { ...preview, path: request.path, name: basename(request.path) })
      const operation = sync.enqueuePhoto({
        accountId: request.accountId,
        albumUri: request.collectionUri,
        hash: copy.hash,
        title: request.title,
        caption: request.caption?.trim() || null,
        filename: basename(request.path),
        stripGps: request.stripGps,
      })
      await sync.persisted()
      return outboxItemOf(operation, drafts)
    },

    'lists:list': (request) => listCollections(request, 'lists'),

    async 'lists:items'(request): Promise<ListContents> {
      const { accountId, collectionUri } = request
      const read = await readFeed(request, 'lists', {
        cached: (feedUri) => caches.listFeed(accountId, feedUri),
        replace: (feedUri, feed) => caches.replaceListFeed(accountId, feedUri, feed),
        of: listEntriesOf,
        empty: { entries: [], listType: null },
      })
      if (read === null) return { source: 'sent', entries: caches.sentListEntries(accountId, collectionUri), fetchedAt: null, problem: null, listType: null }
      // What the items tell is the list's type, unless the person already said (the lists listing does not say).
      if (read.value.listType && caches.listType(accountId, collectionUri) === null) caches.rememberListType(accountId, collectionUri, read.value.listType)
      return { source: 'feed', entries: read.value.entries, fetchedAt: read.fetchedAt, problem: read.problem, listType: read.value.listType }
    },

    async 'lists:add'(request) {
      await requireCollection(request, 'lists')
      const item = listItemToSend(request)
      caches.rememberListType(request.accountId, request.collectionUri, request.listType)
      const operation = sync.enqueueListItem({ accountId: request.accountId, listUri: request.collectionUri, item })
      await sync.persisted()
      return outboxItemOf(operation, drafts)
    },
  }
}
