// What the service learns from a photo's bytes: its real format (never the client's word for it), its size, a
// thumbnail (sharp, reading the file, so the photo is never loaded whole), and the metadata cameras and photo
// editors write — EXIF date, GPS position, description, camera; IPTC caption, keywords and place (exifr).
import exifr from 'exifr'
import sharp from 'sharp'
import { formatW3cDate } from '../../src-protocol'
import { HttpError } from '../routes/reply'
import { imageTypeNamed, IMAGE_TYPES, sniffImageType, type ImageType } from './image-types'
import { discardIncoming, type MediaLibrary } from './library'
import type { ReceivedFile } from './receive-entry'

// The operation cache would keep recently read files open and their pixels in memory; every photo is read once.
sharp.cache(false)

/** Thumbnails fit in this square, as JPEG without metadata (no GPS position leaks through a thumbnail). */
export const THUMBNAIL_SIZE = 320
const THUMBNAIL_QUALITY = 80
/** 100 megapixels: more than any camera, less than a decompression bomb. */
const MAX_INPUT_PIXELS = 100_000_000

export interface PhotoMetadata {
  /** W3CDTF, UTC (see `takenFromExif`). */
  taken: string | null
  caption: string | null
  location: string | null
  latitude: number | null
  longitude: number | null
  keywords: string[]
  camera: string | null
}

export interface AnalysedPhoto {
  type: ImageType
  width: number
  height: number
  metadata: PhotoMetadata
  /** A JPEG in incoming/; the caller places or discards it. */
  thumbnail: { path: string; width: number; height: number }
}

/**
 * Reads the photo in `file`; `declaredType` is what the client said (null when it said nothing). Refuses what is
 * not a photo (415), a photo of another type than declared (400), and damaged or truncated data (400).
 */
