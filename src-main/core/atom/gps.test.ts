// Taking the position out of a photo: no reader finds it afterwards, and the picture is the very same.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import exifr from 'exifr'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PHOTOS_FOLDER } from '../../../src-service/demo/photos'
import { AtomClient } from './client'
import { applyPatches, gpsRemovalPatches } from './gps'

let folder: string
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'blogdesk-gps-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The bytes as they leave this computer with the position taken out; null when they are not a JPEG. */
async function withoutGps(bytes: Buffer): Promise<Buffer | null> {
  const path = join(folder, `${randomUUID()}.bin`)
  writeFileSync(path, bytes)
  const handle = await open(path, 'r')
  try {
    const patches = await gpsRemovalPatches(handle, bytes.length)
    if (patches === null) return null
    const copy = Buffer.from(bytes)
    // In the chunks the upload reads, as it applies them.
    for (let position = 0; position < copy.length; position += 100) applyPatches(copy.subarray(position, position + 100), position, patches)
    return copy
  } finally {
    await handle.close()
  }
}

const pixels = (image: Buffer) => sharp(image).raw().toBuffer()
/** Everything from the start of scan on: the compressed image itself. */
const imageData = (jpeg: Buffer) => jpeg.subarray(jpeg.indexOf(Buffer.from([0xff, 0xda])))

describe('removing the GPS position from a JPEG', () => {
  it.each(['tagus-sunset.jpg', 'tram-28.jpg', 'azulejos.jpg'])('leaves %s without a position, its picture and other metadata unchanged', async (file) => {
    const original = readFileSync(join(DEMO_PHOTOS_FOLDER, file))
    expect(await exifr.gps(original)).toMatchObject({ latitude: expect.any(Number) })

    const stripped = (await withoutGps(original))!
    expect(await exifr.gps(stripped)).toBeUndefined()
    expect(await exifr.parse(stripped, { gps: true, xmp: true })).not.toHaveProperty('GPSLatitude')
    expect(stripped.length).toBe(original.length)
    expect(imageData(stripped).equals(imageData(original))).toBe(true)
    expect((await pixels(stripped)).equals(await pixels(original))).toBe(true)
    const kept = ['DateTimeOriginal', 'Make', 'Model', 'ImageDescription', 'City']
    const originalMetadata = await exifr.parse(original, { iptc: true, pick: kept })
    expect(originalMetadata).toMatchObject({ DateTimeOriginal: expect.anything(), Make: expect.any(String) })
    expect(await exifr.parse(stripped, { iptc: true, pick: kept })).toEqual(originalMetadata)
  })

  it('leaves a JPEG without a position byte for byte as it was', async () => {
    const original = readFileSync(join(DEMO_PHOTOS_FOLDER, 'belem-pastries.jpg'))
    expect(await exifr.gps(original)).toBeUndefined()
    expect((await withoutGps(original))!.equals(original)).toBe(true)
  })

  it('blanks the GPS properties of an XMP packet, keeping the rest of it readable', async () => {
    const xmp =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" ' +
      'exif:GPSLatitude="38,42.3N" xmp:Rating="4"><exif:GPSLongitude>9,8.7W</exif:GPSLongitude></rdf:Description></rdf:RDF></x:xmpmeta>'
    const original = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3b4a78' } }).jpeg().withXmp(xmp).toBuffer()
    expect(await exifr.parse(original, { xmp: true })).toMatchObject({ GPSLatitude: '38,42.3N', GPSLongitude: '9,8.7W' })

    const stripped = (await withoutGps(original))!
    expect(await exifr.parse(stripped, { xmp: true })).toEqual({ Rating: 4 })
    expect(stripped.includes('GPS')).toBe(false)
    expect((await pixels(stripped)).equals(await pixels(original))).toBe(true)
  })

  it('blanks an EXIF segment it cannot read as a whole, rather than let a position through', async () => {
    const original = readFileSync(join(DEMO_PHOTOS_FOLDER, 'tagus-sunset.jpg'))
    const damaged = Buffer.from(original)
    // The TIFF byte order, right after "Exif\0\0" in the first segment, becomes nonsense.
    damaged.write('XX', damaged.indexOf('Exif\0\0', 0, 'latin1') + 6, 'latin1')
    expect(damaged.includes('Cais do Sodre')).toBe(true)
    const stripped = (await withoutGps(damaged))!
    expect(await exifr.parse(stripped, { gps: true, tiff: true, exif: true })).toBeUndefined()
    expect(stripped.includes('Cais do Sodre')).toBe(false)
    expect((await pixels(stripped)).equals(await pixels(original))).toBe(true)
  })

  it('says a file that is not a JPEG is not one', async () => {
    expect(await withoutGps(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'))).toBeNull()
  })

  it('refuses to send a photo of another format that holds a position, when asked to remove it', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
      .png()
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '38/1 42/1 20/1', GPSLongitudeRef: 'W', GPSLongitude: '9/1 8/1 42/1' } })
      .toBuffer()
    const path = join(folder, 'map.png')
    writeFileSync(path, png)
    // Nothing listens here: a request would fail as unreachable, not with these words.
    const client = new AtomClient({ fetch, credentials: async () => ({ username: 'melody', password: 'x' }) })
    await expect(
      client.postPhoto('http://127.0.0.1:9/album', { path, title: 'Map', type: 'image/png', stripGps: true }, { idempotencyKey: randomUUID() }),
    ).rejects.toMatchObject({ code: 'rejected', message: expect.stringMatching(/"Map" \(image\/png\) holds the place where it was taken, and Blogdesk can take that out only of JPEG photos/) })
  })
})
