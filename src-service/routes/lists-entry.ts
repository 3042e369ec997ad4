// Between Atom entries and list items (spec §2.7): which elements an entry sends for each list type (refused with a
// 400 that says what to fix), and the entry the service answers with. The Atom <title> of an item is computed from
// its details and ignored on input.
import {
  ATOM_MEDIA_TYPE,
  emailAddress,
  formatW3cDate,
  NS,
  parseW3cDate,
  type AtomContent,
  type AtomEntry,
  type EntryToWrite,
  type ExtensionElement,
  type XmlElement,
  webAddress,
} from '../../src-protocol'
import {
  ITEM_FIELDS,
  itemTitle,
  type ItemField,
  type ItemFields,
  type List,
  type ListItem,
  type ListType,
  type Notes,
} from '../store'
import { atomContentOf, contentKindOf, decodeBase64Text } from './entries'
import { controlCharactersIn } from './control-characters'
import { HttpError } from './reply'
import { tagUri } from './tag-uri'

/** Each list type's elements live in their own namespace; the prefix is only how messages name them. */
const TYPE_NAMESPACES: Record<ListType, { uri: string; prefix: string }> = {
  music: { uri: NS.song, prefix: 'song' },
  books: { uri: NS.book, prefix: 'book' },
  people: { uri: NS.person, prefix: 'person' },
  links: { uri: NS.link, prefix: 'link' },
}

/** An item must name something: at least one of these (before any lookup). */
const IDENTIFYING_FIELDS: Record<ListType, readonly ItemField[]> = {
  music: ['title', 'artist', 'album'],
  books: ['isbn', 'title', 'author'],
  people: ['name', 'homepage', 'foaf_url'],
  links: ['url', 'title'],
}

const URL_FIELDS: ReadonlySet<ItemField> = new Set(['thumbnail', 'homepage', 'foaf_url', 'url'])
/** Music and book items carry a rating; people and links do not (spec §2.7). */
const RATED_TYPES: ReadonlySet<ListType> = new Set(['music', 'books'])
const MAX_FIELD_LENGTH = 2000

/** What an entry asks an item to be, before lookups fill its gaps. */
export interface ItemDraft {
  fields: ItemFields
  rating: number | null
  notes: Notes | null
  /** UTC W3CDTF, or null when the entry leaves the date to the service. */
  issued: string | null
}

export function draftFromEntry(list: List, entry: AtomEntry): ItemDraft {
  const fields = fieldsOf(list.type, entry.extensions)
  const identifying = IDENTIFYING_FIELDS[list.type]
  if (!identifying.some((name) => fields[name] !== undefined)) {
    const { uri, prefix } = TYPE_NAMESPACES[list.type]
    const names = identifying.map((name) => `${prefix}:${name}`)
    throw new HttpError(
      400,
      `"${list.title}" is a ${list.type} list, so an item needs at least one of ${names.join(', ')} ` +
        `(in the namespace ${uri}); this entry has none. The Atom <title> does not count: the service computes it.`,
    )
  }
  return {
    fields,
    rating: RATED_TYPES.has(list.type) ? ratingOf(entry.extensions) : null,
    notes: list.type === 'people' ? biographyOf(entry.extensions) : notesOf(entry.content),
    issued: entry.issued === null ? null : issuedOf(entry.issued),
  }
}

function fieldsOf(type: ListType, extensions: XmlElement[]): ItemFields {
  const { uri, prefix } = TYPE_NAMESPACES[type]
  const fields: ItemFields = {}
  for (const name of ITEM_FIELDS[type]) {
    const value = extensions.find((element) => element.ns === uri && element.name === name)?.text.trim()
    if (!value) continue
    const label = `${prefix}:${name}`
    if (value.length > MAX_FIELD_LENGTH) {
      throw new HttpError(400, `The entry's ${label} is longer than ${MAX_FIELD_LENGTH} characters. Shorten it.`)
    }
    fields[name] = URL_FIELDS.has(name) ? checkedWebAddress(value, label) : name === 'email' ? checkedEmail(value) : value
  }
  return fields
}

function checkedWebAddress(value: string, label: string): string {
  const controls = controlCharactersIn(value)
  if (controls !== null) {
    throw new HttpError(400, `The entry's ${label} contains a control character (${controls}). Percent-encode it, or leave it out.`)
  }
  const address = webAddress(value)
  if (address === null) {
    throw new HttpError(400, `The entry's ${label} "${value}" is not a web address. Give a full http:// or https:// URL.`)
  }
  return address
}

