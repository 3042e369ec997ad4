// Drafts: what a person writes, kept locally from the first keystroke, with a history of revisions to go back to.
import { randomUUID } from 'node:crypto'
import type { DraftPosition } from '../../../src-shared/contract'
import { CoreError } from '../errors'
import type { RemotePost } from '../atom'
import type { LocalStore, Row } from './database'

export type DraftState = 'draft' | 'queued' | 'sending' | 'published' | 'needs-attention' | 'conflict' | 'deleting' | 'deleted'

/** Where the post lives on the server, and the version of it this draft was based on. */
export interface DraftRemote {
  editUri: string
  id: string | null
  permalink: string | null
  baseModified: string | null
  baseContentHash: string | null
}

/** The server's copy, changed by someone else since this draft's base version; kept beside ours. */
export interface DraftConflict {
  server: RemotePost
  detectedAt: string
}

export interface Draft {
  id: string
  accountId: string
  weblogPostUri: string
  title: string
  /** HTML */
  content: string
  categories: string[]
  /** The excerpt (Atom summary); empty for none. */
  summary: string
  /** The publish date the person chose (W3CDTF, UTC): back-dated or in the future; null for "when it is published". */
  issued: string | null
  /** Categories sent that the server did not keep, as its last answer showed; empty when it kept them all. */
  droppedCategories: string[]
  /** A published post's copy holds changes not yet queued (always false before it is published). */
  unpublishedChanges: boolean
  state: DraftState
  remote: DraftRemote | null
  conflict: DraftConflict | null
  lastError: string | null
  createdAt: string
  updatedAt: string
  /** When it was moved to the Trash; null while it is not there. */
  trashedAt: string | null
}

export type DraftInTrash = Draft & { trashedAt: string }

export interface NewDraft {
  accountId: string
  weblogPostUri: string
  title?: string
  content?: string
  categories?: string[]
  summary?: string
  /** A draft opened from a post already on the server starts as `published`, with its remote. */
  state?: DraftState
  remote?: DraftRemote | null
}

export interface DraftChanges {
  title?: string
  content?: string
  categories?: string[]
  summary?: string
  issued?: string | null
}

/**
 * Why a revision was made: typing; typing while the weblog's server could not be reached (the post's text then lives
 * only here); publishing; bringing back an earlier revision; the weblog's own copy (a post opened from it, or kept
 * over ours in a conflict).
 */
export type RevisionReason = 'edited' | 'offline' | 'published' | 'restored' | 'from-weblog'

/** A version of a draft's text. One revision covers a burst of saves (see `Drafts`). */
export interface Revision {
  id: number
  draftId: string
  title: string
  content: string
  categories: string[]
  /** When the first save of this revision happened. */
  startedAt: string
  /** When the last save coalesced into it happened. */
  savedAt: string
  /** The revision this one brought back, when it was made by `restore`. */
  restoredFrom: number | null
  reason: RevisionReason
}

/** How the text of a save came to be, for its revision's reason. */
export type SaveReason = Extract<RevisionReason, 'edited' | 'offline' | 'from-weblog'>

type DraftText = Pick<Draft, 'title' | 'content' | 'categories'>

/** Saves closer together than this belong to one revision, so autosaving every second does not make thousands. */
export const REVISION_PAUSE_MS = 30_000
/** …but a revision spans at most this long, so a long unbroken session still leaves points to go back to. */
export const REVISION_SPAN_MS = 5 * 60_000
/** How long a draft stays in the Trash before it is deleted for good (when the store next opens). */
export const TRASH_KEEP_MS = 30 * 24 * 60 * 60_000

const EDITABLE_STATES: ReadonlySet<DraftState> = new Set(['draft', 'queued', 'sending', 'published', 'needs-attention', 'conflict'])

export class Drafts {
  readonly #store: LocalStore
  readonly #now: () => number

  constructor(store: LocalStore, options: { now?: () => number } = {}) {
    this.#store = store
    this.#now = options.now ?? Date.now
  }

