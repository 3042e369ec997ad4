// Photo albums and typed lists: the account's albums and lists from the gallery and lists root listings (cached, so
// they show offline), photos and list items queued through the outbox, and what the server answered for each.
//
// The Atom interface lets a client post to an album or a list but not read one (spec §4.2: no FeedURI), and its
// lists listing does not say what a list holds. So an album shows the photos Blogdesk sent to it, a list the items
// Blogdesk added, and a list's type is the one the person chose when first adding to it.
import { basename } from 'node:path'
import type {
  AlbumPhoto,
  CollectionListing,
  CollectionRef,
  CollectionsRequest,
  CollectionSummary,
  ListEntry,
} from '../../../src-shared/contract'
import { CoreError } from '../errors'
import { collectionRoot, type Collection } from '../atom'
import { readPhotoPreview } from '../media'
import type { Cached } from '../store'
import { accountsForSync, type Operation } from '../sync'
import { listItemToSend } from './collections-list-items'
import { photoPreviewOf } from './collections-photos'
import { outboxItemOf } from './outbox-items'
import type { HandlersOf, Services } from './services'

type CollectionKind = 'gallery' | 'lists'

const WORDS: Record<CollectionKind, { plural: string; none: string }> = {
  gallery: { plural: 'photo albums', none: 'has no photo albums' },
  lists: { plural: 'lists', none: 'has no typed lists' },
}

export function collectionsHandlers(services: Services): HandlersOf<'albums' | 'photos' | 'lists'> {
  const { accounts, caches, media, sync, drafts, platform } = services
  const clients = accountsForSync(accounts, services.fetch)

  services.onClose(
    sync.on('changed', ({ operation }) => {
      if (operation?.state === 'done') keepWhatWasSent(operation)
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

  return {
    'albums:list': (request) => listCollections(request, 'gallery'),

    async 'albums:photos'(request): Promise<AlbumPhoto[]> {
      await requireCollection(request, 'gallery')
      return caches.sentPhotos(request.accountId, request.collectionUri)
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

    async 'lists:items'(request): Promise<ListEntry[]> {
      await requireCollection(request, 'lists')
      return caches.sentListEntries(request.accountId, request.collectionUri)
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
