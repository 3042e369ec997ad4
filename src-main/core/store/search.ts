// Search across an account's drafts and the posts last read from its weblogs: SQLite FTS5 over `search_documents`
// (migration 10). Drafts are indexed by triggers as they are written; posts as their feed pages are cached. A person's
// words are never FTS syntax: each becomes a quoted phrase, all must match, and the last one matches as a prefix
// while it is being typed.
import type { RemotePost } from '../atom'
import type { LocalStore } from './database'

/** Marks the start and end of a matched word in `title` and `snippet` (control characters never indexed). */
export const MATCH_START = '\u0002'
export const MATCH_END = '\u0003'

/** Words of context around the best match in a result's text. */
const SNIPPET_WORDS = 24
/** Words shown before the first match in a snippet. */
const SNIPPET_LEAD_WORDS = 6
/** The most matching documents ranked by relevance; see `find`. */
const RANKED = 1_000
/** How much more a word in the title counts than one in the text. */
const TITLE_WEIGHT = 4.0

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
 * the last one a prefix (from its second letter) unless the person has typed past it. Null when nothing in it can match a word.
 */
export function matchQueryOf(typed: string): string | null {
  const words = typed.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word))
  if (words.length === 0) return null
  const last = words.at(-1)!
  // A single letter as a prefix would match most of the index: it waits for a second.
  const asPrefix = !/\s$/u.test(typed) && [...last.matchAll(/[\p{L}\p{N}]/gu)].length >= 2
  return words.map((word, index) => `"${word.replaceAll('"', '""')}"${asPrefix && index === words.length - 1 ? '*' : ''}`).join(' ')
}

export class Search {
  readonly #store: LocalStore

  constructor(store: LocalStore) {
    this.#store = store
  }

  /**
   * The account's drafts and cached posts matching `typed`, best first. A post that has a local draft is found as
   * that draft (its text is what the person would open), and drafts in the Trash or being deleted are not found.
   * Ranking (bm25, a title match counting more) costs per matching document, so when more than RANKED match, the
   * best of the RANKED most recently written or read are answered, and `more` says there are others.
   */
  find(accountId: string, typed: string, limit: number): SearchResult {
    const query = matchQueryOf(typed)
    if (query === null) return { documents: [], more: false }
    this.#catchUp()
    // The candidates carry only a rank; the texts are read for the few answered.
    const rows = this.#store.all(
      `SELECT doc.kind, doc.weblog_post_uri, doc.draft_id, doc.edit_uri, doc.at, doc.title, doc.body, d.state FROM (
         SELECT search_index.rowid AS id, bm25(search_index, ${TITLE_WEIGHT}, 1.0) AS score
         FROM search_index JOIN search_documents candidate ON candidate.id = search_index.rowid
         WHERE search_index MATCH :query AND candidate.account_id = :accountId
           AND (candidate.kind = 'draft' OR NOT EXISTS (
             SELECT 1 FROM drafts local WHERE local.account_id = candidate.account_id AND local.remote_edit_uri = candidate.edit_uri))
         ORDER BY search_index.rowid DESC LIMIT :ranked) ranked
       JOIN search_documents doc ON doc.id = ranked.id
       LEFT JOIN drafts d ON d.id = doc.draft_id
       ORDER BY ranked.score LIMIT :limit`,
      { query, accountId, ranked: RANKED, limit: limit + 1 },
    )
    // Marked here rather than by FTS5's highlight() and snippet(), which evaluate the query again for each row.
    const matches = matcherOf(typed)
    const documents = rows.slice(0, limit).map(
      (row): SearchDocument => ({
        kind: row['kind'] === 'post' || row['edit_uri'] !== null ? 'post' : 'draft',
        accountId,
        weblogPostUri: String(row['weblog_post_uri']),
        draftId: row['draft_id'] === null ? null : String(row['draft_id']),
        editUri: row['edit_uri'] === null ? null : String(row['edit_uri']),
        state: row['state'] === null ? null : String(row['state']),
        title: marked(String(row['title']), matches),
        snippet: snippetOf(String(row['body']), matches),
        at: row['at'] === null ? null : String(row['at']),
      }),
    )
    return { documents, more: rows.length > limit }
  }

  /** Indexes again the drafts written since the last search (a save only marks them). */
  #catchUp(): void {
    this.#store.transaction(() => {
      this.#store.run('DELETE FROM search_documents WHERE draft_id IN (SELECT draft_id FROM search_stale)')
      this.#store.run(
        `INSERT INTO search_documents (account_id, kind, weblog_post_uri, draft_id, edit_uri, title, body, at)
         SELECT account_id, 'draft', weblog_post_uri, id, remote_edit_uri, title, plain_text(content), updated_at
         FROM drafts WHERE id IN (SELECT draft_id FROM search_stale) AND trashed_at IS NULL AND state NOT IN ('deleting', 'deleted')`,
      )
      this.#store.run('DELETE FROM search_stale')
    })
  }
}

/** A word as unicode61 with remove_diacritics compares it: without case or accents. */
function folded(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Runs of letters and digits: the words unicode61 makes of a text. */
const TOKEN = /[\p{L}\p{N}]+/gu

/** Whether a word of a text is one the query matched: any of its words whole, the last one as a prefix while typed. */
function matcherOf(typed: string): (word: string) => boolean {
  const tokens = [...typed.matchAll(TOKEN)].map(([token]) => folded(token))
  const prefix = /[\p{L}\p{N}]$/u.test(typed) && (tokens.at(-1)?.length ?? 0) >= 2 ? tokens.pop() : undefined
  const whole = new Set(tokens)
  return (word) => {
    const form = folded(word)
    return whole.has(form) || (prefix !== undefined && form.startsWith(prefix))
  }
}

/** `text` with MATCH_START and MATCH_END around each matched word. */
function marked(text: string, matches: (word: string) => boolean): string {
  return text.replace(TOKEN, (word) => (matches(word) ? `${MATCH_START}${word}${MATCH_END}` : word))
}

/** About SNIPPET_WORDS words of `body` around its first match, marked; '' when nothing in it matched. */
function snippetOf(body: string, matches: (word: string) => boolean): string {
  const words = [...body.matchAll(TOKEN)]
  const first = words.findIndex(([word]) => matches(word))
  if (first === -1) return ''
  const from = Math.max(0, first - SNIPPET_LEAD_WORDS)
  const to = Math.min(words.length, from + SNIPPET_WORDS) - 1
  const start = from === 0 ? 0 : words[from]!.index
  const end = to === words.length - 1 ? body.length : words[to]!.index + words[to]![0].length
  return `${start > 0 ? '…' : ''}${marked(body.slice(start, end), matches)}${end < body.length ? '…' : ''}`
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
