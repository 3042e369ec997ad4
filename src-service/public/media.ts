// Public media files: uploads under /media/blogs/<weblog slug>/<name>, photos under /media/photos/<id>/<name>,
// thumbnails under /media/thumbnails/<id>.jpg. Each URL is looked up in the database, which names the stored file;
// the URL's text never becomes a path, so no address can reach outside the media folder. Files stream from disk.
import { open, type FileHandle } from 'node:fs/promises'
import type { MediaLibrary } from '../media/library'
import { idOf } from '../routes/posts-entry'
import type { Reply } from '../routes/reply'
import type { Router } from '../routes/router'
import type { Photo, Store } from '../store'
import { notFoundPage } from './page'

export function uploadUrl(origin: string, weblogSlug: string, filename: string): string {
  return `${origin}/media/blogs/${encodeURIComponent(weblogSlug)}/${encodeURIComponent(filename)}`
}

export function photoFileUrl(origin: string, photo: Pick<Photo, 'id' | 'filename'>): string {
  return `${origin}/media/photos/${photo.id}/${encodeURIComponent(photo.filename)}`
}

export function thumbnailUrl(origin: string, photo: Pick<Photo, 'id'>): string {
  return `${origin}/media/thumbnails/${photo.id}.jpg`
}

// Ids are never reused and stored files never change, so a photo's URLs may be cached for good. An upload's URL
// is a name, kept for a day.
const FOREVER = 'public, max-age=31536000, immutable'
const A_DAY = 'public, max-age=86400'

// An uploaded file may be HTML or SVG: shown on the service's origin it could run script there. Sandboxed, it is
// an opaque origin without script. PDF viewers refuse to run sandboxed, and a PDF runs no script of the page's.
const SANDBOX = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox"

export function registerMediaFiles(router: Router, store: Store, library: MediaLibrary): void {
  router
    .get('/media/blogs/:slug/:name', async ({ params }) => {
      const upload = await store.uploads.findByName(params['slug']!, params['name']!)
      if (!upload) return missing()
      return serveFile(library.pathOf(upload.storedName), upload.mediaType, A_DAY)
    })
    .get('/media/photos/:photoId/:name', async ({ params }) => {
      const photo = await findPhoto(store, params['photoId'])
      if (!photo || photo.filename !== params['name']) return missing()
      return serveFile(library.pathOf(photo.storedName), photo.mediaType, FOREVER)
    })
    .get('/media/thumbnails/:photoId.jpg', async ({ params }) => {
      const photo = await findPhoto(store, params['photoId'])
      if (!photo) return missing()
      return serveFile(library.pathOf(photo.thumbnailName), 'image/jpeg', FOREVER)
    })
}

async function findPhoto(store: Store, id: string | undefined): Promise<Photo | null> {
  const photoId = idOf(id)
  return photoId === null ? null : store.photos.find(photoId)
}

function missing(): Reply {
  return notFoundPage('There is no file at this address. It may have been mistyped, or the link is out of date.')
}

async function serveFile(path: string, mediaType: string, cacheControl: string): Promise<Reply> {
  let handle: FileHandle
  try {
    handle = await open(path, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    return notFoundPage('This file is recorded, but missing from the service\'s storage. Upload it again.')
  }
  try {
    const { size } = await handle.stat()
    const headers: Record<string, string> = {
      'Content-Type': mediaType,
      'Content-Length': String(size),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': cacheControl,
    }
    if (mediaType !== 'application/pdf') headers['Content-Security-Policy'] = SANDBOX
    // The stream closes the handle when it ends or is destroyed.
    return { status: 200, headers, body: handle.createReadStream() }
  } catch (error) {
    await handle.close()
    throw error
  }
}
