// Where a photo keeps its size and its EXIF, per file format. Each walk reads headers only and skips image data,
// so a preview costs the first chunk of the file however large the photo is.
import { readUint32, type ImageType } from './sniff'

/** Random access to a file's bytes; a read past the end returns what there is. */
export interface ByteSource {
  readonly size: number
  read(offset: number, length: number): Promise<Uint8Array>
}

export interface ImageLayout {
  width: number | null
  height: number | null
  /** The EXIF block as a TIFF structure (byte-order mark first), when the file has one. */
  exif: Uint8Array | null
  /** EXIF-style orientation (1–8) the container itself imposes: HEIF's `irot`. Null when it leaves that to EXIF. */
  orientation: number | null
}

/** EXIF larger than this is not camera metadata but something carried along (a preview image); it is skipped. */
const MAX_EXIF_BYTES = 256 * 1024
/** HEIF's `meta` box holds item tables only; one this large is damaged. */
const MAX_META_BYTES = 1024 * 1024

const EXIF_HEADER = 'Exif\0\0'

export function readLayout(type: ImageType, source: ByteSource): Promise<ImageLayout> {
  switch (type) {
    case 'image/jpeg':
      return jpegLayout(source)
    case 'image/png':
      return pngLayout(source)
    case 'image/gif':
      return gifLayout(source)
    case 'image/webp':
      return webpLayout(source)
    case 'image/heic':
    case 'image/avif':
      return heifLayout(source)
  }
}

const uint16 = (bytes: Uint8Array, offset: number) => ((bytes[offset] ?? 0) << 8) | (bytes[offset + 1] ?? 0)
const uint16le = (bytes: Uint8Array, offset: number) => (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8)
const uint24le = (bytes: Uint8Array, offset: number) => uint16le(bytes, offset) | ((bytes[offset + 2] ?? 0) << 16)
const uint32le = (bytes: Uint8Array, offset: number) => uint16le(bytes, offset) + uint16le(bytes, offset + 2) * 0x10000
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))

function withoutExifHeader(block: Uint8Array): Uint8Array {
  return ascii(block, 0, 6) === EXIF_HEADER ? block.subarray(6) : block
}

// JPEG: marker segments up to the start of the scan; EXIF is the APP1 segment that begins "Exif\0\0", the size is in
// the start-of-frame segment (SOF0–SOF15 except DHT, JPG and DAC).
async function jpegLayout(source: ByteSource): Promise<ImageLayout> {
  const layout: ImageLayout = { width: null, height: null, exif: null, orientation: null }
  let offset = 2
  while (offset + 4 <= source.size) {
    const header = await source.read(offset, 4)
    if (header[0] !== 0xff) break
    const marker = header[1] ?? 0
    if (marker === 0xff) {
      offset += 1 // fill byte
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2 // markers without a length
      continue
    }
    if (marker === 0xda || marker === 0xd9) break // start of scan, end of image: no more headers
    const length = uint16(header, 2)
    if (length < 2) break
    if (marker === 0xe1 && layout.exif === null && length - 2 <= MAX_EXIF_BYTES) {
      const start = await source.read(offset + 4, EXIF_HEADER.length)
      if (ascii(start, 0, 6) === EXIF_HEADER) layout.exif = (await source.read(offset + 4, length - 2)).subarray(6)
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const frame = await source.read(offset + 4, 5)
      layout.height = uint16(frame, 1)
      layout.width = uint16(frame, 3)
      break // EXIF comes before the frame in every writer's layout
    }
    offset += 2 + length
  }
  return layout
}

// PNG: chunks after the signature; IHDR first, eXIf (raw TIFF) before the image data.
async function pngLayout(source: ByteSource): Promise<ImageLayout> {
  const layout: ImageLayout = { width: null, height: null, exif: null, orientation: null }
  let offset = 8
  while (offset + 8 <= source.size) {
    const header = await source.read(offset, 8)
    const length = readUint32(header, 0)
    const type = ascii(header, 4, 8)
    if (type === 'IHDR') {
      const data = await source.read(offset + 8, 8)
      layout.width = readUint32(data, 0)
      layout.height = readUint32(data, 4)
    } else if (type === 'eXIf' && length <= MAX_EXIF_BYTES) {
      layout.exif = withoutExifHeader(await source.read(offset + 8, length))
    } else if (type === 'IDAT' || type === 'IEND') {
      break
    }
    offset += 12 + length
  }
  return layout
}

async function gifLayout(source: ByteSource): Promise<ImageLayout> {
  const screen = await source.read(6, 4)
  return { width: uint16le(screen, 0), height: uint16le(screen, 2), exif: null, orientation: null }
}

