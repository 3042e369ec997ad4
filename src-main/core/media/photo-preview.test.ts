import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FIRST_CHUNK_BYTES, readPhotoPreview } from './photo-preview'

const demoPhoto = join(import.meta.dirname, '..', '..', '..', 'resources', 'demo-photos', 'tagus-sunset.jpg')

/** What a camera writes, in the form sharp takes it (GPS as degrees, minutes, seconds rationals). */
const cameraExif = {
  IFD0: { Make: 'FUJIFILM', Model: 'X100V' },
  IFD2: { DateTimeOriginal: '2023:05:01 12:34:56', OffsetTimeOriginal: '+02:00' },
  IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 51/1 36/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 36/1' },
}
const fromCamera = {
  takenAt: '2023-05-01T12:34:56+02:00',
  camera: { make: 'FUJIFILM', model: 'X100V' },
  location: { latitude: expect.closeTo(-33.86, 6), longitude: expect.closeTo(151.21, 6) },
}

const canvas = (width = 640, height = 480) => sharp({ create: { width, height, channels: 3, background: '#1f6f8b' } })

describe('readPhotoPreview', () => {
  let dir: string
  const file = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name)
    writeFileSync(path, bytes)
    return path
  }
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-preview-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('reads when, where and with what a photo was taken, and its size', async () => {
    expect(await readPhotoPreview(demoPhoto)).toEqual({
      type: 'image/jpeg',
      size: readFileSync(demoPhoto).length,
      width: 1200,
      height: 800,
      orientation: 1,
      takenAt: '2024-07-14T20:41:07',
      camera: { make: 'Blogdesk', model: 'Sandbox Camera' },
      location: { latitude: expect.closeTo(38.70561, 5), longitude: expect.closeTo(-9.14497, 5) },
      bytesRead: readFileSync(demoPhoto).length,
    })
  })

  it('reads only the first 64 KB of a large photo', async () => {
    const padded = file('large.jpg', Buffer.concat([readFileSync(demoPhoto), Buffer.alloc(6 * 1024 * 1024)]))
    const preview = await readPhotoPreview(padded)
    expect(preview).toMatchObject({ size: readFileSync(demoPhoto).length + 6 * 1024 * 1024, width: 1200, takenAt: '2024-07-14T20:41:07' })
    expect(preview.bytesRead).toBe(FIRST_CHUNK_BYTES)
  })

  it('follows a JPEG’s EXIF past the first chunk, reading just what it needs', async () => {
    // An editor that puts a 65 KB colour profile first pushes the EXIF segment out of the first 64 KB.
    const original = readFileSync(demoPhoto)
    const profile = Buffer.alloc(65_000 + 4)
    profile.set([0xff, 0xe2, (65_002 >> 8) & 0xff, 65_002 & 0xff])
    const pushed = file('pushed.jpg', Buffer.concat([original.subarray(0, 2), profile, original.subarray(2), Buffer.alloc(4 * 1024 * 1024)]))
    const preview = await readPhotoPreview(pushed)
    expect(preview).toMatchObject({ width: 1200, height: 800, takenAt: '2024-07-14T20:41:07', camera: { model: 'Sandbox Camera' } })
    expect(preview.bytesRead).toBeGreaterThan(FIRST_CHUNK_BYTES)
    expect(preview.bytesRead).toBeLessThan(FIRST_CHUNK_BYTES + 8 * 1024)
  })

  it.each([
    ['a PNG photo', 'image/png', () => canvas().withExif(cameraExif).png()],
    ['a lossy WebP photo', 'image/webp', () => canvas().withExif(cameraExif).webp()],
    ['a lossless WebP photo', 'image/webp', () => canvas().withExif(cameraExif).webp({ lossless: true })],
    ['an AVIF photo', 'image/avif', () => canvas().withExif(cameraExif).avif()],
    ['a JPEG photo written by sharp', 'image/jpeg', () => canvas().withExif(cameraExif).jpeg()],
  ] as const)('reads %s', async (_format, type, make) => {
    const preview = await readPhotoPreview(file('photo', await make().toBuffer()))
    expect(preview).toMatchObject({ type, width: 640, height: 480, orientation: 1, ...fromCamera })
  })

  it('reads a GIF and a plain WebP, which carry no EXIF', async () => {
    for (const [type, image] of [['image/gif', canvas(320, 200).gif()], ['image/webp', canvas(321, 201).webp()]] as const) {
      expect(await readPhotoPreview(file('plain', await image.toBuffer()))).toMatchObject({
        type,
        width: type === 'image/gif' ? 320 : 321,
        height: type === 'image/gif' ? 200 : 201,
        takenAt: null,
        camera: null,
        location: null,
      })
    }
  })

  it('reports how a photo must be turned, from EXIF or from the HEIF/AVIF container', async () => {
    for (const format of ['jpeg', 'png', 'avif'] as const) {
      const turned = await canvas(400, 300).withMetadata({ orientation: 6 }).toFormat(format).toBuffer()
      expect(await readPhotoPreview(file(`turned.${format}`, turned)), format).toMatchObject({ width: 400, height: 300, orientation: 6 })
    }
  })

  it('previews a photo with damaged EXIF without its metadata, rather than failing', async () => {
    const original = readFileSync(demoPhoto)
    const junk = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, 0x20]), Buffer.from('Exif\0\0'), Buffer.alloc(24, 0xaa)])
    const damaged = file('damaged.jpg', Buffer.concat([original.subarray(0, 2), junk, original.subarray(2)]))
    expect(await readPhotoPreview(damaged)).toMatchObject({ type: 'image/jpeg', width: 1200, height: 800 })
  })

  it('refuses, in words, what is not a photo, what is too large, and what is gone', async () => {
    await expect(readPhotoPreview(file('holiday.jpg', Buffer.from('<html>not a photo</html>')))).rejects.toMatchObject({
      code: 'invalid-argument',
      message: '“holiday.jpg” is not a photo Blogdesk can read: it takes JPEG, PNG, GIF, WebP, HEIC or AVIF images.',
    })
    await expect(readPhotoPreview(demoPhoto, { maxBytes: 10_000 })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringMatching(/^“tagus-sunset\.jpg” is 23 KB; Blogdesk takes files up to 10 KB\. Export a smaller version and use that\.$/),
    })
    await expect(readPhotoPreview(join(dir, 'gone.jpg'))).rejects.toMatchObject({ code: 'not-found' })
  })
})
