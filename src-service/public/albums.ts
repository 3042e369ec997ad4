// Public album pages: /albums/<setId>/ shows the album's thumbnails, /albums/<setId>/<photoId> one photo with its
// caption, date, place and camera. Every text is the owner's or a camera's: all of it is escaped.
import type { Router } from '../routes/router'
import { idOf } from '../routes/posts-entry'
import type { Album, Photo, Store } from '../store'
import { photoFileUrl, thumbnailUrl } from './media'
import { escapeHtml, htmlPage, notFoundPage } from './page'

export function albumPageUrl(origin: string, album: Pick<Album, 'id'>): string {
  return `${origin}/albums/${album.id}/`
}

export function photoPageUrl(origin: string, photo: Pick<Photo, 'id' | 'albumId'>): string {
  return `${origin}/albums/${photo.albumId}/${photo.id}`
}

export function registerAlbumPages(router: Router, store: Store): void {
  router
    .get('/albums/:setId/', async ({ params }) => {
      const album = await findAlbum(store, params['setId'])
      if (!album) return notFoundPage('There is no album at this address. The link may be out of date.')
      return albumPage(album, await store.photos.inAlbum(album.id))
    })
    .get('/albums/:setId/:photoId', async ({ params }) => {
      const album = await findAlbum(store, params['setId'])
      const photoId = idOf(params['photoId'])
      const photos = album ? await store.photos.inAlbum(album.id) : []
      const index = photos.findIndex((photo) => photo.id === photoId)
      if (!album || index === -1) return notFoundPage('There is no photo at this address. The link may be out of date.')
      return photoPage(album, photos, index)
    })
}

async function findAlbum(store: Store, id: string | undefined): Promise<Album | null> {
  const albumId = idOf(id)
  return albumId === null ? null : store.albums.find(albumId)
}

// Pages link with paths rather than the origin, so they read the same whichever address reached the service.
const HERE = ''

const ALBUM_STYLE = `<style>
ul.album { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); }
ul.album a { display: block; text-decoration: none; color: inherit; }
ul.album img { display: block; width: 100%; aspect-ratio: 3 / 2; object-fit: cover; border-radius: 4px; }
ul.album span { display: block; margin-top: 0.35rem; }
figure { margin: 0 0 1.5rem; }
figcaption { margin-top: 0.5rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dl.meta dd { margin: 0; }
nav.pager { display: flex; justify-content: space-between; margin-top: 2rem; }
</style>`

function albumPage(album: Album, photos: Photo[]): ReturnType<typeof htmlPage> {
  const items = photos.map(
    (photo) =>
      `<li><a href="${escapeHtml(photoPageUrl(HERE, photo))}">` +
      `<img src="${escapeHtml(thumbnailUrl(HERE, photo))}" width="${photo.thumbnailWidth}" height="${photo.thumbnailHeight}" alt="${escapeHtml(photo.title)}">` +
      `<span>${escapeHtml(photo.title)}</span></a></li>`,
  )
  const count = photos.length === 1 ? '1 photo' : `${photos.length} photos`
  const body = [
    ALBUM_STYLE,
    `<h1>${escapeHtml(album.title)}</h1>`,
    `<p class="meta">${count} by ${escapeHtml(album.ownerName)}</p>`,
    photos.length === 0 ? '<p>No photos yet.</p>' : `<ul class="album">\n${items.join('\n')}\n</ul>`,
  ]
  return htmlPage({ title: album.title, body: body.join('\n') })
}

function photoPage(album: Album, photos: Photo[], index: number): ReturnType<typeof htmlPage> {
  const photo = photos[index]!
  const original = escapeHtml(photoFileUrl(HERE, photo))
  const details: [string, string][] = []
  if (photo.taken) details.push(['Taken', `<time datetime="${escapeHtml(photo.taken)}">${escapeHtml(formatDate(photo.taken))}</time>`])
  const place = placeHtml(photo)
  if (place) details.push(['Place', place])
  if (photo.camera) details.push(['Camera', escapeHtml(photo.camera)])
  if (photo.keywords.length > 0) details.push(['Keywords', escapeHtml(photo.keywords.join(', '))])
  details.push([
    'Original',
    `<a href="${original}">${escapeHtml(photo.filename)}</a>, ${photo.width} × ${photo.height}, ${formatSize(photo.byteSize)}`,
  ])
  details.push(['Published', `<time datetime="${escapeHtml(photo.issued)}">${escapeHtml(formatDate(photo.issued))}</time>`])

  const previous = photos[index - 1]
  const next = photos[index + 1]
  const pager = [
    previous ? `<a href="${escapeHtml(photoPageUrl(HERE, previous))}" rel="prev">← ${escapeHtml(previous.title)}</a>` : '<span></span>',
    next ? `<a href="${escapeHtml(photoPageUrl(HERE, next))}" rel="next">${escapeHtml(next.title)} →</a>` : '<span></span>',
  ]
  const body = [
    ALBUM_STYLE,
    `<nav><a href="${escapeHtml(albumPageUrl(HERE, album))}">${escapeHtml(album.title)}</a></nav>`,
    `<h1>${escapeHtml(photo.title)}</h1>`,
    '<figure>',
    `<a href="${original}"><img src="${original}" width="${photo.width}" height="${photo.height}" alt="${escapeHtml(photo.title)}"></a>`,
    photo.caption ? `<figcaption>${escapeHtml(photo.caption)}</figcaption>` : '',
    '</figure>',
    `<dl class="meta">\n${details.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('\n')}\n</dl>`,
    `<nav class="pager">${pager.join('')}</nav>`,
  ]
  return htmlPage({ title: `${photo.title} — ${album.title}`, body: body.filter(Boolean).join('\n') })
}

/** The place's name, and a map link when the position is known. */
function placeHtml(photo: Photo): string | null {
  const position = photo.latitude !== null && photo.longitude !== null ? { lat: photo.latitude, lon: photo.longitude } : null
  const map = position
    ? `https://www.openstreetmap.org/?mlat=${position.lat.toFixed(5)}&mlon=${position.lon.toFixed(5)}#map=16/${position.lat.toFixed(5)}/${position.lon.toFixed(5)}`
    : null
  if (photo.location === null && map === null) return null
  const name = escapeHtml(photo.location ?? 'On the map')
  return map ? `${name} (<a href="${escapeHtml(map)}" rel="noreferrer">map</a>)` : name
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })

/** Dates are kept in UTC; a photo's zoneless camera time was read as UTC, so this shows the camera's clock. */
function formatDate(w3cdtf: string): string {
  const date = new Date(w3cdtf)
  return Number.isNaN(date.getTime()) ? w3cdtf : DATE_FORMAT.format(date)
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
