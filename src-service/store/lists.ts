// Typed lists (spec §2.7): a user's music, books, people and links. An item keeps the details its list type
// names (one JSON object, keyed by the element names of the type's namespace), an optional 1–5 rating, and notes;
// its title is never stored, always computed from those details, so it cannot disagree with them.
import { insertReturningId } from './dialect'
import type { Engine, Row } from './engine'

export type ListType = 'music' | 'books' | 'people' | 'links'

/** The details of an item of each type, by their element names in the type's namespace. */
export const ITEM_FIELDS = {
  music: ['title', 'album', 'artist', 'thumbnail'],
  books: ['isbn', 'title', 'author', 'thumbnail'],
  people: ['homepage', 'name', 'homepage_name', 'email', 'foaf_url'],
  links: ['url', 'title'],
} as const satisfies Record<ListType, readonly string[]>

export type ItemField = (typeof ITEM_FIELDS)[ListType][number]
/** Only non-empty values are kept; an absent detail is an absent key. */
export type ItemFields = Partial<Record<ItemField, string>>

export interface List {
  id: number
  ownerId: number
  title: string
  type: ListType
}

export type NewList = Omit<List, 'id'>

/** Free text about an item (a review, a one-line biography): plain text, or an XHTML fragment. */
export interface Notes {
  format: 'text' | 'xhtml'
  value: string
}

export interface NewListItem {
  listId: number
  fields: ItemFields
  rating: number | null
  notes: Notes | null
  /** When the item was added (W3CDTF, UTC). */
  issued: string
}

export interface ListItem extends NewListItem {
  id: number
  /** When the service stored it (W3CDTF, UTC). */
  created: string
}

export class Lists {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  async add(list: NewList): Promise<List> {
    const id = await insertReturningId(this.#db, 'INSERT INTO lists (owner_id, title, type) VALUES (:ownerId, :title, :type)', {
      ':ownerId': list.ownerId,
      ':title': list.title,
      ':type': list.type,
    })
    return { id, ...list }
  }

  async find(id: number): Promise<List | null> {
    const row = await this.#db.get('SELECT id, owner_id, title, type FROM lists WHERE id = :id', { ':id': id })
    return row && toList(row)
  }

  /** Oldest first, so a user's listing keeps its order as lists are added. */
  async ownedBy(userId: number): Promise<List[]> {
    const rows = await this.#db.all('SELECT id, owner_id, title, type FROM lists WHERE owner_id = :userId ORDER BY id', {
      ':userId': userId,
    })
    return rows.map(toList)
  }

  /** Stores an item; `created` (W3CDTF) is when the service received it. */
  async addItem(item: NewListItem, created: string): Promise<ListItem> {
    const id = await insertReturningId(
      this.#db,
      `INSERT INTO list_items (list_id, fields, rating, notes, notes_format, issued, created)
       VALUES (:listId, :fields, :rating, :notes, :notesFormat, :issued, :created)`,
      {
        ':listId': item.listId,
        ':fields': JSON.stringify(item.fields),
        ':rating': item.rating,
        ':notes': item.notes?.value ?? null,
        ':notesFormat': item.notes?.format ?? null,
        ':issued': item.issued,
        ':created': created,
      },
    )
    return { id, ...item, created }
  }

  async findItem(id: number): Promise<ListItem | null> {
    const row = await this.#db.get('SELECT * FROM list_items WHERE id = :id', { ':id': id })
    return row && toListItem(row)
  }

  /** A list's items, newest first (by when they were added, then by the order they were stored). */
  async itemsOf(listId: number): Promise<ListItem[]> {
    const rows = await this.#db.all('SELECT * FROM list_items WHERE list_id = :listId ORDER BY issued DESC, id DESC', {
      ':listId': listId,
    })
    return rows.map(toListItem)
  }

  /** One page of a list's items, in itemsOf's order. */
  async itemsPage(listId: number, offset: number, limit: number): Promise<ListItem[]> {
    const rows = await this.#db.all(
      'SELECT * FROM list_items WHERE list_id = :listId ORDER BY issued DESC, id DESC LIMIT :limit OFFSET :offset',
      { ':listId': listId, ':limit': limit, ':offset': offset },
    )
    return rows.map(toListItem)
  }
}

/**
 * The item's title, as the spec computes it: "Artist - Song" for music, "Author: Title" for books, the person's
 * name, the site's title; each falls back to whatever else names the item when a detail is missing.
 */
export function itemTitle(type: ListType, fields: ItemFields): string {
  switch (type) {
    case 'music':
      return joinPresent(' - ', fields.artist, fields.title ?? fields.album) ?? 'Untitled song'
    case 'books':
      return joinPresent(': ', fields.author, fields.title) ?? (fields.isbn ? `ISBN ${fields.isbn}` : 'Untitled book')
    case 'people':
      return fields.name ?? fields.homepage_name ?? fields.homepage ?? fields.foaf_url ?? 'Someone'
    case 'links':
      return fields.title ?? fields.url ?? 'Untitled link'
  }
}

function joinPresent(separator: string, ...parts: (string | undefined)[]): string | null {
  const present = parts.filter((part): part is string => part !== undefined)
  return present.length === 0 ? null : present.join(separator)
}

function toList(row: Row): List {
  return {
    id: Number(row['id']),
    ownerId: Number(row['owner_id']),
    title: String(row['title']),
    type: String(row['type']) as ListType,
  }
}

function toListItem(row: Row): ListItem {
  const notes = row['notes']
  return {
    id: Number(row['id']),
    listId: Number(row['list_id']),
    fields: JSON.parse(String(row['fields'])) as ItemFields,
    rating: row['rating'] === null ? null : Number(row['rating']),
    notes: notes === null ? null : { format: String(row['notes_format']) as Notes['format'], value: String(notes) },
    issued: String(row['issued']),
    created: String(row['created']),
  }
}
