// Between Atom entries and the posts the app works with: what the app sends (content as XHTML when it is well-formed,
// escaped HTML otherwise, as XML::Atom and our service do) and what it reads back, whatever the server sent —
// XHTML, escaped HTML or text, base64, Atom 0.3 or 1.0, dc:subject or <category term>, dates with any offset.
import {
  formatW3cDate,
  isWellFormedMarkup,
  parseW3cDate,
  type AtomContent,
  type AtomEntry,
  type AtomLink,
  type EntryToWrite,
} from '../../../src-protocol'
import { CoreError } from '../errors'

export interface RemotePost {
  /** Where the post is read, replaced and deleted (service.edit). */
  editUri: string
  id: string | null
  /** The post's public page (alternate). */
  permalink: string | null
  title: string
  /** HTML, whatever form the server sent it in. */
  content: string
  categories: string[]
  /** The excerpt (Atom summary), as text; null or absent (copies cached before it was kept) when there is none. */
  summary?: string | null
  /** W3CDTF in UTC, whatever offset the server wrote; null when it sent none (or nothing readable). */
  issued: string | null
  modified: string | null
}

export interface PostToSend {
  title: string
  /** HTML or an XHTML fragment. */
  content: string
  categories: string[]
  /** The excerpt (Atom summary); none is sent when empty or absent. */
  summary?: string | null
  /** W3CDTF with any offset; the server's own time when absent. */
  issued?: string | null
}

/** The entry for a post: XHTML content when the markup is well-formed XML, escaped HTML when it is not. */
export function entryOfPost(post: PostToSend): EntryToWrite {
  const content: AtomContent = isWellFormedMarkup(post.content)
    ? { mode: 'xml', type: 'application/xhtml+xml', value: post.content }
    : { mode: 'escaped', type: 'text/html', value: post.content }
  return {
    title: post.title,
    summary: post.summary ? post.summary : null,
    content,
    issued: post.issued == null ? null : utcDate(post.issued),
    subjects: post.categories,
  }
}

function utcDate(text: string): string {
  const date = parseW3cDate(text)
  if (date === null) {
    throw new CoreError('invalid-argument', `The post's date "${text}" is not a date and time; write it as 2024-05-06T07:08:09Z.`)
  }
  return formatW3cDate(date)
}

/** The EditURI an entry announces: service.edit (Atom 0.3), or edit (Atom 1.0, MT's /1.0 endpoint). */
export function editLinkOf(links: readonly AtomLink[]): string | null {
  return (links.find((link) => link.rel === 'service.edit') ?? links.find((link) => link.rel === 'edit'))?.href ?? null
}

/** The public page an entry announces: the HTML alternate, or any alternate. */
export function alternateOf(links: readonly AtomLink[]): string | null {
  const alternates = links.filter((link) => link.rel === 'alternate')
  return (alternates.find((link) => link.type === 'text/html') ?? alternates[0])?.href ?? null
}

/** The post an entry describes; `editUri` is where it was read from when the entry names no EditURI of its own. */
export function remotePostOf(entry: AtomEntry, editUri: string): RemotePost {
  return {
    editUri: editLinkOf(entry.links) ?? editUri,
    id: entry.id,
    permalink: alternateOf(entry.links),
    title: entry.title ?? '',
    content: contentAsHtml(entry.content),
    categories: entry.subjects,
    summary: entry.summary,
    issued: normalisedDate(entry.issued ?? entry.created),
    modified: normalisedDate(entry.modified),
  }
}

function normalisedDate(text: string | null): string | null {
  const date = text === null ? null : parseW3cDate(text)
  return date === null ? null : formatW3cDate(date)
}

const TEXT_TYPES = /^(text\/plain|text)$/i

/** Content as HTML for the editor: XHTML is HTML already, escaped HTML is taken as it is, text is escaped. */
export function contentAsHtml(content: AtomContent | null): string {
  if (content === null) return ''
  const type = content.type?.split(';', 1)[0]!.trim() ?? ''
  switch (content.mode) {
    case 'xml':
      return content.value
    case 'escaped':
      return TEXT_TYPES.test(type) ? textAsHtml(content.value) : content.value
    case 'base64': {
      const text = Buffer.from(content.value, 'base64').toString('utf8')
      return TEXT_TYPES.test(type) ? textAsHtml(text) : text
    }
  }
}

/** Plain text as HTML: characters escaped, line breaks kept. */
function textAsHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/\r\n?|\n/g, '<br />\n')
}
