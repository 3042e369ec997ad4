import { describe, expect, it } from 'vitest'
import { fileNameFromTitle, fileNameProblem, firstFreeName } from './file-names'
import { sniffImageType } from './image-types'

describe('file names', () => {
  it('accepts plain names, including any script and spaces', () => {
    for (const name of ['photo.jpg', 'Ünïcödé nàme.png', '写真.jpeg', 'README', 'a.b.c.tar.gz']) {
      expect(fileNameProblem(name), name).toBeNull()
    }
  })

  it('refuses folders, "..", control and invisible characters, hidden and empty names, saying why', () => {
    expect(fileNameProblem('')).toMatch(/empty/)
    expect(fileNameProblem('a/b.jpg')).toMatch(/slash/)
    expect(fileNameProblem('a\\b.jpg')).toMatch(/slash/)
    expect(fileNameProblem('..')).toMatch(/"\.\."/)
    expect(fileNameProblem('x..jpg')).toMatch(/"\.\."/)
    expect(fileNameProblem('a\u0000b')).toMatch(/control or invisible/)
    expect(fileNameProblem('a\tb.png')).toMatch(/control or invisible/)
    expect(fileNameProblem('a\u0085b.png')).toMatch(/control or invisible/)
    expect(fileNameProblem('photo\u202egpj.exe')).toMatch(/control or invisible/)
    expect(fileNameProblem('.htaccess')).toMatch(/starts with a dot/)
    expect(fileNameProblem(`${'x'.repeat(201)}.jpg`)).toMatch(/longer than 200/)
  })

  it('de-duplicates with _1, _2 … before the extension', async () => {
    const taken = new Set(['dot.gif', 'dot_1.gif', 'README', 'archive.tar.gz'])
    const free = (name: string) => firstFreeName(name, async (candidate) => taken.has(candidate))
    expect(await free('new.gif')).toBe('new.gif')
    expect(await free('dot.gif')).toBe('dot_2.gif')
    expect(await free('README')).toBe('README_1')
    expect(await free('archive.tar.gz')).toBe('archive.tar_1.gz')
  })

  it("derives a photo's file name from its title and type", () => {
    expect(fileNameFromTitle('Tram 28 at Graça', '.jpg')).toBe('tram-28-at-graca.jpg')
    expect(fileNameFromTitle('me.jpg', '.jpg')).toBe('me.jpg')
    expect(fileNameFromTitle('Holiday.JPEG', '.jpg')).toBe('holiday.jpg')
    expect(fileNameFromTitle('notes.txt', '.png')).toBe('notes-txt.png')
    expect(fileNameFromTitle('写真', '.png')).toBe('photo.png')
    expect(fileNameFromTitle(`  ${'Long '.repeat(40)}`, '.gif')).toMatch(/^long-long.*[a-z]\.gif$/)
  })
})

describe('sniffImageType', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))))
  const ftyp = (major: string, ...compatible: string[]) =>
    bytes([0, 0, 0, 16 + 4 * compatible.length], 'ftyp', major, [0, 0, 0, 0], ...compatible)

  it('tells formats by their first bytes', () => {
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0]))?.mediaType).toBe('image/jpeg')
    expect(sniffImageType(bytes('\x89PNG\r\n\x1a\n'))?.mediaType).toBe('image/png')
    expect(sniffImageType(bytes('GIF89a'))?.mediaType).toBe('image/gif')
    expect(sniffImageType(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))?.mediaType).toBe('image/webp')
    expect(sniffImageType(ftyp('avif', 'mif1'))?.mediaType).toBe('image/avif')
    expect(sniffImageType(ftyp('mif1', 'heic'))).toMatchObject({ mediaType: 'image/heic', readable: false })
    expect(sniffImageType(ftyp('isom', 'mp41'))).toBeNull()
    expect(sniffImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull()
    expect(sniffImageType(bytes([0xff, 0xd8]))).toBeNull()
  })
})