function checkedEmail(value: string): string {
  const address = emailAddress(value)
  if (address === null) throw new HttpError(400, `The entry's person:email "${value}" is not an email address (name@example.com).`)
  return address
}

/** RVW 0.1 `value`, or RVW 0.2 `rating` (Vox and later clients); an empty element means no rating. */
function ratingOf(extensions: XmlElement[]): number | null {
  const element =
    extensions.find((candidate) => candidate.ns === NS.rvw && candidate.name === 'value') ??
    extensions.find((candidate) => candidate.ns === NS.rvw02 && candidate.name === 'rating')
  const text = element?.text.trim() ?? ''
  if (text === '') return null
  if (!/^[1-5]$/.test(text)) {
    throw new HttpError(
      400,
      `The rating rvw:${element?.name ?? 'value'} "${text}" is not allowed: a rating is a whole number from 1 to 5. Send 1, 2, 3, 4 or 5, or leave it out.`,
    )
  }
  return Number(text)
}

function biographyOf(extensions: XmlElement[]): Notes | null {
  const text = extensions.find((element) => element.ns === NS.bio && element.name === 'olb')?.text.trim()
  return text ? { format: 'text', value: text } : null
}

/** The notes an entry's <content> holds: XHTML (or HTML sent escaped) as markup, anything textual as text. */
function notesOf(content: AtomContent | null): Notes | null {
  if (content === null) return null
  let notes: Notes
  switch (content.mode) {
    case 'xml':
      notes = { format: 'xhtml', value: content.value.trim() }
      break
    case 'escaped':
      notes = { format: formatOf(content.type), value: content.value.trim() }
      break
    case 'base64':
      notes = { format: formatOf(content.type), value: decodeBase64Text(content.value).trim() }
      break
    default:
      throw new HttpError(400, `The entry's <content> has mode "${String(content.mode)}". Use mode="xml", "escaped" or "base64".`)
  }
  return notes.value === '' ? null : notes
}

/** Escaped and base64 notes are HTML unless declared as plain text, as a post's body is. */
function formatOf(type: string | null): Notes['format'] {
  return contentKindOf(type, (mediaType) => `An item's notes (<content>) must be text or HTML, not ${mediaType}.`)
}

function issuedOf(text: string): string {
  const date = parseW3cDate(text)
  if (date === null) {
    throw new HttpError(
      400,
      `The entry's <issued> "${text.trim()}" is not a date and time. Write it as W3CDTF, e.g. 2004-08-06T00:43:34+01:00 or 2004-08-05T23:43:34Z.`,
    )
  }
  return formatW3cDate(date)
}

/** The addresses of a list: its PostURI and its public page; an empty origin gives paths. */
export function listAddresses(origin: string, list: Pick<List, 'id'>): { post: string; page: string } {
  return { post: `${origin}/t/atom/lists/list_id=${list.id}`, page: `${origin}/lists/${list.id}/` }
}

/** The addresses of an item: its EditURI (service.edit, also the Location of its create) and its place on the page. */
export function itemAddresses(
  origin: string,
  list: Pick<List, 'id'>,
  itemId: number,
): { edit: string; alternate: string } {
  const { post, page } = listAddresses(origin, list)
  return { edit: `${post}/entry_id=${itemId}`, alternate: `${page}#item-${itemId}` }
}

/** The entry for an item, with its computed title, its details, rating and notes. */
export function entryOfItem(item: ListItem, list: List, origin: string): EntryToWrite {
  const title = itemTitle(list.type, item.fields)
  const { edit, alternate } = itemAddresses(origin, list, item.id)
  const { uri } = TYPE_NAMESPACES[list.type]
  const extensions: ExtensionElement[] = ITEM_FIELDS[list.type].flatMap((name) => {
    const value = item.fields[name]
    return value === undefined ? [] : [{ ns: uri, name, text: value }]
  })
  if (item.rating !== null) extensions.push({ ns: NS.rvw, name: 'value', text: String(item.rating) })
  const isPerson = list.type === 'people'
  if (isPerson && item.notes !== null) extensions.push({ ns: NS.bio, name: 'olb', text: item.notes.value })
  return {
    title,
    content: isPerson || item.notes === null ? null : atomContentOf(item.notes.format, item.notes.value),
    issued: item.issued,
    modified: item.created,
    id: tagUri(origin, item.created, 'listitem', item.id),
    links: [
      { rel: 'alternate', href: alternate, type: 'text/html', title },
      { rel: 'service.edit', href: edit, type: ATOM_MEDIA_TYPE, title },
    ],
    extensions,
  }
}
