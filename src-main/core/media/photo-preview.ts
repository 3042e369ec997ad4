// What a dropped photo shows before it is sent: its type, size, when and where it was taken, with what camera.
// Only the headers are read — the first 64 KB of a JPEG, however large the photo — so a drop of a hundred photos
// previews at once.
import type { FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import exifr from 'exifr'
import { CoreError } from '../errors'
import { readLayout, type ByteSource } from './containers'
import { MAX_MEDIA_BYTES, openMediaFile, unreadable } from './media-file'
import { IMAGE_FORMATS_IN_WORDS, SNIFF_BYTES, sniffImageType, type ImageType } from './sniff'

export interface PhotoPreview {
  type: ImageType
  /** Bytes. */
  size: number
  /** Pixels as stored; turn them by `orientation` for display. Null when the headers do not say. */
  width: number | null
  height: number | null
  /** EXIF orientation: 1 is upright, 6 needs a quarter turn clockwise, 8 anticlockwise, 3 a half turn (2, 4, 5, 7 mirror too). */
  orientation: number
  /**
   * When the photo was taken, by the camera's clock: "2024-07-14T20:41:07", with the camera's offset from UTC
   * appended when it recorded one ("…+01:00"). Cameras mostly record their wall clock alone.
   */
  takenAt: string | null
  camera: { make: string | null; model: string | null } | null
  location: { latitude: number; longitude: number } | null
  /** How much of the file was read to make this preview. */
  bytesRead: number
}

/** The first read takes this much at once: all of a JPEG's headers, in practice, in one read. */
export const FIRST_CHUNK_BYTES = 64 * 1024

// Only these tags are decoded; exifr skips the rest of the EXIF block (and all of the maker notes).
const PICKED_TAGS = [
  'Make',
  'Model',
  'Orientation',
  'DateTimeOriginal',
  'CreateDate',
  'OffsetTimeOriginal',
  'ExifImageWidth',
  'ExifImageHeight',
  'GPSLatitude',
  'GPSLatitudeRef',
  'GPSLongitude',
  'GPSLongitudeRef',
]

/** Reads `path`'s preview data, refusing (in words) what is not a photo or is larger than `maxBytes`. */
export async function readPhotoPreview(path: string, options: { maxBytes?: number } = {}): Promise<PhotoPreview> {
  const { handle, size } = await openMediaFile(path, options.maxBytes ?? MAX_MEDIA_BYTES)
  try {
    const source = new FirstChunkSource(handle, size)
    const type = sniffImageType(await source.read(0, SNIFF_BYTES))
    if (type === null) {
      throw new CoreError('invalid-argument', `“${basename(path)}” is not a photo Blogdesk can read: it takes ${IMAGE_FORMATS_IN_WORDS} images.`)
    }
    const layout = await readLayout(type, source)
    const tags = layout.exif ? await exifTags(layout.exif) : {}
    const make = text(tags['Make'])
    const model = text(tags['Model'])
    const latitude = finite(tags['latitude'])
    const longitude = finite(tags['longitude'])
    return {
      type,
      size,
      width: layout.width ?? finite(tags['ExifImageWidth']),
      height: layout.height ?? finite(tags['ExifImageHeight']),
      orientation: layout.orientation ?? orientationOf(tags['Orientation']),
      takenAt: takenAt(text(tags['DateTimeOriginal']) ?? text(tags['CreateDate']), text(tags['OffsetTimeOriginal'])),
      camera: make === null && model === null ? null : { make, model },
      location: latitude === null || longitude === null ? null : { latitude, longitude },
      bytesRead: source.bytesRead,
    }
  } catch (error) {
    // The file failing to read (a disk error, a network share gone) is told in words; anything else is a defect.
    if (error instanceof CoreError || (error as NodeJS.ErrnoException).code === undefined) throw error
    throw unreadable(path, error)
  } finally {
    await handle.close()
  }
}

/** Serves reads from the file's first chunk, read once; reads beyond it go to the file for just what they ask. */
class FirstChunkSource implements ByteSource {
  readonly size: number
  bytesRead = 0
  readonly #handle: FileHandle
  #firstChunk: Uint8Array | null = null

  constructor(handle: FileHandle, size: number) {
    this.#handle = handle
    this.size = size
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(offset + length, this.size)
    if (end <= offset) return new Uint8Array(0)
    this.#firstChunk ??= await this.#readAt(0, Math.min(FIRST_CHUNK_BYTES, this.size))
    if (end <= this.#firstChunk.length) return this.#firstChunk.subarray(offset, end)
    return this.#readAt(offset, end - offset)
  }

  async #readAt(offset: number, length: number): Promise<Uint8Array> {
    const buffer = new Uint8Array(length)
    const { bytesRead } = await this.#handle.read(buffer, 0, length, offset)
    this.bytesRead += bytesRead
    return buffer.subarray(0, bytesRead)
  }
}

async function exifTags(tiff: Uint8Array): Promise<Record<string, unknown>> {
  try {
    const tags: unknown = await exifr.parse(tiff, {
      pick: PICKED_TAGS,
      ifd1: false,
      interop: false,
      makerNote: false,
      userComment: false,
      xmp: false,
      icc: false,
      iptc: false,
      jfif: false,
      ihdr: false,
      // Values stay as written: exifr would read a zoneless EXIF time in this process's time zone.
      reviveValues: false,
      translateValues: false,
    })
    return typeof tags === 'object' && tags !== null ? (tags as Record<string, unknown>) : {}
  } catch {
    return {} // damaged metadata is no reason to refuse a photo: it previews without it
  }
}

/** "2024:07:14 20:41:07" (EXIF) as "2024-07-14T20:41:07", with "+01:00" when the camera recorded its offset. */
function takenAt(value: string | null, offset: string | null): string | null {
  const match = value && /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value)
  // "0000:00:00 00:00:00" is what cameras without a clock write.
  if (!match || Number(match[1]) < 1800 || Number(match[2]) < 1 || Number(match[3]) < 1) return null
  const [, year, month, day, hour, minute, second] = match
  const zone = offset && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : ''
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`
}

function orientationOf(value: unknown): number {
  const orientation = finite(value)
  return orientation !== null && Number.isInteger(orientation) && orientation >= 1 && orientation <= 8 ? orientation : 1
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null
  // eslint-disable-next-line no-control-regex -- EXIF strings are NUL-padded
  const trimmed = value.replace(/\u0000/g, '').trim()
  return trimmed === '' ? null : trimmed
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}
