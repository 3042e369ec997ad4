// The photo formats the gallery knows, told apart by their first bytes rather than by what a client claims.

export interface ImageType {
  mediaType: string
  /** For file names, with the dot. */
  extension: string
  /** For people: "a JPEG photo". */
  name: string
  /** Whether the service can decode it (and so make its thumbnail). */
  readable: boolean
}

const JPEG: ImageType = { mediaType: 'image/jpeg', extension: '.jpg', name: 'JPEG', readable: true }
const PNG: ImageType = { mediaType: 'image/png', extension: '.png', name: 'PNG', readable: true }
const GIF: ImageType = { mediaType: 'image/gif', extension: '.gif', name: 'GIF', readable: true }
const WEBP: ImageType = { mediaType: 'image/webp', extension: '.webp', name: 'WebP', readable: true }
const AVIF: ImageType = { mediaType: 'image/avif', extension: '.avif', name: 'AVIF', readable: true }
// HEVC decoding is not in this build of libvips (patents), so HEIC is recognised only to say so.
const HEIC: ImageType = { mediaType: 'image/heic', extension: '.heic', name: 'HEIC', readable: false }

export const IMAGE_TYPES: readonly ImageType[] = [JPEG, PNG, GIF, WEBP, AVIF, HEIC]

/** Names that clients send for the same formats. */
const ALIASES: Record<string, ImageType> = {
  'image/jpeg': JPEG,
  'image/jpg': JPEG,
  'image/pjpeg': JPEG,
  'image/png': PNG,
  'image/x-png': PNG,
  'image/gif': GIF,
  'image/webp': WEBP,
  'image/avif': AVIF,
  'image/heic': HEIC,
  'image/heif': HEIC,
  'image/heic-sequence': HEIC,
  'image/heif-sequence': HEIC,
}

/** The known format a media type names (parameters and case ignored), or null. */
export function imageTypeNamed(mediaType: string): ImageType | null {
  const essence = mediaType.split(';', 1)[0]!.trim().toLowerCase()
  return ALIASES[essence] ?? null
}

/** Bytes needed from the start of a file for `sniffImageType`. */
export const SNIFF_BYTES = 64

/** The format of a file from its first bytes (at least SNIFF_BYTES of them when the file has that many), or null. */
export function sniffImageType(head: Uint8Array): ImageType | null {
  const ascii = (from: number, to: number) => Buffer.from(head.subarray(from, to)).toString('latin1')
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return JPEG
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return PNG
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return GIF
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return WEBP
  if (ascii(4, 8) === 'ftyp') return isoMediaBrand(head)
  return null
}

/** HEIF containers (ISO base media files) say in their `ftyp` box which codec they carry. */
function isoMediaBrand(head: Uint8Array): ImageType | null {
  const view = Buffer.from(head)
  const boxEnd = Math.min(view.readUInt32BE(0), view.length)
  const brands = [view.toString('latin1', 8, 12)]
  for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(view.toString('latin1', at, at + 4))
  if (brands.some((brand) => brand === 'avif' || brand === 'avis')) return AVIF
  if (brands.some((brand) => ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand))) return HEIC
  return null
}
