// Photo albums' Atom interface (spec §2.7, §4.2): the root listing of the user's albums (GET /t/atom/gallery), the
// photo POST (/t/atom/gallery/set_id=<id>) and, as an extension, the album's photos as a paged feed at that address. The photo streams in (see media/receive-entry.ts); the answer is
// the photo's entry — title, summary, issued, photo:location, photo:thumbnail, photo:taken, alternate, id — without
// the photo itself. Location is the photo's public page: photos have no EditURI.
import { ATOM_MEDIA_TYPE, NS, writeEntry, writeLinkFeed, type EntryToWrite, type ExtensionElement } from '../../src-protocol'
import type { AuthenticatedHandler } from '../auth/wsse'
import type { MediaLibrary } from '../media/library'
import { addPhoto } from '../media/photo-intake'
import { albumPageUrl, photoPageUrl, registerAlbumPages } from '../public/albums'
import { registerMediaFiles, thumbnailUrl } from '../public/media'
import type { Album, Photo, Store } from '../store'
import { registerPagedFeed, type PagedFeed } from './feed-pages'
import { receiveFileEntry } from './file-entry'
import { ownedAlbum } from './ownership'
import { remember } from './posts-idempotency'
import { atomReply, type Handler } from './reply'
import type { Router } from './router'
import { tagUri } from './tag-uri'
import { registerUploadRoutes } from './uploads'

/**
 * Registers the gallery's and UploadURI's Atom routes (behind WSSE; album feeds when `feeds`), album pages and the
 * media files.
 */
export function registerMediaRoutes(
  router: Router,
  store: Store,
  library: MediaLibrary,
  withWsse: (handler: AuthenticatedHandler) => Handler,
  feeds: boolean,
): void {
  const album = '/t/atom/gallery/set_id=:setId'
  router.get('/t/atom/gallery', withWsse(galleryRoot(store, feeds))).post(album, withWsse(postPhoto(store, library)))
  if (feeds) registerPagedFeed(router, store, album, withWsse, async ({ origin, params }, user) => {
    return albumFeed(store, await ownedAlbum(store, user, params['setId']), origin)
  })
  registerUploadRoutes(router, store, library, withWsse)
  registerAlbumPages(router, store)
  registerMediaFiles(router, store, library)
}

/** GET /t/atom/gallery: each album's PostURI, its feed (an extension: the same address) and public page. */
function galleryRoot(store: Store, feeds: boolean): AuthenticatedHandler {
  return async ({ origin }, user) =>
    atomReply(
      200,
      writeLinkFeed(
        (await store.albums.ownedBy(user.id)).flatMap((album) => {
          const { title } = album
          const postUri = albumPostUri(origin, album)
          return [
            { rel: 'service.post', href: postUri, type: ATOM_MEDIA_TYPE, title },
            ...(feeds ? [{ rel: 'service.feed', href: postUri, type: ATOM_MEDIA_TYPE, title }] : []),
            { rel: 'alternate', href: albumPageUrl(origin, album), type: 'text/html', title },
          ]
        }),
      ),
    )
}

function albumPostUri(origin: string, album: Pick<Album, 'id'>): string {
  return `${origin}/t/atom/gallery/set_id=${album.id}`
}

/** An album's photos as a paged feed (docs/PROTOCOL.md, "Album and list feeds"). */
function albumFeed(store: Store, album: Album, origin: string): PagedFeed<Photo> {
  const { title } = album
  return {
    title,
    feedUri: albumPostUri(origin, album),
    links: [
      { rel: 'alternate', href: albumPageUrl(origin, album), type: 'text/html', title },
      { rel: 'service.post', href: albumPostUri(origin, album), type: ATOM_MEDIA_TYPE, title },
    ],
    rows: (offset, limit) => store.photos.page(album.id, offset, limit),
    entry: (photo) => photoEntry(origin, photo),
    modified: (photo) => photo.issued,
  }
}

function postPhoto(store: Store, library: MediaLibrary): AuthenticatedHandler {
  return async ({ request, origin, params }, user) => {
    const album = await ownedAlbum(store, user, params['setId'])
    const incoming = await receiveFileEntry(request, store.idempotency, library, user.id)
    if (incoming.earlier) return incoming.earlier
    const { received, idempotent, meanwhile } = incoming
    return addPhoto(store, library, { ...received, album, actorId: user.id }, async (photo) => {
      const body = writeEntry(photoEntry(origin, photo))
      const reply = { ...atomReply(201, body, { Location: photoPageUrl(origin, photo) }), body }
      if (idempotent) await remember(store.idempotency, user.id, idempotent, reply)
      return reply
    }, meanwhile)
  }
}

/** A photo as an Atom entry: what the spec's response lists, and the file name it is published under. */
export function photoEntry(origin: string, photo: Photo): EntryToWrite {
  const photoElement = (name: string, text: string | null): ExtensionElement[] =>
    text === null ? [] : [{ ns: NS.photo, name, text }]
  return {
    title: photo.title,
    summary: photo.caption,
    issued: photo.issued,
    id: tagUri(origin, photo.created, 'photo', photo.id),
    links: [{ rel: 'alternate', href: photoPageUrl(origin, photo), type: 'text/html', title: photo.title }],
    extensions: [
      ...photoElement('filename', photo.filename),
      ...photoElement('location', photo.location),
      ...photoElement('thumbnail', thumbnailUrl(origin, photo)),
      ...photoElement('taken', photo.taken),
    ],
  }
}
