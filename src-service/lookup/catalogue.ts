// Book catalogues behind CatalogueProvider: the local file the sandbox ships (no network at all), and any HTTP
// catalogue that answers a simple JSON document for an ISBN.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { controlCharactersIn } from '../routes/control-characters'
import { SetupError } from '../setup-error'
import type { BookDetails, CatalogueProvider } from './index'
import { parseIsbn, type Isbn } from './isbn'
import { LookupError, type SafeFetcher } from './safe-fetch'

/** resources/catalogue/books.json: real books for the sandbox, so its ISBN lookups work offline. */
export const DEFAULT_CATALOGUE_FILE = fileURLToPath(new URL('../../resources/catalogue/books.json', import.meta.url))

export interface CatalogueBook {
  isbn13: string
  isbn10: string | null
  title: string
  author: string
}

export class LocalCatalogue implements CatalogueProvider {
  readonly #byIsbn13: ReadonlyMap<string, CatalogueBook>

  constructor(books: readonly CatalogueBook[]) {
    this.#byIsbn13 = new Map(books.map((book) => [book.isbn13, book]))
  }

  /**
   * Reads a catalogue file: `{"books": [{"isbn13", "isbn10", "title", "author"}, …]}`. Throws SetupError, naming
   * the book, when the file is unreadable or an entry is wrong (a bad check digit, ISBN forms that disagree).
   */
  static fromFile(file: string): LocalCatalogue {
    let document: unknown
    try {
      document = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new SetupError(`The ISBN catalogue ${file} could not be read (${reason}). Restore it from the source tree.`)
    }
    const books = (document as { books?: unknown } | null)?.books
    if (!Array.isArray(books)) throw new SetupError(`The ISBN catalogue ${file} has no "books" list.`)
    return new LocalCatalogue(books.map((entry: unknown, index) => checkedBook(entry, `${file}, book ${index + 1}`)))
  }

  /** The book with this ISBN, or null. Synchronous, for seeding demo data inside a transaction. */
  find(isbn: Isbn): BookDetails | null {
    const book = this.#byIsbn13.get(isbn.isbn13)
    return book ? { title: book.title, author: book.author, thumbnail: null } : null
  }

  findBook(isbn: Isbn): Promise<BookDetails | null> {
    return Promise.resolve(this.find(isbn))
  }
}

function checkedBook(entry: unknown, where: string): CatalogueBook {
  const { isbn13, isbn10, title, author } = (entry ?? {}) as Record<string, unknown>
  if (typeof title !== 'string' || title.trim() === '' || typeof author !== 'string' || author.trim() === '') {
    throw new SetupError(`${where} needs a "title" and an "author".`)
  }
  const parsed = typeof isbn13 === 'string' ? parseIsbn(isbn13) : null
  if (!parsed || parsed.isbn13 !== isbn13) throw new SetupError(`${where} ("${title}") has no valid "isbn13".`)
  if ((isbn10 ?? null) !== parsed.isbn10) {
    throw new SetupError(`${where} ("${title}") gives "isbn10" ${String(isbn10)}; its ISBN-13 makes it ${parsed.isbn10}.`)
  }
  return { isbn13: parsed.isbn13, isbn10: parsed.isbn10, title, author }
}

/**
 * A catalogue reached over HTTP. `urlTemplate` is an http(s) URL in which `{isbn}` stands for the ISBN-13 (or
 * `{isbn10}` for the 10-digit form). The catalogue answers 200 with `application/json`:
 *
 *     { "title": "Weaving the Web", "author": "Tim Berners-Lee", "thumbnail": "https://…/cover.jpg" }
 *
 * `authors` (an array of names) may stand in for `author`; `thumbnail` is optional. Any other status means the
 * book is not known, and the item is stored as the client sent it.
 */
export class HttpCatalogue implements CatalogueProvider {
  readonly #urlTemplate: string
  readonly #fetcher: SafeFetcher

  constructor(urlTemplate: string, fetcher: SafeFetcher) {
    const usable = /^https?:\/\//i.test(urlTemplate) && /\{isbn(?:10)?\}/.test(urlTemplate)
    if (!usable) {
      throw new SetupError(
        `The ISBN catalogue address "${urlTemplate}" must be an http(s) URL containing {isbn} (or {isbn10}), ` +
          'e.g. https://catalogue.example/isbn/{isbn}.json.',
      )
    }
    this.#urlTemplate = urlTemplate
    this.#fetcher = fetcher
  }

  async findBook(isbn: Isbn, signal?: AbortSignal): Promise<BookDetails | null> {
    if (isbn.isbn10 === null && this.#urlTemplate.includes('{isbn10}')) return null
    const url = this.#urlTemplate.replaceAll('{isbn}', isbn.isbn13).replaceAll('{isbn10}', isbn.isbn10 ?? '')
    const { text } = await this.#fetcher.fetchText(url, ['application/json'], signal)
    let answer: unknown
    try {
      answer = JSON.parse(text)
    } catch {
      throw new LookupError(`The catalogue's answer from ${url} is not JSON.`)
    }
    const { title, author, authors, thumbnail } = (answer ?? {}) as Record<string, unknown>
    const names = typeof author === 'string' ? [author] : Array.isArray(authors) ? authors : []
    const details: BookDetails = {
      title: nonEmptyString(title),
      author: nonEmptyString(names.filter((name) => typeof name === 'string' && name.trim() !== '').join(', ')),
      thumbnail: typeof thumbnail === 'string' && isWebAddress(thumbnail) ? thumbnail : null,
    }
    return details.title === null && details.author === null ? null : details
  }
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

function isWebAddress(text: string): boolean {
  return /^https?:\/\/\S+$/i.test(text) && controlCharactersIn(text) === null
}
