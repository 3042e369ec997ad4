import { useState } from 'react'
import type { DraftSummary } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { openInBrowser } from '../../lib/links'
import { Alert, Button, ErrorNotice } from '../../ui'
import { formatExact } from './time'

export interface PublishStatusProps {
  draft: DraftSummary
  /** Publishing could not even be queued (the draft could not be saved, or the main process refused). */
  publishError: ApiError | null
  onPublish(): void
}

/** Where the post stands on its way to the weblog, in words, with what the person can do about it. */
export function PublishStatus({ draft, publishError, onPublish }: PublishStatusProps) {
  const [linkError, setLinkError] = useState<ApiError | null>(null)
  const openPermalink = (url: string) => {
    setLinkError(null)
    openInBrowser(url).catch((error: unknown) => setLinkError(toApiError(error)))
  }

  if (publishError) return <ErrorNotice error={publishError} onRetry={onPublish} className="publish-status" />

  switch (draft.state) {
    case 'queued':
      if (draft.heldOnThisComputer) {
        return (
          <div className="publish-status publish-status--waiting" role="status">
            <p className="publish-status__title">Scheduled</p>
            <p className="publish-status__message">{draft.lastError}</p>
          </div>
        )
      }
      return (
        <div className="publish-status publish-status--waiting" role="status">
          <p className="publish-status__title">{draft.live ? 'Update queued' : 'Queued to publish'}</p>
          <p className="publish-status__message">
            {draft.lastError
              ? `${draft.lastError} Blogdesk keeps trying; the post goes out as soon as the weblog can be reached.`
              : 'It will be sent to the weblog as soon as it can be reached. You can keep writing or close Blogdesk; it stays queued.'}
          </p>
        </div>
      )
    case 'sending':
      return (
        <div className="publish-status publish-status--waiting" role="status">
          <p className="publish-status__title">{draft.live ? 'Sending the update to the weblog…' : 'Sending to the weblog…'}</p>
        </div>
      )
    case 'published':
      return (
        <div className="publish-status publish-status--done" role="status">
          <p className="publish-status__title">
            {draft.scheduledFor ? `Scheduled on the weblog for ${formatExact(draft.scheduledFor)}` : draft.unpublishedChanges ? 'Published — your changes are not on the weblog yet' : 'Published'}
          </p>
          {draft.permalink && (
            <Button variant="quiet" className="publish-status__link" onClick={() => openPermalink(draft.permalink!)}>
              View on the weblog ↗
            </Button>
          )}
          {linkError && <ErrorNotice error={linkError} />}
        </div>
      )
    case 'needs-attention':
      return (
        <Alert
          tone="error"
          title="Publishing needs your attention"
          className="publish-status"
          actions={<Button onClick={onPublish}>Publish again</Button>}
        >
          <p>{draft.lastError ?? 'The weblog refused the post.'}</p>
          <p>Change what it says is wrong, then publish again; or discard the change in the outbox to keep this as a draft.</p>
        </Alert>
      )
    case 'deleting':
      return (
        <div className="publish-status publish-status--waiting" role="status">
          <p className="publish-status__title">Being deleted from the weblog</p>
          <p className="publish-status__message">It goes as soon as the weblog can be reached. It can no longer be edited.</p>
        </div>
      )
    case 'deleted':
      return (
        <div className="publish-status" role="status">
          <p className="publish-status__title">Deleted from the weblog</p>
          <p className="publish-status__message">Copy its text into a new post to use it again.</p>
        </div>
      )
    case 'draft':
    case 'conflict':
      return null
  }
}
