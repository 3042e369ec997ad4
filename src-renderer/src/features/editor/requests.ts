// The editor's calls to the main process that keep no state here: reading a draft and its history, bringing back
// an earlier version, deleting a published post, and the images put in a post. The drafts list is store.ts's; the
// Trash (where a draft never published goes when deleted), trash.ts's; the open draft's saves, session.ts's.
import type { LocalImage, PostDraft, RestoredDraft, RevisionSummary, RevisionText } from '../../../../src-shared/contract'
import { api } from '../../lib/api'

export const readDraft = (draftId: string): Promise<PostDraft> => api.drafts.get({ draftId })

export const readRevisions = (draftId: string): Promise<RevisionSummary[]> => api.drafts.revisions({ draftId })

export const readRevision = (draftId: string, revisionId: number): Promise<RevisionText> => api.drafts.revision({ draftId, revisionId })

/**
 * Makes an earlier version the draft's text (the current one stays in the history); resolves the draft as it now is,
 * with the revision that holds the text replaced, for undoing it.
 */
export const restoreRevision = (draftId: string, revisionId: number): Promise<RestoredDraft> =>
  api.drafts.restore({ draftId, revisionId })

/** Queues the deletion of a published post from the weblog. */
export const deletePublishedPost = (draftId: string): Promise<null> => api.drafts.remove({ draftId })

/** Copies a pasted, dropped or picked image into Blogdesk: from where it is on disk, or its bytes when it has no path. */
export async function importImage(file: File): Promise<LocalImage> {
  const path = api.files.pathOf(file)
  if (path) return api.media.importFile({ path })
  return api.media.importBytes({ name: file.name || 'Pasted image', type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) })
}

/** A URL showing the image saved as `blogdesk-media:<hash>`. */
export const previewUrlOf = async (hash: string): Promise<string> => (await api.media.preview({ hash })).previewUrl
