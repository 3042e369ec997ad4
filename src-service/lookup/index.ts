// Lookups fill in list items from elsewhere (spec §2.7): a book's title and author from its ISBN, a person's
// details from the FOAF file their homepage points to, a site's title from its page. Each sits behind one
// interface; every one that touches the network goes through the SafeFetcher.
import { SetupError } from '../setup-error'
import { DEFAULT_CATALOGUE_FILE, HttpCatalogue, LocalCatalogue } from './catalogue'
import { FoafPersonFinder } from './foaf'
import type { Isbn } from './isbn'
import { HtmlPageTitles } from './page-title'
import { DEFAULT_TIMEOUT_MS, SafeFetcher } from './safe-fetch'

export { completeItem } from './complete-item'
export { DEFAULT_CATALOGUE_FILE, LocalCatalogue } from './catalogue'
export { parseIsbn, type Isbn } from './isbn'

export interface BookDetails {
  title: string | null
  author: string | null
  /** A cover image (http or https). */
  thumbnail: string | null
}

/** ISBN → book. */
export interface CatalogueProvider {
  /** The book, or null when the catalogue does not know it. Throws when the catalogue cannot be asked. */
  findBook(isbn: Isbn, signal?: AbortSignal): Promise<BookDetails | null>
}

export interface PersonDetails {
  name: string | null
  email: string | null
  homepage: string | null
  /** The title of the person's homepage. */
  homepageName: string | null
  foafUrl: string | null
}

/** Homepage (or FOAF file) → person. */
export interface PersonFinder {
  /**
   * What the homepage and the FOAF file say (the FOAF file is `foafUrl`, else the one the homepage points to).
   * Never throws: whatever could not be read is left null.
   */
  findPerson(start: { homepage: string | null; foafUrl: string | null }, signal?: AbortSignal): Promise<PersonDetails>
}

/** URL → the page's title. */
export interface PageTitleReader {
  /** The title, or null when the page has none. Throws when the page cannot be read. */
  titleOf(url: string, signal?: AbortSignal): Promise<string | null>
}

export interface Lookups {
  books: CatalogueProvider
  people: PersonFinder
  pages: PageTitleReader
  /** One item's lookups, all together, end after this long. */
  timeoutMs: number
}

export interface LookupOptions {
  /** No lookup goes over the network (the local catalogue still answers): for tests and offline machines. */
  offline?: boolean
  /** Hosts that may resolve to private or loopback addresses (e.g. a catalogue on the LAN). */
  allowHosts?: readonly string[]
  /** An HTTP catalogue (see HttpCatalogue) used instead of the local catalogue file. */
  isbnProviderUrl?: string | null
  /** The local catalogue; defaults to resources/catalogue/books.json. */
  catalogueFile?: string
  /** Per item; defaults to 5 s. */
  timeoutMs?: number
  /** Per fetched document; defaults to 1 MiB. */
  maxBytes?: number
}

/** The lookups a service runs with. Throws SetupError when the options cannot work (say, a bad catalogue URL). */
export function createLookups(options: LookupOptions = {}): Lookups {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (!(timeoutMs > 0) || (options.maxBytes !== undefined && !(options.maxBytes > 0))) {
    throw new SetupError('Lookup time and size limits must be positive numbers.')
  }
  const fetcher = new SafeFetcher({
    offline: options.offline,
    allowHosts: options.allowHosts ?? [],
    timeoutMs,
    maxBytes: options.maxBytes,
  })
  return {
    books: options.isbnProviderUrl
      ? new HttpCatalogue(options.isbnProviderUrl, fetcher)
      : LocalCatalogue.fromFile(options.catalogueFile ?? DEFAULT_CATALOGUE_FILE),
    people: new FoafPersonFinder(fetcher),
    pages: new HtmlPageTitles(fetcher),
    timeoutMs,
  }
}
