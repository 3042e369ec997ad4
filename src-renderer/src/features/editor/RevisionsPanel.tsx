import { useEffect, useId, useRef, useState } from 'react'
import type { RevisionSummary } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { Button, ErrorNotice, Spinner } from '../../ui'
import { readRevisions } from './requests'
import type { Loadable } from './store'
import { formatExact, formatSaved } from './time'

export interface RevisionsPanelProps {
  draftId: string
  /** Saves what is in the editor first, so the text a restore replaces is in the history too. */
  beforeLoad(): Promise<unknown>
  onRestore(revisionId: number): Promise<void>
  onClose(): void
}

/** The draft's earlier versions, newest first; any of them can be brought back (the current text stays in the list). */
export function RevisionsPanel({ draftId, beforeLoad, onRestore, onClose }: RevisionsPanelProps) {
  const [revisions, setRevisions] = useState<Loadable<RevisionSummary[]>>({ status: 'loading' })
  const [restoring, setRestoring] = useState<number | null>(null)
  const [restoreError, setRestoreError] = useState<ApiError | null>(null)
  const headingId = useId()

  const [attempt, setAttempt] = useState(0)
  const prepare = useRef(beforeLoad)
  useEffect(() => {
    prepare.current = beforeLoad
  })

  useEffect(() => {
    let current = true
    prepare
      .current()
      .then(() => readRevisions(draftId))
      .then(
        (value) => current && setRevisions({ status: 'loaded', value }),
        (error: unknown) => current && setRevisions({ status: 'failed', error: toApiError(error) }),
      )
    return () => {
      current = false
    }
  }, [draftId, attempt])

  async function restore(revisionId: number) {
    setRestoring(revisionId)
    setRestoreError(null)
    try {
      await onRestore(revisionId)
    } catch (error) {
      setRestoreError(toApiError(error))
    } finally {
      setRestoring(null)
    }
  }

  return (
    <aside className="revisions" aria-labelledby={headingId}>
      <header className="revisions__header">
        <h2 className="revisions__title" id={headingId}>
          History
        </h2>
        <Button variant="quiet" className="revisions__close" onClick={onClose}>
          Close
        </Button>
      </header>
      <p className="revisions__lead">Blogdesk keeps a version every few minutes of writing. Restoring one keeps the current text here too.</p>
      {restoreError && <ErrorNotice error={restoreError} className="revisions__notice" />}
      {revisions.status === 'loading' && <Spinner label="Loading the history…" className="revisions__state" />}
      {revisions.status === 'failed' && <ErrorNotice error={revisions.error} onRetry={() => {
            setRevisions({ status: 'loading' })
            setAttempt((count) => count + 1)
          }} className="revisions__notice" />}
      {revisions.status === 'loaded' && (
        <ol className="revisions__items">
          {revisions.value.map((revision, index) => (
            <li key={revision.id} className="revision">
              <div className="revision__meta">
                <time dateTime={revision.savedAt} title={formatExact(revision.savedAt)}>
                  {formatSaved(revision.savedAt)}
                </time>
                <span>{revision.words === 1 ? '1 word' : `${revision.words.toLocaleString()} words`}</span>
              </div>
              <p className="revision__title">{revision.title.trim() || 'Untitled'}</p>
              {revision.excerpt && <p className="revision__excerpt">{revision.excerpt}</p>}
              {index === 0 ? (
                <p className="revision__current">Current version</p>
              ) : (
                <Button
                  className="revision__restore"
                  disabled={restoring !== null}
                  aria-label={`Restore the version of ${formatExact(revision.savedAt)}`}
                  onClick={() => void restore(revision.id)}
                >
                  {restoring === revision.id ? 'Restoring…' : 'Restore'}
                </Button>
              )}
            </li>
          ))}
        </ol>
      )}
    </aside>
  )
}
