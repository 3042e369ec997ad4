// What each kind of typed list asks for in its add form, and how its items' details read. The names are the
// elements of the type's namespace (spec §2.7); the server fills in what a lookup can find.
import type { ListType } from '../../../../src-shared/contract'

export interface FieldSpec {
  name: string
  label: string
  input: 'text' | 'url' | 'email'
  hint?: string
  placeholder?: string
}

export interface ListTypeSpec {
  /** "Music", for the type picker and headings. */
  name: string
  /** A word for the sidebar badge. */
  badge: string
  /** "song", in sentences: "Add a song". */
  item: string
  fields: FieldSpec[]
  rated: boolean
  notes: { label: string; multiline: boolean; hint?: string }
}

export const LIST_TYPE_NAMES: Record<ListType, { name: string; badge: string }> = {
  music: { name: 'Music', badge: 'Music' },
  book: { name: 'Books', badge: 'Books' },
  person: { name: 'People', badge: 'People' },
  link: { name: 'Links', badge: 'Links' },
}

export const LIST_TYPES: Record<ListType, ListTypeSpec> = {
  music: {
    ...LIST_TYPE_NAMES.music,
    item: 'song',
    fields: [
      { name: 'title', label: 'Title', input: 'text' },
      { name: 'artist', label: 'Artist', input: 'text' },
      { name: 'album', label: 'Album', input: 'text' },
    ],
    rated: true,
    notes: { label: 'Notes', multiline: true },
  },
  book: {
    ...LIST_TYPE_NAMES.book,
    item: 'book',
    fields: [
      {
        name: 'isbn',
        label: 'ISBN',
        input: 'text',
        hint: 'With an ISBN, the server looks up the title and author for you.',
        placeholder: '978-0-13-110362-7',
      },
      { name: 'title', label: 'Title', input: 'text' },
      { name: 'author', label: 'Author', input: 'text' },
    ],
    rated: true,
    notes: { label: 'Review', multiline: true },
  },
  person: {
    ...LIST_TYPE_NAMES.person,
    item: 'person',
    fields: [
      { name: 'name', label: 'Name', input: 'text' },
      {
        name: 'homepage',
        label: 'Homepage',
        input: 'url',
        hint: 'The server fills in what the homepage’s FOAF file says.',
        placeholder: 'https://',
      },
      { name: 'email', label: 'Email', input: 'email' },
      { name: 'foaf_url', label: 'FOAF file', input: 'url', placeholder: 'https://' },
    ],
    rated: false,
    notes: { label: 'One-line bio', multiline: false },
  },
  link: {
    ...LIST_TYPE_NAMES.link,
    item: 'link',
    fields: [
      { name: 'url', label: 'Address (URL)', input: 'url', hint: 'The server reads the page’s title for you.', placeholder: 'https://' },
      { name: 'title', label: 'Title', input: 'text' },
    ],
    rated: false,
    notes: { label: 'Notes', multiline: true },
  },
}

/** How an item's details read, including those only the server fills in. */
export const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  artist: 'Artist',
  album: 'Album',
  isbn: 'ISBN',
  author: 'Author',
  name: 'Name',
  homepage: 'Homepage',
  homepage_name: 'Site',
  email: 'Email',
  foaf_url: 'FOAF file',
  url: 'Address',
  thumbnail: 'Picture',
}

export const LIST_TYPE_ORDER: ListType[] = ['music', 'book', 'person', 'link']