  create(input: NewDraft): Draft {
    const now = this.#timestamp()
    const id = randomUUID()
    const text = { title: input.title ?? '', content: input.content ?? '', categories: input.categories ?? [] }
    this.#store.transaction(() => {
      this.#store.run(
        `INSERT INTO drafts (id, account_id, weblog_post_uri, title, content, categories, summary, state, created_at, updated_at)
         VALUES (:id, :accountId, :weblogPostUri, :title, :content, :categories, :summary, :state, :now, :now)`,
        {
          id,
          accountId: input.accountId,
          weblogPostUri: input.weblogPostUri,
          ...text,
          categories: JSON.stringify(text.categories),
          summary: input.summary ?? '',
          state: input.state ?? 'draft',
          now,
        },
      )
      if (input.remote) this.#writeRemote(id, input.remote, now)
      this.#addRevision(id, text, now, { restoredFrom: null, reason: input.remote ? 'from-weblog' : 'edited' })
    })
    return this.#require(id)
  }

  /**
   * Saves the person's changes. A save less than REVISION_PAUSE_MS after the previous one goes into the same revision
   * (while that revision spans under REVISION_SPAN_MS); otherwise it starts a new one. Saving unchanged text does
   * nothing. `newRevision` starts one regardless: for text the person did not type (the weblog's version of a post
   * in conflict, a merge), so the text it replaces stays in the history. A save for another `reason` than the latest
   * revision's (the first made offline, the first back online) starts one too.
   */
  save(id: string, changes: DraftChanges, options: { newRevision?: boolean; reason?: SaveReason } = {}): Draft {
    const reason = options.reason ?? 'edited'
    return this.#store.transaction(() => {
      const draft = this.#require(id)
      refuseUnlessEditable(draft)
      const text = {
        title: changes.title ?? draft.title,
        content: changes.content ?? draft.content,
        categories: changes.categories ?? draft.categories,
      }
      const properties = { summary: changes.summary ?? draft.summary, issued: changes.issued === undefined ? draft.issued : changes.issued }
      const propertiesChanged = properties.summary !== draft.summary || properties.issued !== draft.issued
      if (sameText(text, draft) && !propertiesChanged) return draft
      const now = this.#timestamp()
      // The excerpt and date are properties of the post, not versions of its text: they change no revision.
      this.#store.run('UPDATE drafts SET summary = :summary, issued = :issued, updated_at = :now, unpublished_changes = remote_edit_uri IS NOT NULL WHERE id = :id', {
        id,
        ...properties,
        now,
      })
      if (sameText(text, draft)) return this.#require(id)
      this.#writeText(id, text, now)
      const latest = this.#latestRevision(id)
      if (latest && !options.newRevision && this.#continues(latest, now, reason)) {
        this.#store.run(
          'UPDATE draft_revisions SET title = :title, content = :content, categories = :categories, saved_at = :now WHERE id = :revisionId',
          { revisionId: latest.id, ...text, categories: JSON.stringify(text.categories), now },
        )
      } else {
        this.#addRevision(id, text, now, { restoredFrom: null, reason })
      }
      return this.#require(id)
    })
  }

  get(id: string): Draft | null {
    const row = this.#store.get('SELECT * FROM drafts WHERE id = :id', { id })
    return row && draftFromRow(row)
  }

  /** A weblog's drafts (or all of an account's) outside the Trash, the most recently changed first. */
  list(accountId: string, weblogPostUri?: string): Draft[] {
    return this.#store
      .all(
        `SELECT * FROM drafts
         WHERE account_id = :accountId AND (:weblogPostUri IS NULL OR weblog_post_uri = :weblogPostUri) AND trashed_at IS NULL
         ORDER BY updated_at DESC, id`,
        { accountId, weblogPostUri: weblogPostUri ?? null },
      )
      .map(draftFromRow)
  }

  /** A weblog's drafts (or all of an account's) in the Trash, the most recently trashed first. */
  trash(accountId: string, weblogPostUri?: string): DraftInTrash[] {
    return this.#store
      .all(
        `SELECT * FROM drafts
         WHERE account_id = :accountId AND (:weblogPostUri IS NULL OR weblog_post_uri = :weblogPostUri) AND trashed_at IS NOT NULL
         ORDER BY trashed_at DESC, id`,
        { accountId, weblogPostUri: weblogPostUri ?? null },
      )
      .map((row) => draftFromRow(row) as DraftInTrash)
  }

  /**
   * A page of a weblog's unpublished writing (drafts that stand for no post on the weblog yet, outside the Trash), the
   * most recently changed first: those after `after` (the last draft of the page before), and whether more follow.
   * Copies of published posts being edited are listed with their posts instead.
   */
  page(accountId: string, weblogPostUri: string, after: DraftPosition | null, size: number): { drafts: Draft[]; more: boolean } {
    const rows = this.#store.all(
      `SELECT * FROM drafts
       WHERE account_id = :accountId AND weblog_post_uri = :weblogPostUri AND state != 'deleted' AND trashed_at IS NULL
         AND remote_edit_uri IS NULL
         AND (:afterId IS NULL OR updated_at < :afterUpdatedAt OR (updated_at = :afterUpdatedAt AND id > :afterId))
       ORDER BY updated_at DESC, id LIMIT :limit`,
      { accountId, weblogPostUri, afterId: after?.id ?? null, afterUpdatedAt: after?.updatedAt ?? null, limit: size + 1 },
    )
    return { drafts: rows.slice(0, size).map(draftFromRow), more: rows.length > size }
  }

  /** The draft's revisions, newest first. */
  revisions(id: string): Revision[] {
    return this.#store
      .all('SELECT * FROM draft_revisions WHERE draft_id = :id ORDER BY id DESC', { id })
      .map(revisionFromRow)
  }

  /** One revision of the draft, text and all. */
  revision(id: string, revisionId: number): Revision {
    const row = this.#store.get('SELECT * FROM draft_revisions WHERE id = :revisionId AND draft_id = :id', { id, revisionId })
    if (!row) throw new CoreError('not-found', 'That revision is not in this draft’s history. Reopen the history and pick another.')
    return revisionFromRow(row)
  }

  /**
   * Brings back a revision's text as a new revision. The text it replaces is the latest revision's, which no save can
   * change any more (a restore stands as its own revision), so bringing that one back undoes the restore.
   */
  restore(id: string, revisionId: number): Draft {
    return this.#store.transaction(() => {
      const draft = this.#require(id)
      const row = this.#store.get('SELECT * FROM draft_revisions WHERE id = :revisionId AND draft_id = :id', { id, revisionId })
      if (!row) {
        throw new CoreError('not-found', 'That revision is not in this draft’s history. Reopen the history and pick another.')
      }
      refuseUnlessEditable(draft)
      const revision = revisionFromRow(row)
      const now = this.#timestamp()
      this.#writeText(id, revision, now)
      this.#addRevision(id, revision, now, { restoredFrom: revision.id, reason: 'restored' })
      return this.#require(id)
    })
  }

  /**
   * Marks the text as it is now as published, as its own revision, so the History shows what went to the weblog and
   * when. Publishing the same text again adds nothing.
   */
  markPublished(id: string): void {
    this.#store.transaction(() => {
      const draft = this.#require(id)
      const latest = this.#latestRevision(id)
      if (latest?.reason === 'published' && sameText(latest, draft)) return
      this.#addRevision(id, draft, this.#timestamp(), { restoredFrom: null, reason: 'published' })
    })
  }

  /**
   * Moves the draft to `state`. An error belongs to the state that reported it: it is cleared by the next move unless
   * given again. The server's copy kept by `setConflict` stays only while the state stays 'conflict'. The outbox
   * calls this at every step of every operation, so it writes without reading the draft (`get` reads it).
   */
  setState(id: string, state: DraftState, fields: { lastError?: string | null; remote?: DraftRemote } = {}): void {
    this.#store.transaction(() => {
      const now = this.#timestamp()
      const { changes } = this.#store.run(
        `UPDATE drafts SET state = :state, last_error = :lastError, updated_at = :now,
           conflict_server = CASE WHEN :state = 'conflict' THEN conflict_server END,
           conflict_detected_at = CASE WHEN :state = 'conflict' THEN conflict_detected_at END
         WHERE id = :id`,
        { id, state, lastError: fields.lastError ?? null, now },
      )
      if (changes === 0) throw notFound()
      if (fields.remote) this.#writeRemote(id, fields.remote, now)
    })
  }

  /** What is in the draft now is queued for the weblog, or is the weblog's own: nothing is left to publish until it changes. */
  clearUnpublishedChanges(id: string): void {
    this.#store.run('UPDATE drafts SET unpublished_changes = 0 WHERE id = :id', { id })
  }

  /** The categories the server did not keep of those last sent (empty: it kept them all). */
  setDroppedCategories(id: string, dropped: readonly string[]): void {
    this.#store.run('UPDATE drafts SET dropped_categories = :dropped WHERE id = :id', { id, dropped: JSON.stringify(dropped) })
  }

  /** Records where the post lives on the server and the version of it the draft now stands on. */
  setRemote(id: string, remote: DraftRemote): Draft {
    return this.#store.transaction(() => {
      this.#require(id)
      this.#writeRemote(id, remote, this.#timestamp())
      return this.#require(id)
    })
  }

  /** The server's copy changed since our base version: keep it beside ours and wait for the person. */
  setConflict(id: string, server: RemotePost): Draft {
    return this.#store.transaction(() => {
      this.#require(id)
      const now = this.#timestamp()
      this.#store.run(
        `UPDATE drafts SET state = 'conflict', conflict_server = :server, conflict_detected_at = :now, last_error = NULL,
           updated_at = :now WHERE id = :id`,
        { id, server: JSON.stringify(server), now },
      )
      return this.#require(id)
    })
  }

  /** Moves the draft to the Trash, its text and history kept, until it is restored or TRASH_KEEP_MS have passed. */
  moveToTrash(id: string): Draft {
    return this.#store.transaction(() => {
      this.#require(id)
      this.#store.run('UPDATE drafts SET trashed_at = :now WHERE id = :id AND trashed_at IS NULL', { id, now: this.#timestamp() })
      return this.#require(id)
    })
  }

  /** Brings the draft back from the Trash, as its latest change, so it comes first in its list. */
  restoreFromTrash(id: string): Draft {
    return this.#store.transaction(() => {
      this.#requireTrashed(id)
      this.#store.run('UPDATE drafts SET trashed_at = NULL, updated_at = :now WHERE id = :id', { id, now: this.#timestamp() })
      return this.#require(id)
    })
  }

  /** Deletes for good the drafts in the Trash for longer than TRASH_KEEP_MS; answers how many. */
  purgeTrash(): number {
    const cutoff = new Date(this.#now() - TRASH_KEEP_MS).toISOString()
    return this.#store.run('DELETE FROM drafts WHERE trashed_at IS NOT NULL AND trashed_at < :cutoff', { cutoff }).changes
  }

  /** Deletes for good every draft in the weblog's Trash; answers how many. */
  emptyTrash(accountId: string, weblogPostUri: string): number {
    return this.#store.run(
      'DELETE FROM drafts WHERE account_id = :accountId AND weblog_post_uri = :weblogPostUri AND trashed_at IS NOT NULL',
      { accountId, weblogPostUri },
    ).changes
  }

  /**
   * Forgets a draft in the Trash and its history, for good. Only one outside the Trash could be in the outbox (whose
   * rows refer to their draft), and deleting it so could not be undone.
   */
  deleteFromTrash(id: string): void {
    this.#store.transaction(() => {
      this.#requireTrashed(id)
      this.#store.run('DELETE FROM drafts WHERE id = :id', { id })
    })
  }

  #require(id: string): Draft {
    const draft = this.get(id)
    if (!draft) throw notFound()
    return draft
  }

  #requireTrashed(id: string): Draft {
    const draft = this.#require(id)
    if (draft.trashedAt === null) {
      throw new CoreError('rejected', `“${titleOf(draft)}” is not in the Trash; it may have been restored already.`)
    }
    return draft
  }

  #writeText(id: string, text: DraftText, now: string): void {
    this.#store.run(
      `UPDATE drafts SET title = :title, content = :content, categories = :categories, updated_at = :now,
         unpublished_changes = remote_edit_uri IS NOT NULL WHERE id = :id`,
      { id, title: text.title, content: text.content, categories: JSON.stringify(text.categories), now },
    )
  }

  #writeRemote(id: string, remote: DraftRemote, now: string): void {
    this.#store.run(
      `UPDATE drafts SET remote_edit_uri = :editUri, remote_id = :remoteId, remote_permalink = :permalink,
         remote_base_modified = :baseModified, remote_base_content_hash = :baseContentHash, updated_at = :now
       WHERE id = :id`,
      {
        id,
        editUri: remote.editUri,
        remoteId: remote.id,
        permalink: remote.permalink,
        baseModified: remote.baseModified,
        baseContentHash: remote.baseContentHash,
        now,
      },
    )
  }

  #addRevision(draftId: string, text: DraftText, now: string, made: Pick<Revision, 'restoredFrom' | 'reason'>): void {
    this.#store.run(
      `INSERT INTO draft_revisions (draft_id, title, content, categories, started_at, saved_at, restored_from, reason)
       VALUES (:draftId, :title, :content, :categories, :now, :now, :restoredFrom, :reason)`,
      { draftId, title: text.title, content: text.content, categories: JSON.stringify(text.categories), now, ...made },
    )
  }

  #latestRevision(id: string): Revision | null {
    const row = this.#store.get('SELECT * FROM draft_revisions WHERE draft_id = :id ORDER BY id DESC LIMIT 1', { id })
    return row && revisionFromRow(row)
  }

  /**
   * Whether a save at `now` for `reason` belongs to `latest`. Only typing continues a revision: a restore, a publish
   * or the weblog's copy stands as its own, and what follows starts anew.
   */
  #continues(latest: Revision, now: string, reason: SaveReason): boolean {
    const at = Date.parse(now)
    return (
      latest.reason === reason &&
      (reason === 'edited' || reason === 'offline') &&
      at - Date.parse(latest.savedAt) < REVISION_PAUSE_MS &&
      at - Date.parse(latest.startedAt) < REVISION_SPAN_MS
    )
  }

  #timestamp(): string {
    return new Date(this.#now()).toISOString()
  }
}

