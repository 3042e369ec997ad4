// Filling in a new list item (spec §2.7): from a book's ISBN, a person's homepage (or FOAF file), a link's URL.
// What the client sent always wins; lookups only fill what it left out. A lookup that fails, is refused or runs out
// of time changes nothing: the item is stored as sent, and the reason goes to the debug log.
import type { ItemField, ItemFields, ListType } from '../store/lists'
import { debugLookup, describeError } from './debug'
import type { Lookups } from './index'
import { parseIsbn } from './isbn'

type Found = Partial<Record<ItemField, string | null>>

/** Longer values from elsewhere are dropped rather than cut: a cut URL or address would be wrong, not short. */
const MAX_FOUND_LENGTH = 2000
/** Other sites' text may carry control characters (a stray &#1;, raw bytes); no detail of an item needs them. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g

/** The item's details with the gaps filled where a lookup could; never throws. */
export async function completeItem(type: ListType, fields: ItemFields, lookups: Lookups): Promise<ItemFields> {
  const signal = AbortSignal.timeout(lookups.timeoutMs)
  try {
    return withGapsFilled(fields, await lookUp(type, fields, lookups, signal))
  } catch (error) {
    debugLookup('%s item not completed: %s', type, describeError(error))
    return fields
  }
}

async function lookUp(type: ListType, fields: ItemFields, lookups: Lookups, signal: AbortSignal): Promise<Found> {
  switch (type) {
    case 'books': {
      if (fields.isbn === undefined || !hasGaps(fields, ['title', 'author', 'thumbnail'])) return {}
      const isbn = parseIsbn(fields.isbn)
      if (isbn === null) {
        debugLookup('"%s" is not a valid ISBN-10 or ISBN-13; not looked up', fields.isbn)
        return {}
      }
      return (await lookups.books.findBook(isbn, signal)) ?? {}
    }
    case 'people': {
      const start = { homepage: fields.homepage ?? null, foafUrl: fields.foaf_url ?? null }
      if (start.homepage === null && start.foafUrl === null) return {}
      if (!hasGaps(fields, ['name', 'email', 'homepage', 'homepage_name', 'foaf_url'])) return {}
      const person = await lookups.people.findPerson(start, signal)
      return {
        name: person.name,
        email: person.email,
        homepage: person.homepage,
        homepage_name: person.homepageName,
        foaf_url: person.foafUrl,
      }
    }
    case 'links':
      if (fields.url === undefined || fields.title !== undefined) return {}
      return { title: await lookups.pages.titleOf(fields.url, signal) }
    case 'music':
      return {}
  }
}

function hasGaps(fields: ItemFields, names: readonly ItemField[]): boolean {
  return names.some((name) => fields[name] === undefined)
}

function withGapsFilled(fields: ItemFields, found: Found): ItemFields {
  const filled: ItemFields = { ...fields }
  for (const [name, value] of Object.entries(found) as [ItemField, string | null | undefined][]) {
    const found = typeof value === 'string' ? value.replace(CONTROL_CHARACTERS, '').trim() : ''
    if (filled[name] === undefined && found !== '' && found.length <= MAX_FOUND_LENGTH) filled[name] = found
  }
  return filled
}
