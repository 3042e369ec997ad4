// The drafts namespace: what the editor writes, kept locally from the first keystroke, its history, publishing it
// through the outbox, deleting it (to the Trash, when never published) and settling a conflict with the weblog. The media namespace (images pasted,
// dropped or picked into a post) is in media.ts.
import type { DraftSummary, PostDraft, TrashedDraft } from '../../../src-shared/contract'
import { CoreError } from '../errors'
import type { Draft, DraftInTrash } from '../store'
import { mediaHandlers } from './media'
import { postDraftOf, summaryOf } from './posts'
import { excerptOf } from './posts-text'
import type { HandlersOf, Services } from './services'

/** Drafts a page of the list holds: a screenful and more, so the window opens at once whatever the weblog holds. */
const DRAFTS_PAGE_SIZE = 50
/** A revision's line in the history panel is shorter than a draft's in the list. */
const REVISION_EXCERPT_LENGTH = 140
/** What the editor's word count counts as a word: letters and digits, joined by apostrophes or hyphens. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu

export function draftsHandlers(services: Services): HandlersOf<'drafts' | 'media'> {
  const { drafts, sync, emit, platform, reachability } = services
  /**
   * Drafts whose operation is on the wire now. The draft itself stays `queued` meanwhile (the engine spares a write
   * per request), so "Sending" is learned from the engine's changes; at start nothing is on the wire.
   */
  const sending = new Set<string>()

  const summary = (draft: Draft): DraftSummary => withSending(summaryOf(draft, sync.heldUntil(draft.id)))
  const postDraft = (draft: Draft): PostDraft => withSending(postDraftOf(draft, sync.heldUntil(draft.id)))
  function withSending<T extends DraftSummary>(view: T): T {
    return view.state === 'queued' && sending.has(view.id) ? { ...view, state: 'sending' } : view
  }

  /** A draft to open, edit or publish: one in the Trash must be restored first. */
  const requireDraft = (draftId: string): Draft => {
    const draft = drafts.get(draftId)
    if (!draft) throw new CoreError('not-found', 'That draft is no longer in Blogdesk; it may have been deleted.')
    if (draft.trashedAt !== null) {
      throw new CoreError('not-found', `“${draft.title.trim() || 'Untitled'}” is in the Trash. Restore it from there to open it.`)
    }
    return draft
  }
  const announce = (draftId: string) => {
    const draft = drafts.get(draftId)
    if (draft) emit('drafts:changed', summary(draft))
  }

  services.onClose(
    sync.on('changed', ({ operation, draftId }) => {
      if (draftId === null) return
      if (operation?.state === 'sending') sending.add(draftId)
      else sending.delete(draftId)
      announce(draftId)
    }),
  )

  /** Queues the draft's text as it is now and answers once the queue is on the disk, so "Queued" is true. */
  async function publish(draftId: string): Promise<Draft> {
    requireDraft(draftId)
    sync.publish(draftId)
    await sync.persisted()
    return requireDraft(draftId)
  }

  return {
    async 'drafts:list'({ accountId, weblogPostUri, after }) {
      const page = drafts.page(accountId, weblogPostUri, after, DRAFTS_PAGE_SIZE)
      return { drafts: page.drafts.map(summary), more: page.more }
    },

    async 'drafts:create'({ accountId, weblogPostUri }) {
      const draft = drafts.create({ accountId, weblogPostUri })
      emit('drafts:changed', summary(draft))
      return postDraft(draft)
    },

    async 'drafts:get'({ draftId }) {
      return postDraft(requireDraft(draftId))
    },

    async 'drafts:save'({ draftId, ...changes }) {
      const before = requireDraft(draftId)
      // Written where the weblog cannot be reached, the text lives only here for now: the History says so.
      const offline = !platform.connectivity.isOnline() || !reachability.isReachable(before.weblogPostUri)
      const saved = drafts.save(draftId, changes, { reason: offline ? 'offline' : 'edited' })
      if (saved.updatedAt !== before.updatedAt) emit('drafts:changed', summary(saved))
      return summary(saved)
    },

    async 'drafts:revisions'({ draftId }) {
      requireDraft(draftId)
      return drafts.revisions(draftId).map((revision) => ({
        id: revision.id,
        title: revision.title,
        excerpt: excerptOf(revision.content, REVISION_EXCERPT_LENGTH),
        words: countWords(revision.content),
        savedAt: revision.savedAt,
        reason: revision.reason,
        restoredFrom: revision.restoredFrom,
      }))
    },

    async 'drafts:revision'({ draftId, revisionId }) {
      requireDraft(draftId)
      const { id, title, content, savedAt, reason } = drafts.revision(draftId, revisionId)
      return { id, title, content, savedAt, reason }
    },

    async 'drafts:restore'({ draftId, revisionId }) {
      requireDraft(draftId)
      const [replaced] = drafts.revisions(draftId)
      const restored = drafts.restore(draftId, revisionId)
      emit('drafts:changed', summary(restored))
      return { ...postDraft(restored), replacedRevisionId: replaced!.id }
    },

    async 'drafts:publish'({ draftId }) {
      return summary(await publish(draftId))
    },

    async 'drafts:remove'({ draftId }) {
      const draft = requireDraft(draftId)
      if (draft.remote !== null) {
        if (draft.state !== 'deleting' && draft.state !== 'deleted') {
          sync.enqueueDelete(draftId)
          await sync.persisted()
        }
        return null
      }
      // Never published: what is queued of it goes (discarding its create drops the edits behind it); its text and
      // history wait in the Trash.
      const open = sync.operations(draft.accountId).filter((operation) => operation.draftId === draftId)
      if (open.some((operation) => operation.state === 'sending')) {
        throw new CoreError(
          'rejected',
          `“${draft.title.trim() || 'Untitled'}” is being sent to the weblog right now. Wait until it shows as published, then delete it.`,
        )
      }
      for (const operation of open) if (sync.operation(operation.id) !== null) sync.discard(operation.id)
      // Read again: discarding settled the draft, so the list hears of a change newer than that.
      emit('drafts:changed', { ...summary(drafts.moveToTrash(draftId)), state: 'deleted' })
      return null
    },

    async 'drafts:trash'({ accountId, weblogPostUri }) {
      return drafts.trash(accountId, weblogPostUri).map(trashedOf)
    },

    async 'drafts:untrash'({ draftId }) {
      const restored = drafts.restoreFromTrash(draftId)
      emit('drafts:changed', summary(restored))
      return postDraft(restored)
    },

    async 'drafts:deleteForever'({ draftId }) {
      drafts.deleteFromTrash(draftId)
      return null
    },

    async 'drafts:emptyTrash'({ accountId, weblogPostUri }) {
      drafts.emptyTrash(accountId, weblogPostUri)
      return null
    },

    async 'drafts:resolveConflict'({ draftId, choice, merged }) {
      const draft = requireDraft(draftId)
      if (draft.state !== 'conflict') {
        throw new CoreError(
          'rejected',
          `“${draft.title.trim() || 'Untitled'}” is no longer in conflict with the weblog. Reopen it to see where it stands.`,
        )
      }
      switch (choice) {
        case 'mine':
          return postDraft(await publish(draftId))
        case 'theirs':
          sync.keepServerCopy(draftId)
          return postDraft(requireDraft(draftId))
        case 'merged':
          if (merged === null) {
            throw new CoreError('invalid-argument', 'A merged version needs its title, text and categories; none were given.')
          }
          drafts.save(draftId, merged, { newRevision: true })
          return postDraft(await publish(draftId))
      }
    },

    ...mediaHandlers(services),
  }
}

function trashedOf(draft: DraftInTrash): TrashedDraft {
  return {
    id: draft.id,
    accountId: draft.accountId,
    weblogPostUri: draft.weblogPostUri,
    title: draft.title,
    excerpt: excerptOf(draft.content),
    trashedAt: draft.trashedAt,
  }
}

/** The words of a post's HTML, counted as the editor counts them. */
export function countWords(html: string): number {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    // Markup's own characters stand between words; any other entity is a letter (é, ß) inside one.
    .replace(/&(?:amp|lt|gt|quot|nbsp|#34|#38|#60|#62|#160);/gi, ' ')
    .replace(/&(?:apos|#39);/gi, "'")
    .replace(/&#?[a-z0-9]+;/gi, 'x')
  return text.match(WORD)?.length ?? 0
}
