// The demo user's photo album: the JPEGs in resources/demo-photos (made by make-demo-photos.ts, with EXIF and IPTC),
// each posted as an Atom entry through the same path as a client's photo POST, so the sandbox's photos have
// thumbnails, extracted dates, places and captions, and NewAsset events like any other.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { writeEntry } from '../../src-protocol'
import type { MediaLibrary } from '../media/library'
import { addPhoto } from '../media/photo-intake'
import { MAX_FILE_BYTES, receiveEntryWithFile } from '../media/receive-entry'
import type { Store } from '../store'

export const DEMO_PHOTOS_FOLDER = fileURLToPath(new URL('../../resources/demo-photos/', import.meta.url))

const DEMO_ALBUM = 'Summer in Lisbon'

/** Titles only: captions, dates and places come from the files, as they would for a phone's upload. */
const DEMO_PHOTOS = [
  { file: 'tagus-sunset.jpg', title: 'Sunset over the Tagus' },
  { file: 'tram-28.jpg', title: 'Tram 28' },
  { file: 'azulejos.jpg', title: 'Azulejos in Alfama' },
  { file: 'alfama-rooftops.jpg', title: 'Alfama rooftops' },
  { file: 'belem-pastries.jpg', title: 'Breakfast in Belém' },
]

/**
 * Gives the demo user the album, adding whichever demo photos it lacks (all of them on first start; after an
 * interrupted first start, the rest).
 */
export async function ensureDemoAlbum(store: Store, library: MediaLibrary, userId: number, photosFolder: string): Promise<void> {
  const album =
    (await store.albums.ownedBy(userId)).find((candidate) => candidate.title === DEMO_ALBUM) ??
    (await store.transaction(() => store.albums.add(userId, DEMO_ALBUM)))
  const present = new Set((await store.photos.inAlbum(album.id)).map((photo) => photo.title))
  for (const { file, title } of DEMO_PHOTOS) {
    if (present.has(title)) continue
    const bytes = await readFile(join(photosFolder, file))
    const entry = writeEntry({ title, content: { mode: 'base64', type: 'image/jpeg', value: bytes.toString('base64') } })
    const received = await receiveEntryWithFile(Readable.from([Buffer.from(entry)]), library, { maxFileBytes: MAX_FILE_BYTES })
    await addPhoto(store, library, { ...received, album, actorId: userId }, async () => undefined)
  }
}
