// The demo user's typed lists: one of each type, a few real items each, every item with its NewAsset event.
// Books are given by ISBN only and filled from the local catalogue, as a create would fill them; people and links
// are stored as given, because seeding never sends a request off this machine.
import { LocalCatalogue, parseIsbn } from '../lookup'
import type { ItemFields, ListType, Notes, Store } from '../store'

interface DemoItem {
  fields: ItemFields
  rating?: number
  notes?: string
}

interface DemoList {
  title: string
  type: ListType
  /** Oldest first: each is added a day after the one before. */
  items: DemoItem[]
}

const DEMO_LISTS: DemoList[] = [
  {
    title: 'Heavy rotation',
    type: 'music',
    items: [
      {
        fields: { artist: 'Françoise Hardy', title: 'Tous les garçons et les filles', album: 'Tous les garçons et les filles' },
        rating: 4,
      },
      {
        fields: { artist: 'Jane Birkin & Serge Gainsbourg', title: "Je t'aime… moi non plus", album: 'Jane Birkin/Serge Gainsbourg' },
        rating: 4,
      },
      {
        fields: { artist: 'Serge Gainsbourg', title: 'Cargo culte', album: 'Histoire de Melody Nelson' },
        rating: 5,
      },
      {
        fields: { artist: 'Serge Gainsbourg', title: 'Ballade de Melody Nelson', album: 'Histoire de Melody Nelson' },
        rating: 5,
        notes: 'The song this sandbox is named after.',
      },
    ],
  },
  {
    title: 'On the desk',
    type: 'books',
    items: [
      { fields: { isbn: '0-13-110362-8' }, rating: 5, notes: 'Short, exact, and still the model of how to teach a language.' },
      { fields: { isbn: '978-0-465-02656-2' }, rating: 5 },
      { fields: { isbn: '978-0-201-83595-3' }, rating: 4, notes: 'Adding people to a late project makes it later.' },
      { fields: { isbn: '978-0-06-251587-2' }, rating: 4, notes: 'How the Web began, told by the person who began it.' },
    ],
  },
  {
    title: 'People I read',
    type: 'people',
    items: [
      {
        fields: { name: 'Aaron Swartz', homepage: 'http://www.aaronsw.com/' },
        notes: 'Helped write the RSS 1.0 specification.',
      },
      {
        fields: { name: 'Dan Brickley', homepage: 'https://danbri.org/' },
        notes: 'Co-created FOAF, the vocabulary these people lists read.',
      },
      {
        fields: { name: 'Tim Berners-Lee', homepage: 'https://www.w3.org/People/Berners-Lee/' },
        notes: 'Invented the World Wide Web.',
      },
    ],
  },
  {
    title: 'Specifications',
    type: 'links',
    items: [
      { fields: { url: 'https://www.w3.org/', title: 'World Wide Web Consortium (W3C)' } },
      {
        fields: { url: 'http://xmlns.com/foaf/spec/', title: 'FOAF Vocabulary Specification' },
        notes: 'What a person item is filled from.',
      },
      {
        fields: { url: 'https://www.rfc-editor.org/rfc/rfc4151', title: "RFC 4151: The 'tag' URI Scheme" },
        notes: 'Where the ids of these items come from.',
      },
      {
        fields: { url: 'https://www.rfc-editor.org/rfc/rfc4287', title: 'RFC 4287: The Atom Syndication Format' },
        notes: 'Atom 1.0, the successor of the 0.3 drafts this service speaks.',
      },
    ],
  },
]

const DAY_MS = 24 * 60 * 60 * 1000

/** Seeds the lists, filling books from the catalogue in `catalogueFile`; call it inside the transaction that creates the demo user. */
export async function seedDemoLists(store: Store, userId: number, catalogueFile: string, now = new Date()): Promise<void> {
  const catalogue = LocalCatalogue.fromFile(catalogueFile)
  const created = w3c(now)
  for (const demo of DEMO_LISTS) {
    const list = await store.lists.add({ ownerId: userId, title: demo.title, type: demo.type })
    for (const [index, demoItem] of demo.items.entries()) {
      const issued = w3c(new Date(now.getTime() - (demo.items.length - index) * DAY_MS))
      const notes: Notes | null = demoItem.notes === undefined ? null : { format: 'text', value: demoItem.notes }
      const fields = demo.type === 'books' ? fromCatalogue(catalogue, demoItem.fields) : demoItem.fields
      const item = await store.lists.addItem({ listId: list.id, fields, rating: demoItem.rating ?? null, notes, issued }, created)
      await store.events.record({ actorId: userId, verb: 'NewAsset', objectType: 'ListItem', objectId: item.id, published: issued })
    }
  }
}

function fromCatalogue(catalogue: LocalCatalogue, fields: ItemFields): ItemFields {
  const isbn = fields.isbn === undefined ? null : parseIsbn(fields.isbn)
  const book = isbn === null ? null : catalogue.find(isbn)
  if (!book) throw new Error(`The demo book ${fields.isbn ?? '(no ISBN)'} is not in the local catalogue`)
  return { ...fields, title: book.title ?? undefined, author: book.author ?? undefined }
}

function w3c(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
