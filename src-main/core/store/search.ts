// Search across an account's drafts and the posts last read from its weblogs: SQLite FTS5 over `search_documents`
// (migration 8). Drafts are indexed by triggers as they are written; posts as their feed pages are cached. A person's
// words are never FTS syntax: each becomes a quoted phrase, all must match, and the last one matches as a prefix
// while it is being typed.
import type { RemotePost } from '../atom'
import type { LocalStore } from './database'

/** Marks the start and end of a matched word in `title` and `snippet` (control characters never indexed). */
export const MATCH_START = '\u0002'
export const MATCH_END = '\u0003'

/** Words of context around the best match in a result's text. */
const SNIPPET_WORDS = 24

export interface SearchDocument {
  kind: 'draft' | 'post'
  accountId: string
  weblogPostUri: string
  /** The draft found, or the local draft of the post found; null for a post not opened here. */
  draftId: string | null
  editUri: string | null
  /** The draft's state; null for a post. */
  state: string | null
  /** With MATCH_START/MATCH_END around each matched word. */
  title: string
  /** The part of the text around the best match, marked the same way; '' when only the title matched. */
  snippet: string
  /** A draft's last change, a post's issued date. */
  at: string | null
}

export interface SearchResult {
  documents: SearchDocument[]
  /** Whether more matched than were answered. */
  more: boolean
}

/**
 * The FTS5 query for what a person typed: each word a quoted phrase (FTS syntax in it is only text), all required,
 * the last one a prefix unless the person has typed past it. Null when nothing in it can match a word.
 */
export function matchQueryOf(typed: string): string | null {
  const words = typed.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word))
  if (words.length === 0) return null
  const stillTyping = !/\s$/u.test(typed)
  return words
    .map((word, index) => `"${word.replaceAll('"', '""')}"${stillTyping && index === words.length - 1 ? '*' : ''}`)
    .join(' ')
}

export class Search {
  readonly #store: LocalStore

  constructor(store: LocalStore) {
    this.#store = store
  }

  /**
   * The account's drafts and cached posts matching `typed`, best first. A post that has a local draft is found as
   * that draft (its text is what the person would open), and drafts in the Trash or being deleted are not found.
   */
  find(accountId: string, typed: string, limit: number): SearchResult {
    const query = matchQueryOf(typed)
    if (query === null) return { documents: [], more: false }
    // The best rows are chosen first and only they are given snippets: a snippet costs far more than a rank.
    const rows = this.#store.all(
      `SELECT doc.kind, doc.weblog_post_uri, doc.draft_id, doc.edit_uri, doc.at, d.state,
         highlight(search_index, 0, :start, :end) AS title,
         snippet(search_index, 1, :start, :end, '…', :words) AS snippet
       FROM search_index
       JOIN search_documents doc ON doc.id = search_index.rowid
       LEFT JOIN drafts d ON d.id = doc.draft_id
       WHERE search_index MATCH :query AND search_index.rowid IN (
         SELECT ranked.rowid FROM search_index ranked
         JOIN search_documents candidate ON candidate.id = ranked.rowid
         WHERE ranked.search_index MATCH :query AND candidate.account_id = :accountId
           AND (candidate.kind = 'draft' OR NOT EXISTS (
             SELECT 1 FROM drafts local
             WHERE local.account_id = candidate.account_id AND local.remote_edit_uri = candidate.edit_uri))
         ORDER BY ranked.rank LIMIT :limit)
       ORDER BY search_index.rank`,
      { query, accountId, start: MATCH_START, end: MATCH_END, words: SNIPPET_WORDS, limit: limit + 1 },
    )
    const documents = rows.slice(0, limit).map(
      (row): SearchDocument => ({
        kind: row['kind'] === 'post' || row['edit_uri'] !== null ? 'post' : 'draft',
        accountId,
        weblogPostUri: String(row['weblog_post_uri']),
        draftId: row['draft_id'] === null ? null : String(row['draft_id']),
        editUri: row['edit_uri'] === null ? null : String(row['edit_uri']),
        state: row['state'] === null ? null : String(row['state']),
        title: String(row['title']),
        snippet: String(row['snippet']).includes(MATCH_START) ? String(row['snippet']) : '',
        at: row['at'] === null ? null : String(row['at']),
      }),
    )
    return { documents, more: rows.length > limit }
  }
}

/**
 * Makes the posts of a feed page, as just read, what search finds of that page: those no longer on it are forgotten
 * there, and a post read on another page before now belongs to this one. Run inside the transaction that caches it.
 */
export function indexFeedPage(
  store: LocalStore,
  page: { accountId: string; weblogPostUri: string; pageUri: string; posts: readonly RemotePost[] },
): void {
  const { accountId, weblogPostUri, pageUri } = page
  store.run("DELETE FROM search_documents WHERE kind = 'post' AND account_id = :accountId AND page_uri = :pageUri", { accountId, pageUri })
  for (const post of page.posts) {
    store.run("DELETE FROM search_documents WHERE kind = 'post' AND account_id = :accountId AND edit_uri = :editUri", {
      accountId,
      editUri: post.editUri,
    })
    store.run(
      `INSERT INTO search_documents (account_id, kind, weblog_post_uri, edit_uri, page_uri, title, body, at)
       VALUES (:accountId, 'post', :weblogPostUri, :editUri, :pageUri, :title, plain_text(:content), :issued)`,
      { accountId, weblogPostUri, editUri: post.editUri, pageUri, title: post.title, content: post.content, issued: post.issued },
    )
  }
}
