import { describe, expect, it } from 'vitest'
import { sniffImageType } from './sniff'

/** An ISO media file's opening `ftyp` box with these brands (major first). */
function ftyp(...brands: string[]): Uint8Array {
  const size = 8 + 4 * (brands.length + 1)
  const box = Buffer.alloc(size)
  box.writeUInt32BE(size, 0)
  box.write('ftyp', 4, 'latin1')
  box.write(brands[0]!, 8, 'latin1') // major brand, then minor version 0
  brands.slice(1).forEach((brand, index) => box.write(brand, 16 + 4 * index, 'latin1'))
  return box
}

describe('sniffImageType', () => {
  it.each([
    ['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), 'image/jpeg'],
    ['a PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'image/png'],
    ['a GIF89a', Buffer.from('GIF89a\x10\x00'), 'image/gif'],
    ['a GIF87a', Buffer.from('GIF87a\x10\x00'), 'image/gif'],
    ['a WebP', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]), 'image/webp'],
    ['an iPhone HEIC', ftyp('heic', 'mif1', 'heic'), 'image/heic'],
    ['a HEIF naming HEVC among its brands', ftyp('mif1', 'miaf', 'heic'), 'image/heic'],
    ['an AVIF', ftyp('avif', 'mif1', 'miaf'), 'image/avif'],
    ['an AVIF under a generic major brand', ftyp('mif1', 'avif', 'miaf'), 'image/avif'],
  ])('knows %s by its first bytes', (_name, bytes, type) => {
    expect(sniffImageType(bytes)).toBe(type)
  })

  it.each([
    ['an MP4 video', ftyp('isom', 'iso2', 'mp41')],
    ['a PDF', Buffer.from('%PDF-1.7')],
    ['a RIFF that is not WebP', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')])],
    ['text', Buffer.from('just some words')],
    ['nothing', new Uint8Array(0)],
  ])('takes %s for no image', (_name, bytes) => {
    expect(sniffImageType(bytes)).toBeNull()
  })
})
