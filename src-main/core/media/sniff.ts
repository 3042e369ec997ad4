// What a file is, from its first bytes, never from its name: a photo renamed .txt is still a photo, and a
// document renamed .jpg is not.

export type ImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/heic' | 'image/avif'

/** How many leading bytes `sniffImageType` needs to decide. */
export const SNIFF_BYTES = 64

export const IMAGE_EXTENSIONS: Record<ImageType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/avif': 'avif',
}

/** Words for refusals: what Blogdesk takes. */
export const IMAGE_FORMATS_IN_WORDS = 'JPEG, PNG, GIF, WebP, HEIC or AVIF'

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const AVIF_BRANDS = new Set(['avif', 'avis'])
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'])

/** The image type the bytes start with, or null when they are not an image Blogdesk knows. */
export function sniffImageType(head: Uint8Array): ImageType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to))
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg'
  if (PNG_SIGNATURE.every((byte, index) => head[index] === byte)) return 'image/png'
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp'
  if (ascii(4, 8) === 'ftyp') {
    // An ISO media file: the major brand, then the compatible brands, say whether it holds AVIF or HEIF images.
    const boxSize = Math.min(readUint32(head, 0), head.length)
    const brands = [ascii(8, 12)]
    for (let offset = 16; offset + 4 <= boxSize; offset += 4) brands.push(ascii(offset, offset + 4))
    if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'image/avif'
    if (brands.some((brand) => HEIF_BRANDS.has(brand))) return 'image/heic'
  }
  return null
}

export function readUint32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] ?? 0) * 0x1000000 + (((bytes[offset + 1] ?? 0) << 16) | ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0)))
}