// WebP: RIFF chunks. VP8X (extended) gives the canvas and says whether an EXIF chunk follows, often after the image
// data; a simple file has only VP8 (lossy) or VP8L (lossless), whose frame header gives the size.
async function webpLayout(source: ByteSource): Promise<ImageLayout> {
  const layout: ImageLayout = { width: null, height: null, exif: null, orientation: null }
  let expectExif = false
  let offset = 12
  while (offset + 8 <= source.size) {
    const header = await source.read(offset, 8)
    const type = ascii(header, 0, 4)
    const length = uint32le(header, 4)
    if (type === 'VP8X') {
      const data = await source.read(offset + 8, 10)
      expectExif = ((data[0] ?? 0) & 0x08) !== 0
      layout.width = uint24le(data, 4) + 1
      layout.height = uint24le(data, 7) + 1
    } else if (type === 'VP8 ' && layout.width === null) {
      const data = await source.read(offset + 8, 10)
      layout.width = uint16le(data, 6) & 0x3fff
      layout.height = uint16le(data, 8) & 0x3fff
    } else if (type === 'VP8L' && layout.width === null) {
      const data = await source.read(offset + 8, 5)
      const bits = uint32le(data, 1)
      layout.width = (bits & 0x3fff) + 1
      layout.height = ((bits >>> 14) & 0x3fff) + 1
    } else if (type === 'EXIF' && length <= MAX_EXIF_BYTES) {
      layout.exif = withoutExifHeader(await source.read(offset + 8, length))
    }
    if (layout.width !== null && (!expectExif || layout.exif !== null)) break
    offset += 8 + length + (length % 2)
  }
  return layout
}

interface Box {
  type: string
  /** Where the box's content starts, after its header, relative to the bytes it was read from. */
  start: number
  end: number
}

/** The boxes laid out in `bytes` between `from` and `to` (offsets relative to `bytes`). */
function boxesIn(bytes: Uint8Array, from: number, to: number): Box[] {
  const boxes: Box[] = []
  let offset = from
  while (offset + 8 <= to) {
    const header = boxHeader(bytes.subarray(offset, offset + 16), to - offset)
    if (!header) break
    boxes.push({ type: header.type, start: offset + header.headerSize, end: offset + header.size })
    offset += header.size
  }
  return boxes
}

function boxHeader(bytes: Uint8Array, available: number): { type: string; size: number; headerSize: number } | null {
  const type = ascii(bytes, 4, 8)
  let size = readUint32(bytes, 0)
  let headerSize = 8
  if (size === 1) {
    size = readUint32(bytes, 8) * 0x1_0000_0000 + readUint32(bytes, 12)
    headerSize = 16
  } else if (size === 0) {
    size = available // to the end of the file
  }
  return size < headerSize || size > available ? null : { type, size, headerSize }
}

// HEIF and AVIF: ISO media boxes. The `meta` box names the items (the primary image, the EXIF block), says where
// their bytes are (iloc) and which properties each has (ipma → ipco: ispe is the size, irot the rotation).
async function heifLayout(source: ByteSource): Promise<ImageLayout> {
  // HEIF readers turn the image by its irot property and ignore the EXIF orientation: no irot means upright.
  const layout: ImageLayout = { width: null, height: null, exif: null, orientation: 1 }
  const meta = await findTopLevelBox(source, 'meta')
  if (!meta) return layout
  const bytes = await source.read(meta.start, meta.end - meta.start)
  const children = new Map(boxesIn(bytes, 4, bytes.length).map((box) => [box.type, box])) // 4: version and flags
  const content = (box: Box | undefined) => (box ? bytes.subarray(box.start, box.end) : null)

  const pitm = content(children.get('pitm'))
  const primary = pitm ? (pitm[0] === 0 ? uint16(pitm, 4) : readUint32(pitm, 4)) : null
  const properties = primary === null ? [] : primaryProperties(content(children.get('iprp')), primary)
  for (const property of properties) {
    if (property.type === 'ispe' && layout.width === null) {
      layout.width = readUint32(property.data, 4)
      layout.height = readUint32(property.data, 8)
    } else if (property.type === 'irot') {
      layout.orientation = [1, 8, 3, 6][(property.data[0] ?? 0) & 0x03] ?? 1 // anticlockwise quarter turns
    }
  }

  const exifItem = findItemOfType(content(children.get('iinf')), 'Exif')
  const location = exifItem === null ? null : itemLocation(content(children.get('iloc')), exifItem)
  if (location && location.length <= MAX_EXIF_BYTES) {
    const idat = children.get('idat')
    const block =
      location.inMeta && idat
        ? bytes.subarray(idat.start + location.offset, idat.start + location.offset + location.length)
        : location.inMeta
          ? null
          : await source.read(location.offset, location.length)
    // The item starts with the offset from its fifth byte to the TIFF header (past an "Exif\0\0" when there is one).
    if (block && block.length > 4) layout.exif = block.subarray(4 + readUint32(block, 0))
  }
  return layout
}