function notFound(): CoreError {
  return new CoreError('not-found', 'That draft is no longer in Blogdesk; it may have been deleted.')
}

function sameText(a: DraftText, b: DraftText): boolean {
  return a.title === b.title && a.content === b.content && JSON.stringify(a.categories) === JSON.stringify(b.categories)
}

function titleOf(draft: Draft): string {
  return draft.title.trim() || 'Untitled'
}

function refuseUnlessEditable(draft: Draft): void {
  if (draft.trashedAt !== null) {
    throw new CoreError('rejected', `“${titleOf(draft)}” is in the Trash. Restore it from there to edit it.`)
  }
  if (EDITABLE_STATES.has(draft.state)) return
  const title = titleOf(draft)
  throw new CoreError(
    'rejected',
    draft.state === 'deleted'
      ? `“${title}” was deleted from the weblog, so it can no longer be edited. Copy its text into a new draft to use it again.`
      : `“${title}” is being deleted from the weblog, so it can no longer be edited.`,
  )
}

function nullableText(value: Row[string] | undefined): string | null {
  return value === null || value === undefined ? null : String(value)
}

function draftFromRow(row: Row): Draft {
  const editUri = nullableText(row['remote_edit_uri'])
  const server = nullableText(row['conflict_server'])
  return {
    id: String(row['id']),
    accountId: String(row['account_id']),
    weblogPostUri: String(row['weblog_post_uri']),
    title: String(row['title']),
    content: String(row['content']),
    categories: JSON.parse(String(row['categories'])) as string[],
    summary: String(row['summary'] ?? ''),
    issued: nullableText(row['issued']),
    droppedCategories: JSON.parse(String(row['dropped_categories'] ?? '[]')) as string[],
    unpublishedChanges: Number(row['unpublished_changes'] ?? 0) === 1,
    state: String(row['state']) as DraftState,
    remote:
      editUri === null
        ? null
        : {
            editUri,
            id: nullableText(row['remote_id']),
            permalink: nullableText(row['remote_permalink']),
            baseModified: nullableText(row['remote_base_modified']),
            baseContentHash: nullableText(row['remote_base_content_hash']),
          },
    conflict: server === null ? null : { server: JSON.parse(server) as RemotePost, detectedAt: String(row['conflict_detected_at']) },
    lastError: nullableText(row['last_error']),
    createdAt: String(row['created_at']),
    updatedAt: String(row['updated_at']),
    trashedAt: nullableText(row['trashed_at']),
  }
}

function revisionFromRow(row: Row): Revision {
  const restoredFrom = row['restored_from']
  return {
    id: Number(row['id']),
    draftId: String(row['draft_id']),
    title: String(row['title']),
    content: String(row['content']),
    categories: JSON.parse(String(row['categories'])) as string[],
    startedAt: String(row['started_at']),
    savedAt: String(row['saved_at']),
    restoredFrom: restoredFrom === null || restoredFrom === undefined ? null : Number(restoredFrom),
    reason: String(row['reason']) as RevisionReason,
  }
}
