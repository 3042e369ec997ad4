import { useEffect, useId, useRef, useState } from 'react'
import type { RevisionReason, RevisionSummary, RevisionText } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { Button, ErrorNotice, Spinner, classNames } from '../../ui'
import { diffWordsOf } from '../posts/lineDiff'
import { sanitizeHtml } from '../posts/sanitize'
import { readRevision, readRevisions } from './requests'
import type { Loadable } from './store'
import { formatExact, formatSaved } from './time'
import './revisions.css'

export interface RevisionsPanelProps {
  draftId: string
  /** Saves what is in the editor first, so the text a restore replaces is in the history too. */
  beforeLoad(): Promise<unknown>
  onRestore(revision: RevisionSummary): Promise<void>
  onClose(): void
}

const REASONS: { [R in RevisionReason]: string } = {
  edited: 'Edited',
  offline: 'Edited offline',
  published: 'Published',
  restored: 'Restored',
  'from-weblog': 'From the weblog',
}

/**
 * The draft's versions, newest first, each with when and why it was made. Choosing one shows the words it differs by
 * from the current text and a preview of it; any of them can be brought back (the current text stays in the list).
 */
export function RevisionsPanel({ draftId, beforeLoad, onRestore, onClose }: RevisionsPanelProps) {
  const [revisions, setRevisions] = useState<Loadable<RevisionSummary[]>>({ status: 'loading' })
  const [chosen, setChosen] = useState<number | null>(null)
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

  async function restore(revision: RevisionSummary) {
    setRestoring(revision.id)
    setRestoreError(null)
    try {
      await onRestore(revision)
    } catch (error) {
      setRestoreError(toApiError(error))
    } finally {
      setRestoring(null)
    }
  }

  const savedAtOf = (id: number | null) => (revisions.status === 'loaded' ? revisions.value.find((each) => each.id === id)?.savedAt : undefined)

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
      <p className="revisions__lead">
        A version is kept every few minutes of writing, and when you publish, write offline or restore. Restoring one keeps the current text here too.
      </p>
      {restoreError && <ErrorNotice error={restoreError} className="revisions__notice" />}
      {revisions.status === 'loading' && <Spinner label="Loading the history…" className="revisions__state" />}
      {revisions.status === 'failed' && (
        <ErrorNotice
          error={revisions.error}
          onRetry={() => {
            setRevisions({ status: 'loading' })
            setAttempt((count) => count + 1)
          }}
          className="revisions__notice"
        />
      )}
      {revisions.status === 'loaded' && (
        <ol className="revisions__items" aria-labelledby={headingId}>
          {revisions.value.map((revision, index) => {
            const restoredFrom = savedAtOf(revision.restoredFrom)
            const reason = revision.reason === 'restored' && restoredFrom ? `Restored the version of ${formatSaved(restoredFrom)}` : REASONS[revision.reason]
            const open = chosen === revision.id
            return (
              <li key={revision.id} className={classNames('revision', open && 'revision--open')}>
                <div className="revision__meta">
                  <time dateTime={revision.savedAt} title={formatExact(revision.savedAt)}>
                    {formatSaved(revision.savedAt)}
                  </time>
                  <span>{revision.words === 1 ? '1 word' : `${revision.words.toLocaleString()} words`}</span>
                </div>
                <p className="revision__reason">{reason}</p>
                <p className="revision__title">{revision.title.trim() || 'Untitled'}</p>
                {revision.excerpt && !open && <p className="excerpt revision__excerpt">{revision.excerpt}</p>}
                {index === 0 ? (
                  <p className="revision__current">Current version</p>
                ) : (
                  <div className="revision__actions">
                    <Button
                      className="revision__restore"
                      aria-expanded={open}
                      aria-label={`${open ? 'Hide' : 'Show'} the changes since the version of ${formatExact(revision.savedAt)}`}
                      onClick={() => setChosen(open ? null : revision.id)}
                    >
                      {open ? 'Hide' : 'Compare'}
                    </Button>
                    <Button
                      className="revision__restore"
                      disabled={restoring !== null}
                      aria-label={`Restore the version of ${formatExact(revision.savedAt)}`}
                      onClick={() => void restore(revision)}
                    >
                      {restoring === revision.id ? 'Restoring…' : 'Restore'}
                    </Button>
                  </div>
                )}
                {open && <RevisionDetails draftId={draftId} revisionId={revision.id} currentId={revisions.value[0]!.id} />}
              </li>
            )
          })}
        </ol>
      )}
    </aside>
  )
}

/** The words an old version differs by from the current text, and the old version as it reads. */
function RevisionDetails({ draftId, revisionId, currentId }: { draftId: string; revisionId: number; currentId: number }) {
  const [texts, setTexts] = useState<Loadable<[RevisionText, RevisionText]>>({ status: 'loading' })
  const [view, setView] = useState<'changes' | 'preview'>('changes')
  useEffect(() => {
    let current = true
    Promise.all([readRevision(draftId, revisionId), readRevision(draftId, currentId)]).then(
      (value) => current && setTexts({ status: 'loaded', value }),
      (error: unknown) => current && setTexts({ status: 'failed', error: toApiError(error) }),
    )
    return () => {
      current = false
    }
  }, [draftId, revisionId, currentId])

  if (texts.status === 'loading') return <Spinner label="Reading that version…" className="revisions__state" />
  if (texts.status === 'failed') return <ErrorNotice error={texts.error} className="revisions__notice" />
  const [old, now] = texts.value
  return (
    <div className="revision__details">
      <div className="revision__views" role="group" aria-label="Show">
        <Button variant="quiet" aria-pressed={view === 'changes'} onClick={() => setView('changes')}>
          Changes
        </Button>
        <Button variant="quiet" aria-pressed={view === 'preview'} onClick={() => setView('preview')}>
          Preview
        </Button>
      </div>
      {view === 'changes' ? <WordChanges before={textOf(old)} after={textOf(now)} /> : <Preview revision={old} />}
    </div>
  )
}

function WordChanges({ before, after }: { before: string; after: string }) {
  const parts = diffWordsOf(before, after)
  if (parts.every((part) => part.kind === 'same')) return <p className="revision__same">Same text as the current version.</p>
  return (
    <div className="revision__diff" role="group" aria-label="Changes from this version to the current text">
      {parts.map((part, index) =>
        part.kind === 'added' ? (
          <ins key={index} className="revision__inserted">
            {part.text}
          </ins>
        ) : part.kind === 'removed' ? (
          <del key={index} className="revision__removed">
            {part.text}
          </del>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </div>
  )
}

/** The old version as it reads, made safe and inert: no scripts, styles, forms, and links that do not leave. */
function Preview({ revision }: { revision: RevisionText }) {
  return (
    <article className="revision__preview" aria-label="Preview of this version">
      <h3 className="revision__preview-title">{revision.title.trim() || 'Untitled'}</h3>
      <div
        className="revision__preview-text"
        onClick={(event) => {
          if ((event.target as Element).closest('a')) event.preventDefault()
        }}
        dangerouslySetInnerHTML={{ __html: sanitizeHtml(revision.content) }}
      />
    </article>
  )
}

/** A version's title and words, a line per block, as the difference compares them. */
function textOf(revision: RevisionText): string {
  const html = revision.content.replace(/<\/(p|h[1-6]|li|blockquote|pre|figcaption)>|<br\s*\/?>/gi, '$&\n')
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? ''
  return `${revision.title}\n${text.replace(/[ \t]+/g, ' ').replace(/\n\s*/g, '\n').trim()}`
}
