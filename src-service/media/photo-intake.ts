// Adding a photo to an album (spec §2.7's table): the entry's elements are checked, the bytes analysed, and the
// photo recorded with its NewAsset event in one transaction that also moves its files into place. What the client
// sent wins over what the file says: its caption, place and date replace EXIF and IPTC, which fill the gaps.
import { formatW3cDate, NS, parseW3cDate, type AtomEntry } from '../../src-protocol'
import { HttpError } from '../routes/reply'
import type { Album, Photo, PhotoFields, Store } from '../store'
import { fileNameFromTitle, fileNameProblem } from './file-names'
import { discardIncoming, type MediaLibrary } from './library'
import { analysePhoto } from './photo-analysis'
import { requireBase64File, type ReceivedEntry } from './receive-entry'

const PHOTO_CONTENT_EXAMPLE = '<content mode="base64" type="image/jpeg">…</content>'

export interface PhotoRequest extends ReceivedEntry {
  album: Album
  /** Who adds it: the album's owner. */
  actorId: number
}

/**
 * Adds the photo; `respond` runs inside the transaction, once the photo and its event are recorded, so what it
 * records too (an idempotency key's answer) is kept or dropped with them. The received file is consumed either way.
 */
export async function addPhoto<T>(
  store: Store,
  library: MediaLibrary,
  request: PhotoRequest,
  respond: (photo: Photo) => Promise<T>,
): Promise<T> {
  try {
    const { album, actorId, entry } = request
    const title = entry.title?.trim()
    if (!title) throw new HttpError(400, 'The photo has no title. Send its name in <title>…</title>.')
    const { type: declaredType, file } = requireBase64File(request, PHOTO_CONTENT_EXAMPLE)
    const sentFilename = photoElement(entry, 'filename')
    const problem = sentFilename === null ? null : fileNameProblem(sentFilename)
    if (problem) throw new HttpError(400, problem)
    if (sentFilename === null && declaredType === null) {
      throw new HttpError(
        400,
        'The photo has neither a <photo:filename> nor a type on its <content>, so its format is unknown. ' +
          `Send ${PHOTO_CONTENT_EXAMPLE} with the photo's type.`,
      )
    }
    const now = formatW3cDate(new Date())
    const taken = sentDate(photoElement(entry, 'taken'), 'photo:taken')
    const issued = sentDate(entry.issued?.trim() || null, 'issued') ?? now

    const photo = await analysePhoto(file, declaredType, library)
    try {
      const { metadata } = photo
      const fields: PhotoFields = {
        title,
        caption: entry.summary?.trim() || metadata.caption,
        filename: sentFilename ?? fileNameFromTitle(title, photo.type.extension),
        mediaType: photo.type.mediaType,
        byteSize: file.size,
        sha256: file.sha256,
        width: photo.width,
        height: photo.height,
        location: photoElement(entry, 'location') ?? metadata.location,
        latitude: metadata.latitude,
        longitude: metadata.longitude,
        taken: taken ?? metadata.taken,
        keywords: metadata.keywords,
        camera: metadata.camera,
        issued,
        storedName: library.newStoredName('photos', album.id, photo.type.extension),
        thumbnailName: library.newStoredName('thumbnails', album.id, '.jpg'),
        thumbnailWidth: photo.thumbnail.width,
        thumbnailHeight: photo.thumbnail.height,
      }
      const files = [
        { from: file.path, to: fields.storedName },
        { from: photo.thumbnail.path, to: fields.thumbnailName },
      ]
      return await library.recordWithFiles(store.transaction, files, async () => {
        const added = await store.photos.add(album.id, fields, now)
        await store.events.record({ actorId, verb: 'NewAsset', objectType: 'Photo', objectId: added.id, published: now })
        return respond(added)
      })
    } finally {
      await discardIncoming(photo.thumbnail.path)
    }
  } finally {
    await request.file?.discard()
  }
}

/** The trimmed text of a {photo_ns} element, or null when absent or blank. */
function photoElement(entry: AtomEntry, name: string): string | null {
  const element = entry.extensions.find((extension) => extension.ns === NS.photo && extension.name === name)
  return element?.text.trim() || null
}

/** A date the client sent, as UTC W3CDTF; 400 when it is not a date. */
function sentDate(text: string | null, element: string): string | null {
  if (text === null) return null
  const date = parseW3cDate(text)
  if (date === null) {
    throw new HttpError(400, `<${element}> "${text}" is not a date. Send it as W3CDTF, e.g. 2005-01-01T12:00:00Z.`)
  }
  return formatW3cDate(date)
}
