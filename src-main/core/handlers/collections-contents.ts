// What an album or a list holds, as its feed lists it. Blogdesk's service offers each album and list a `service.feed`
// (an extension: docs/PROTOCOL.md, "Album and list feeds"): its photos or items, newest first, paged like a weblog's
// feed. Every page is read, following `next` on the feed's own server only (requests carry the account's password).
import { NS, type AtomEntry } from '../../../src-protocol'
import type { AlbumPhoto, ListEntry, ListType } from '../../../src-shared/contract'
import type { AtomClient } from '../atom'
import { listTypeOfNamespace } from './collections-list-items'
import { excerptOf } from './posts-text'

/** 1,000 photos or items at 20 a page: far beyond an album's, and a bound on what one look costs. */
const MAX_PAGES = 50

/** Every entry of the feed at `feedUri`, newest first, page after page. */
export async function readWholeFeed(client: AtomClient, feedUri: string): Promise<AtomEntry[]> {
  const entries: AtomEntry[] = []
  const seen = new Set<string>()
  const origin = new URL(feedUri).origin
  for (let uri: string | null = feedUri; uri !== null && seen.size < MAX_PAGES; ) {
    seen.add(uri)
    const page = await client.entriesPage(uri)
    entries.push(...page.entries)
    uri = page.next !== null && !seen.has(page.next) && new URL(page.next).origin === origin ? page.next : null
  }
  return entries
}

export function photoOfEntry(entry: AtomEntry): AlbumPhoto {
  const photo = (name: string) => extensionText(entry, NS.photo, name)
  return {
    title: entry.title?.trim() || photo('filename') || 'Untitled',
    caption: entry.summary?.trim() || null,
    url: entry.links.find((link) => link.rel === 'alternate')?.href ?? null,
    thumbnailUrl: photo('thumbnail'),
    takenAt: photo('taken'),
  }
}

/** The entries of a list's feed as items, and the type their elements tell (the first typed item's). */
export function listEntriesOf(entries: readonly AtomEntry[]): { entries: ListEntry[]; listType: ListType | null } {
  let listType: ListType | null = null
  const items = entries.map((entry): ListEntry => {
    const fields: Record<string, string> = {}
    for (const element of entry.extensions) {
      const type = listTypeOfNamespace(element.ns)
      if (type === null) continue
      listType ??= type
      fields[element.name] = element.text.trim()
    }
    const rating = Number(extensionText(entry, NS.rvw, 'value') ?? extensionText(entry, NS.rvw, 'rating'))
    return {
      title: entry.title?.trim() ?? '',
      fields,
      rating: Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : null,
      notes: extensionText(entry, NS.bio, 'olb') ?? notesOf(entry),
      issued: entry.issued,
    }
  })
  return { entries: items, listType }
}

function notesOf(entry: AtomEntry): string | null {
  const { content } = entry
  if (content === null || content.mode === 'base64') return null
  const plain = content.mode === 'escaped' && content.type?.startsWith('text/plain')
  return (plain ? content.value.trim() : excerptOf(content.value, Number.MAX_SAFE_INTEGER)) || null
}

function extensionText(entry: AtomEntry, ns: string, name: string): string | null {
  return entry.extensions.find((element) => element.ns === ns && element.name === name)?.text.trim() || null
}
