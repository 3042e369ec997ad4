import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SetupError } from '../setup-error'
import { DEFAULT_CATALOGUE_FILE, LocalCatalogue } from './catalogue'
import { parseIsbn } from './isbn'

describe('parseIsbn', () => {
  it('reads an ISBN-10 with hyphens or spaces, and gives its ISBN-13', () => {
    expect(parseIsbn('0-13-110362-8')).toEqual({ isbn13: '9780131103627', isbn10: '0131103628' })
    expect(parseIsbn(' 0 262 51087 1 ')).toEqual({ isbn13: '9780262510875', isbn10: '0262510871' })
  })

  it('reads an ISBN-10 whose check digit is X, in either case', () => {
    expect(parseIsbn('0-201-61622-X')).toEqual({ isbn13: '9780201616224', isbn10: '020161622X' })
    expect(parseIsbn('020161622x')?.isbn10).toBe('020161622X')
  })

  it('reads an ISBN-13 and gives its ISBN-10 when it has one', () => {
    expect(parseIsbn('978-0-06-251587-2')).toEqual({ isbn13: '9780062515872', isbn10: '006251587X' })
    expect(parseIsbn('979-10-90636-07-1')).toEqual({ isbn13: '9791090636071', isbn10: null })
  })

  it('refuses wrong check digits, wrong lengths, other prefixes and stray characters', () => {
    for (const text of ['0-13-110362-7', '9780131103628', '013110362', '97801311036271', '1234567890123', '0-13-11O362-8', '', 'X131103628']) {
      expect(parseIsbn(text)).toBeNull()
    }
  })
})

describe('LocalCatalogue', () => {
  it('finds a shipped book by its ISBN-10 or ISBN-13, and nothing for an unknown one', () => {
    const catalogue = LocalCatalogue.fromFile(DEFAULT_CATALOGUE_FILE)
    expect(catalogue.find(parseIsbn('0-13-110362-8')!)).toEqual({
      title: 'The C Programming Language, Second Edition',
      author: 'Brian W. Kernighan, Dennis M. Ritchie',
      thumbnail: null,
    })
    expect(catalogue.find(parseIsbn('9780131103627')!)?.title).toBe('The C Programming Language, Second Edition')
    expect(catalogue.find(parseIsbn('0000000000')!)).toBeNull()
  })

  it('refuses a catalogue file with a wrong ISBN, naming the book', () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogdesk-catalogue-'))
    try {
      const file = join(dir, 'books.json')
      const book = { isbn13: '9780131103627', isbn10: '0131103628', title: 'K&R', author: 'K, R' }
      writeFileSync(file, JSON.stringify({ books: [book, { ...book, isbn13: '9780131103628', title: 'Typo' }] }))
      expect(() => LocalCatalogue.fromFile(file)).toThrow(SetupError)
      expect(() => LocalCatalogue.fromFile(file)).toThrow(/book 2 \("Typo"\) has no valid "isbn13"/)
      writeFileSync(file, JSON.stringify({ books: [{ ...book, isbn10: '0131103629' }] }))
      expect(() => LocalCatalogue.fromFile(file)).toThrow(/its ISBN-13 makes it 0131103628/)
      expect(() => LocalCatalogue.fromFile(join(dir, 'missing.json'))).toThrow(/could not be read/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
