// Between Atom entries and posts: what a client's entry asks for (refused with a 400 that says what to fix), and
// the entry the service sends for a post (docs/PROTOCOL.md, "Atom 0.3 interface").
import {
  ATOM_MEDIA_TYPE,
  formatW3cDate,
  parseW3cDate,
  type AtomContent,
  type AtomEntry,
  type EntryToWrite,
} from '../../src-protocol'
import type { ContentKind, Post, User, Weblog } from '../store'
import { atomContentOf, contentKindOf, decodeBase64Text } from './entries'
import { HttpError } from './reply'
import { tagUri } from './tag-uri'

/** What an entry asks a post to be, before its categories are checked against the weblog's. */
export interface PostDraft {
  title: string
  content: string
  contentKind: ContentKind
  summary: string | null
  /** UTC W3CDTF, or null when the entry leaves the date to the service. */
  issued: string | null
  subjects: string[]
}

export function draftFromEntry(entry: AtomEntry): PostDraft {
  if (entry.title === null) {
    throw new HttpError(400, 'The entry has no <title>. Every post needs a title; add one and send it again.')
  }
  const title = entry.title.trim()
  if (title === '') throw new HttpError(400, "The entry's <title> is empty. Every post needs a title.")
  return {
    title,
    ...bodyOf(entry.content),
    summary: entry.summary?.trim() || null,
    issued: entry.issued === null ? null : issuedOf(entry.issued),
    subjects: entry.subjects,
  }
}

function issuedOf(text: string): string {
  const date = parseW3cDate(text)
  // An offset can carry a date at the edge of W3CDTF's four-digit years outside them in UTC.
  const year = date?.getUTCFullYear() ?? -1
  if (date === null || year < 0 || year > 9999) {
    throw new HttpError(
      400,
      `The entry's <issued> "${text.trim()}" is not a date and time. Write it as W3CDTF, ` +
        'e.g. 2004-08-06T00:43:34+01:00 or 2004-08-05T23:43:34Z.',
    )
  }
  return formatW3cDate(date)
}

function bodyOf(content: AtomContent | null): { content: string; contentKind: ContentKind } {
  if (content === null) return { content: '', contentKind: 'xhtml' }
  switch (content.mode) {
    case 'xml':
      return { content: content.value.trim(), contentKind: 'xhtml' }
    case 'escaped':
      return { content: content.value, contentKind: kindOf(content.type) }
    case 'base64': {
      // The type first: an image sent here gets sent to the UploadURI, not told it is not UTF-8.
      const contentKind = kindOf(content.type)
      return { content: base64Text(content.value), contentKind }
    }
    default:
      throw new HttpError(
        400,
        `The entry's <content> has mode "${String(content.mode)}". ` +
          'Use mode="xml" (XHTML in a div), "escaped" or "base64".',
      )
  }
}

/** Anything that is not text at all belongs on the UploadURI, not in a post. */
function kindOf(type: string | null): ContentKind {
  return contentKindOf(
    type,
    (mediaType) =>
      `A post's <content> must be text or HTML, not ${mediaType}. ` +
      "Upload files to the weblog's UploadURI (svc=upload) and link to them.",
  )
}

function base64Text(value: string): string {
  const text = decodeBase64Text(value)
  if (hasControlCharacters(text)) {
    throw new HttpError(
      400,
      "The entry's base64 <content> decodes to binary data, not text. Upload files to the UploadURI instead.",
    )
  }
  return text
}

/** Text has line breaks and tabs, but no other control characters: those mark binary data. */
function hasControlCharacters(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true
  }
  return false
}

/** The addresses of a weblog: its FeedURI (also its PostURI) and its public page; an empty origin gives paths. */
export function weblogAddresses(origin: string, weblog: Weblog): { feed: string; page: string } {
  return {
    feed: `${origin}/t/atom/weblog/blog_id=${weblog.id}`,
    page: `${origin}/blogs/${encodeURIComponent(weblog.slug)}/`,
  }
}

/** The addresses of a post: its EditURI (service.edit) and its public page (alternate). */
export function postAddresses(origin: string, weblog: Weblog, postId: number): { edit: string; alternate: string } {
  const { feed, page } = weblogAddresses(origin, weblog)
  return { edit: `${feed}/entry_id=${postId}`, alternate: `${page}${postId}` }
}

/** The entry for a post, as feeds, EditURI reads and create/update answers carry it. */
export function entryOfPost(
  post: Post,
  weblog: Weblog,
  author: Pick<User, 'displayName'>,
  origin: string,
): EntryToWrite {
  const { edit, alternate } = postAddresses(origin, weblog, post.id)
  return {
    title: post.title,
    summary: post.summary,
    content: atomContentOf(post.contentKind, post.content),
    issued: post.issued,
    modified: post.modified,
    id: tagUri(origin, post.created, 'post', post.id),
    author: { name: author.displayName, url: null, email: null },
    links: [
      { rel: 'alternate', href: alternate, type: 'text/html', title: post.title },
      { rel: 'service.edit', href: edit, type: ATOM_MEDIA_TYPE, title: post.title },
    ],
    subjects: post.categories,
  }
}

/** Ids in addresses are positive integers; anything else names nothing. */
export function idOf(text: string | undefined): number | null {
  return text !== undefined && /^[1-9]\d{0,14}$/.test(text) ? Number(text) : null
}