export async function analysePhoto(
  file: ReceivedFile,
  declaredType: string | null,
  library: MediaLibrary,
): Promise<AnalysedPhoto> {
  const type = sniffImageType(file.head)
  const known = IMAGE_TYPES.filter((candidate) => candidate.readable).map((candidate) => candidate.name)
  if (type === null) {
    throw new HttpError(
      415,
      `The content is not a photo this service knows: send ${known.slice(0, -1).join(', ')} or ${known.at(-1)} data.`,
    )
  }
  const declared = declaredType === null ? null : imageTypeNamed(declaredType)
  if (declaredType !== null && declared !== type) {
    throw new HttpError(
      400,
      `The content says it is ${declaredType}, but the data is a ${type.name} image (${type.mediaType}). ` +
        'Send the type that matches the file.',
    )
  }
  if (!type.readable) {
    throw new HttpError(
      415,
      `This service cannot read ${type.name} photos. Export the photo as JPEG (or ${known.slice(1).join(', ')}) and send it again.`,
    )
  }

  const thumbnailPath = library.incomingPath()
  try {
    const image = () => sharp(file.path, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
    const { autoOrient } = await image().metadata()
    const thumbnail = await image()
      .rotate() // upright, as the EXIF orientation says
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' }) // JPEG has no transparency
      .jpeg({ quality: THUMBNAIL_QUALITY, mozjpeg: true })
      .toFile(thumbnailPath)
    return {
      type,
      width: autoOrient.width,
      height: autoOrient.height,
      metadata: await readMetadata(file.path),
      thumbnail: { path: thumbnailPath, width: thumbnail.width, height: thumbnail.height },
    }
  } catch (error) {
    await discardIncoming(thumbnailPath)
    if (error instanceof HttpError) throw error
    const pixels = /pixel limit/i.test(String(error))
    throw new HttpError(
      400,
      pixels
        ? `The photo has more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels. Send a smaller version.`
        : `The photo data could not be read as ${type.name}: it is damaged or incomplete. Send the whole file again.`,
    )
  }
}

type Tags = Record<string, unknown>

/** Whatever metadata the file has; none (or unreadable metadata) is not a reason to refuse a photo. */
export async function readMetadata(path: string): Promise<PhotoMetadata> {
  let tags: Tags
  try {
    tags = ((await exifr.parse(path, {
      tiff: true,
      exif: true,
      gps: true,
      iptc: true,
      xmp: false,
      icc: false,
      jfif: false,
      ihdr: false,
      // Dates stay text: exifr would read a zoneless EXIF time in this process's time zone.
      reviveValues: false,
    })) ?? {}) as Tags
  } catch {
    tags = {}
  }
  const latitude = finiteNumber(tags['latitude'])
  const longitude = finiteNumber(tags['longitude'])
  const hasPosition = latitude !== null && longitude !== null
  return {
    taken: takenFromExif(text(tags['DateTimeOriginal']) ?? text(tags['CreateDate']), text(tags['OffsetTimeOriginal'])),
    caption: iptcText(tags['Caption']) ?? describedBy(text(tags['ImageDescription'])),
    location: placeName(tags) ?? (hasPosition ? formatPosition(latitude, longitude) : null),
    latitude: hasPosition ? latitude : null,
    longitude: hasPosition ? longitude : null,
    keywords: [tags['Keywords']].flat().map(iptcText).filter((keyword) => keyword !== null),
    camera: cameraOf(text(tags['Make']), text(tags['Model'])),
  }
}

/**
 * EXIF times ("2024:07:14 20:41:07") are the camera's wall clock, without a zone unless OffsetTimeOriginal gives
 * one. Without it the time is read as UTC, as the service reads every zoneless date (docs/PROTOCOL.md): the photo then
 * shows the time its camera showed.
 */
export function takenFromExif(value: string | null, offset: string | null): string | null {
  const match = value && /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value)
  if (!match) return null
  const [, year, month, day, hour, minute, second] = match
  const zone = offset && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : 'Z'
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`)
  // "0000:00:00 00:00:00" is what cameras without a clock write.
  return Number.isNaN(date.getTime()) || Number(year) < 1800 ? null : formatW3cDate(date)
}

/** "38.7056° N, 9.1450° W" (four decimals: about ten metres). */
export function formatPosition(latitude: number, longitude: number): string {
  const part = (value: number, positive: string, negative: string) =>
    `${Math.abs(value).toFixed(4)}° ${value < 0 ? negative : positive}`
  return `${part(latitude, 'N', 'S')}, ${part(longitude, 'E', 'W')}`
}

function placeName(tags: Tags): string | null {
  const parts = [tags['Sublocation'], tags['City'], tags['State'], tags['Country']].map(iptcText)
  const named = parts.filter((part, index) => part !== null && parts.indexOf(part) === index)
  return named.length > 0 ? named.join(', ') : null
}

// Cameras fill ImageDescription with their own name when the photographer wrote nothing.
const PLACEHOLDER_DESCRIPTIONS = /^(olympus digital camera|sony dsc|digital camera|dcim.*|exif_jpeg_picture|default|untitled)$/i

function describedBy(description: string | null): string | null {
  return description === null || PLACEHOLDER_DESCRIPTIONS.test(description) ? null : description
}

function cameraOf(make: string | null, model: string | null): string | null {
  if (model === null) return make
  if (make === null || model.toLowerCase().startsWith(make.toLowerCase())) return model
  return `${make} ${model}`
}

/**
 * IPTC text is bytes: exifr reads it as Latin-1, but most writers use UTF-8 (declared or not). Bytes that form
 * valid UTF-8 are read as such; anything else stays Latin-1.
 */
function iptcText(value: unknown): string | null {
  const latin1 = text(value)
  if (latin1 === null) return null
  try {
    return text(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(latin1, 'latin1')))
  } catch {
    return latin1
  }
}

// Characters XML 1.0 cannot carry, which metadata written by any tool may contain.
const NOT_XML_TEXT = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** A trimmed string that XML can carry, or null when there is none. */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const cleaned = value.replace(NOT_XML_TEXT, '').trim()
  return cleaned === '' ? null : cleaned
}

function finiteNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}
