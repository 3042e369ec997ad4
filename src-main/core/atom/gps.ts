// Taking the GPS position out of a JPEG without re-encoding it: the image data is never touched, only the metadata
// segments before it. In the EXIF segment the GPS IFD (and the values it points to) is zeroed and its pointer
// removed from IFD0; in an XMP packet the GPS properties are overwritten with spaces. Every change keeps each
// segment's length, so the file keeps its size and the changes are a few patches applied while the file streams.
import type { FileHandle } from 'node:fs/promises'

/** Bytes to put in place of the file's, at `offset`. */
export interface Patch {
  offset: number
  bytes: Buffer
}

const SOI = 0xd8
const SOS = 0xda
const EOI = 0xd9
const APP1 = 0xe1
/** An application segment no reader looks into: where an unreadable EXIF segment goes, blanked. */
const APP15 = 0xef
const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1')
const XMP_HEADER = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1')

/**
 * The patches that remove the GPS position from the JPEG in `handle` (its size `size`); null when the file is not
 * a JPEG. Segments are read one at a time, up to the image data.
 */
export async function gpsRemovalPatches(handle: FileHandle, size: number): Promise<Patch[] | null> {
  const read = async (position: number, length: number): Promise<Buffer> => {
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position)
    return buffer.subarray(0, bytesRead)
  }
  const start = await read(0, 2)
  if (start.length < 2 || start[0] !== 0xff || start[1] !== SOI) return null

  const patches: Patch[] = []
  let position = 2
  while (position + 4 <= size) {
    const header = await read(position, 4)
    if (header[0] !== 0xff) break
    const marker = header[1]!
    // Fill bytes before a marker.
    if (marker === 0xff) {
      position += 1
      continue
    }
    if (marker === SOS || marker === EOI) break
    // Markers that stand alone, without a length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      position += 2
      continue
    }
    const length = header.readUInt16BE(2)
    if (length < 2) break
    if (marker === APP1) {
      const segment = await read(position, 2 + length)
      const payload = segment.subarray(4)
      if (startsWith(payload, EXIF_HEADER)) {
        const outcome = removeExifGps(payload.subarray(EXIF_HEADER.length))
        if (outcome === 'unreadable') {
          // Unreadable EXIF may still hold a position: the whole segment becomes an empty APP15 instead.
          segment.fill(0, 4)
          segment[1] = APP15
        }
        if (outcome !== 'no-gps') patches.push({ offset: position, bytes: segment })
      } else if (startsWith(payload, XMP_HEADER) && removeXmpGps(payload)) {
        patches.push({ offset: position, bytes: segment })
      }
    }
    position += 2 + length
  }
  return patches
}

function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  return bytes.length >= prefix.length && bytes.subarray(0, prefix.length).equals(prefix)
}

/** Bytes per value of each TIFF field type (BYTE, ASCII, SHORT, LONG, RATIONAL, SBYTE, UNDEFINED, …, DOUBLE). */
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 }
const GPS_IFD_POINTER = 0x8825
const ENTRY_BYTES = 12

/** Removes the GPS IFD from the TIFF structure in `tiff`, in place; 'unreadable' leaves `tiff` as it was. */
function removeExifGps(tiff: Buffer): 'removed' | 'no-gps' | 'unreadable' {
  if (tiff.length < 8) return 'unreadable'
  const order = tiff.toString('latin1', 0, 2)
  if (order !== 'II' && order !== 'MM') return 'unreadable'
  const little = order === 'II'
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset))
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset))
  const setU16 = (offset: number, value: number) => (little ? tiff.writeUInt16LE(value, offset) : tiff.writeUInt16BE(value, offset))
  const fits = (offset: number, length: number) => offset >= 8 && offset + length <= tiff.length
  const zero = (offset: number, length: number) => tiff.fill(0, Math.min(offset, tiff.length), Math.min(offset + length, tiff.length))

  const ifd0 = u32(4)
  if (!fits(ifd0, 2)) return 'unreadable'
  const count = u16(ifd0)
  const entriesEnd = ifd0 + 2 + count * ENTRY_BYTES
  if (!fits(ifd0, 2 + count * ENTRY_BYTES)) return 'unreadable'
  let pointerEntry = -1
  for (let entry = ifd0 + 2; entry < entriesEnd; entry += ENTRY_BYTES) {
    if (u16(entry) === GPS_IFD_POINTER) pointerEntry = entry
  }
  if (pointerEntry === -1) return 'no-gps'

  const gpsIfd = u32(pointerEntry + 8)
  if (fits(gpsIfd, 2)) {
    const gpsCount = u16(gpsIfd)
    if (!fits(gpsIfd, 2 + gpsCount * ENTRY_BYTES)) return 'unreadable'
    for (let entry = gpsIfd + 2; entry < gpsIfd + 2 + gpsCount * ENTRY_BYTES; entry += ENTRY_BYTES) {
      const valueBytes = (TYPE_SIZES[u16(entry + 2)] ?? 1) * u32(entry + 4)
      if (valueBytes > 4) zero(u32(entry + 8), valueBytes)
    }
    zero(gpsIfd, 2 + gpsCount * ENTRY_BYTES + 4)
  }
  // The entries after the pointer, and the next-IFD offset, move up over it; entries stay sorted by tag.
  const ifdEnd = Math.min(entriesEnd + 4, tiff.length)
  tiff.copyWithin(pointerEntry, pointerEntry + ENTRY_BYTES, ifdEnd)
  tiff.fill(0, ifdEnd - ENTRY_BYTES, ifdEnd)
  setU16(ifd0, count - 1)
  return 'removed'
}

// exif:GPSLatitude="…" attributes and <exif:GPSLatitude>…</exif:GPSLatitude> elements, whatever the prefix.
const XMP_GPS_ATTRIBUTE = /\s[\w.-]+:GPS\w*\s*=\s*(?:"[^"]*"|'[^']*')/g
const XMP_GPS_ELEMENT = /<([\w.-]+):(GPS\w*)\b[^>]*?(?:\/>|>[\s\S]*?<\/\1:\2\s*>)/g

/** Overwrites the GPS properties of the XMP packet in `segment` with spaces; whether there were any. */
function removeXmpGps(segment: Buffer): boolean {
  // Latin-1 maps each byte to one character, so lengths in the string are lengths in bytes.
  const packet = segment.toString('latin1')
  const blanked = packet
    .replace(XMP_GPS_ELEMENT, (element) => ' '.repeat(element.length))
    .replace(XMP_GPS_ATTRIBUTE, (attribute) => ' '.repeat(attribute.length))
  if (blanked === packet) return false
  segment.write(blanked, 0, 'latin1')
  return true
}

/** Writes the patches that fall in `chunk`, which holds the file's bytes from `position`. */
export function applyPatches(chunk: Buffer, position: number, patches: readonly Patch[]): void {
  const end = position + chunk.length
  for (const { offset, bytes } of patches) {
    const from = Math.max(offset, position)
    const to = Math.min(offset + bytes.length, end)
    if (from < to) bytes.copy(chunk, from - position, from - offset, to - offset)
  }
}