async function findTopLevelBox(source: ByteSource, wanted: string): Promise<Box | null> {
  let offset = 0
  while (offset + 8 <= source.size) {
    const header = boxHeader(await source.read(offset, 16), source.size - offset)
    if (!header) return null
    if (header.type === wanted) {
      return header.size <= MAX_META_BYTES ? { type: wanted, start: offset + header.headerSize, end: offset + header.size } : null
    }
    offset += header.size
  }
  return null
}

/** The properties (ipco boxes) the ipma table associates with `item`. */
function primaryProperties(iprp: Uint8Array | null, item: number): { type: string; data: Uint8Array }[] {
  if (!iprp) return []
  const boxes = boxesIn(iprp, 0, iprp.length)
  const ipco = boxes.find((box) => box.type === 'ipco')
  const ipma = boxes.find((box) => box.type === 'ipma')
  if (!ipco || !ipma) return []
  const declared = boxesIn(iprp, ipco.start, ipco.end)
  const table = iprp.subarray(ipma.start, ipma.end)
  const version = table[0] ?? 0
  const wideIndexes = ((table[3] ?? 0) & 0x01) !== 0
  const entries = readUint32(table, 4)
  let offset = 8
  for (let entry = 0; entry < entries && offset < table.length; entry++) {
    const id = version < 1 ? uint16(table, offset) : readUint32(table, offset)
    offset += version < 1 ? 2 : 4
    const count = table[offset] ?? 0
    offset += 1
    const indexes: number[] = []
    for (let association = 0; association < count; association++) {
      indexes.push(wideIndexes ? uint16(table, offset) & 0x7fff : (table[offset] ?? 0) & 0x7f)
      offset += wideIndexes ? 2 : 1
    }
    if (id !== item) continue
    return indexes.flatMap((index) => {
      const box = declared[index - 1] // 1-based; 0 means "no property"
      return box ? [{ type: box.type, data: iprp.subarray(box.start, box.end) }] : []
    })
  }
  return []
}

/** The id of the first item of `type` in the item information box. */
function findItemOfType(iinf: Uint8Array | null, type: string): number | null {
  if (!iinf) return null
  const entriesStart = iinf[0] === 0 ? 6 : 8 // version and flags, then a 16- or 32-bit count
  for (const box of boxesIn(iinf, entriesStart, iinf.length)) {
    if (box.type !== 'infe') continue
    const infe = iinf.subarray(box.start, box.end)
    const version = infe[0] ?? 0
    if (version < 2) continue // versions 0 and 1 have no item types
    const id = version === 2 ? uint16(infe, 4) : readUint32(infe, 4)
    const typeAt = version === 2 ? 8 : 10 // after the id and the protection index
    if (ascii(infe, typeAt, typeAt + 4) === type) return id
  }
  return null
}

/** Where an item's bytes are: in the file (offset from its start) or in the meta box's idat. */
function itemLocation(iloc: Uint8Array | null, item: number): { offset: number; length: number; inMeta: boolean } | null {
  if (!iloc) return null
  const version = iloc[0] ?? 0
  const offsetSize = (iloc[4] ?? 0) >> 4
  const lengthSize = (iloc[4] ?? 0) & 0x0f
  const baseOffsetSize = (iloc[5] ?? 0) >> 4
  const indexSize = version >= 1 ? (iloc[5] ?? 0) & 0x0f : 0
  let offset = 6
  const read = (size: number) => {
    let value = 0
    for (let index = 0; index < size; index++) value = value * 256 + (iloc[offset + index] ?? 0)
    offset += size
    return value
  }
  const count = read(version < 2 ? 2 : 4)
  for (let entry = 0; entry < count && offset < iloc.length; entry++) {
    const id = read(version < 2 ? 2 : 4)
    const method = version >= 1 ? read(2) & 0x0f : 0
    read(2) // data reference index: 0 is this file
    const base = read(baseOffsetSize)
    const extents = read(2)
    let start: number | null = null
    let length = 0
    for (let extent = 0; extent < extents; extent++) {
      read(indexSize)
      const extentOffset = read(offsetSize)
      const extentLength = read(lengthSize)
      // Contiguous extents are one block; EXIF split across the file is not worth a scatter read.
      if (start === null) start = base + extentOffset
      else if (start + length !== base + extentOffset) return null
      length += extentLength
    }
    if (id === item) return start === null || method > 1 ? null : { offset: start, length, inMeta: method === 1 }
  }
  return null
}
