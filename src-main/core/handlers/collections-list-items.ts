// A new list item, checked before it is queued: the outbox sends it later, perhaps offline now, and a refusal then
// would hold the list's queue until the person dealt with it. The rules are the typed lists' (spec §2.7): each
// type's elements in its own namespace, a rating only for music and books, a person's notes as a one-line biography.
import { emailAddress, NS, webAddress } from '../../../src-protocol'
import type { ListType, NewListEntry } from '../../../src-shared/contract'
import { CoreError } from '../errors'
import type { ListItemToSend } from '../atom'

interface TypeRules {
  ns: string
  /** The elements the type has, by local name. */
  fields: readonly string[]
  /** An item must name something: at least one of these. */
  identifying: readonly string[]
  /** What to give when none of them is there, in words. */
  missing: string
  rated: boolean
}

const RULES: Record<ListType, TypeRules> = {
  music: {
    ns: NS.song,
    fields: ['title', 'artist', 'album', 'thumbnail'],
    identifying: ['title', 'artist', 'album'],
    missing: 'Give the song a title, an artist or an album.',
    rated: true,
  },
  book: {
    ns: NS.book,
    fields: ['isbn', 'title', 'author', 'thumbnail'],
    identifying: ['isbn', 'title', 'author'],
    missing: 'Give the book an ISBN, a title or an author.',
    rated: true,
  },
  person: {
    ns: NS.person,
    fields: ['name', 'homepage', 'homepage_name', 'email', 'foaf_url'],
    identifying: ['name', 'homepage', 'foaf_url'],
    missing: 'Give the person a name, a homepage or the address of their FOAF file.',
    rated: false,
  },
  link: {
    ns: NS.link,
    fields: ['url', 'title'],
    identifying: ['url', 'title'],
    missing: 'Give the link an address or a title.',
    rated: false,
  },
}

/** The list type whose elements live in `ns`; null for any other namespace. */
export function listTypeOfNamespace(ns: string): ListType | null {
  return (Object.keys(RULES) as ListType[]).find((type) => RULES[type].ns === ns) ?? null
}

const WEB_ADDRESS_FIELDS: Readonly<Record<string, string>> = {
  thumbnail: 'picture address',
  homepage: 'homepage',
  foaf_url: 'FOAF address',
  url: 'address',
}

/** The item as the Atom client sends it; refuses, in words, what the server would refuse. */
export function listItemToSend(entry: NewListEntry): ListItemToSend {
  const rules = RULES[entry.listType]
  const fields: Record<string, string> = {}
  for (const [name, raw] of Object.entries(entry.fields)) {
    if (!rules.fields.includes(name)) {
      throw new CoreError('invalid-argument', `A ${entry.listType} item has no “${name}”; it has ${rules.fields.join(', ')}.`)
    }
    const value = raw.trim()
    if (value === '') continue
    fields[name] = name === 'email' ? checkedEmail(value) : name in WEB_ADDRESS_FIELDS ? checkedWebAddress(value, WEB_ADDRESS_FIELDS[name]!) : value
  }
  if (!rules.identifying.some((name) => name in fields)) throw new CoreError('invalid-argument', rules.missing)
  if (entry.rating !== null && !rules.rated) {
    throw new CoreError('invalid-argument', `A ${entry.listType} item has no rating; only music and books are rated.`)
  }
  const notes = entry.notes?.trim() ?? ''
  return {
    ns: rules.ns,
    fields,
    rating: entry.rating,
    // A person's notes are a one-line biography.
    notes: notes === '' ? null : entry.listType === 'person' ? notes.replace(/\s+/g, ' ') : notes,
  }
}

function checkedWebAddress(value: string, label: string): string {
  const address = webAddress(value)
  if (address === null) {
    throw new CoreError('invalid-argument', `The ${label} “${value}” is not a web address. Give the whole address, starting with http:// or https://.`)
  }
  return address
}

function checkedEmail(value: string): string {
  const address = emailAddress(value)
  if (address === null) throw new CoreError('invalid-argument', `“${value}” is not an email address; write it as name@example.com.`)
  return address
}
