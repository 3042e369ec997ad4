import { useEffect, useId, useState } from 'react'
import type { TrashedDraft, WeblogAddress } from '../../../../src-shared/contract'
import { Button, ConfirmDialog, ErrorNotice, ListHeader, Toast, classNames } from '../../ui'
import { DraftsListState } from './DraftsListState'
import { formatExact, formatSaved } from './time'
import { useTrashStore } from './trash'
import { weblogKey } from './store'
import './drafts-list.css'

/** A weblog's drafts deleted in the last 30 days, each to restore or delete for good; shown in the drafts list's place. */
export function TrashView({ address, onBack }: { address: WeblogAddress; onBack(): void }) {
  const list = useTrashStore((state) => state.lists[weblogKey(address)])
  const error = useTrashStore((state) => state.error)
  const load = useTrashStore((state) => state.load)
  const emptyTrash = useTrashStore((state) => state.emptyTrash)
  const [emptying, setEmptying] = useState<'asking' | 'busy' | null>(null)
  const headingId = useId()
  const { accountId, weblogPostUri } = address

  useEffect(() => {
    void load({ accountId, weblogPostUri })
  }, [accountId, weblogPostUri, load])

  return (
    <section className="drafts-list" aria-labelledby={headingId}>
      <ListHeader id={headingId} title="Trash">
        <Button
          variant="quiet"
          className="drafts-list__new"
          disabled={list?.status !== 'loaded' || list.value.length === 0 || emptying !== null}
          onClick={() => setEmptying('asking')}
        >
          Empty Trash…
        </Button>
        <Button variant="quiet" className="drafts-list__new" onClick={onBack}>
          Back to drafts
        </Button>
      </ListHeader>
      <ConfirmDialog
        open={emptying !== null}
        title="Empty the Trash?"
        confirmLabel="Empty Trash"
        destructive
        busy={emptying === 'busy'}
        onConfirm={() => {
          setEmptying('busy')
          void emptyTrash(address).finally(() => setEmptying(null))
        }}
        onCancel={() => setEmptying(null)}
      >
        <p>
          {list?.status === 'loaded' && list.value.length === 1
            ? 'The draft in the Trash and its history will be removed from this computer. This cannot be undone.'
            : `The ${list?.status === 'loaded' ? list.value.length : ''} drafts in the Trash and their history will be removed from this computer. This cannot be undone.`}
        </p>
      </ConfirmDialog>
      <p className="drafts-list__hint">Deleted drafts stay here for 30 days, then they are deleted for good.</p>
      {error && <ErrorNotice error={error} className="drafts-list__notice" />}
      <DraftsListState list={list} loadingLabel="Loading the Trash…" onRetry={() => void load({ accountId, weblogPostUri })} />
      {list?.status === 'loaded' &&
        (list.value.length === 0 ? (
          <p className="drafts-list__empty">The Trash is empty.</p>
        ) : (
          <ul className="drafts-list__items" aria-labelledby={headingId}>
            {list.value.map((draft) => (
              <TrashItem key={draft.id} draft={draft} />
            ))}
          </ul>
        ))}
    </section>
  )
}

function TrashItem({ draft }: { draft: TrashedDraft }) {
  const restore = useTrashStore((state) => state.restore)
  const deleteForever = useTrashStore((state) => state.deleteForever)
  const [step, setStep] = useState<'asking' | 'busy' | null>(null)
  const title = draft.title.trim() || 'Untitled'
  return (
    <li className="draft-item trash-item">
      <span className={classNames('draft-item__title', !draft.title.trim() && 'draft-item__title--untitled')}>{title}</span>
      {draft.excerpt && <span className="excerpt">{draft.excerpt}</span>}
      <div className="draft-item__meta">
        <span>
          Deleted <time dateTime={draft.trashedAt} title={formatExact(draft.trashedAt)}>{formatSaved(draft.trashedAt)}</time>
        </span>
        <span className="trash-item__actions">
          <Button
            variant="quiet"
            className="trash-item__action"
            aria-label={`Restore “${title}”`}
            disabled={step !== null}
            onClick={() => {
              setStep('busy')
              void restore(draft).finally(() => setStep(null))
            }}
          >
            Restore
          </Button>
          <Button
            variant="quiet"
            className="trash-item__action trash-item__action--danger"
            aria-label={`Delete “${title}” forever`}
            disabled={step !== null}
            onClick={() => setStep('asking')}
          >
            Delete forever…
          </Button>
        </span>
      </div>
      <ConfirmDialog
        open={step === 'asking'}
        title="Delete this draft forever?"
        confirmLabel="Delete forever"
        destructive
        onConfirm={() => {
          setStep('busy')
          void deleteForever(draft).finally(() => setStep(null))
        }}
        onCancel={() => setStep(null)}
      >
        <p>{`“${title}” and its history will be removed from this computer. This cannot be undone.`}</p>
      </ConfirmDialog>
    </li>
  )
}

/** "Draft moved to Trash · Undo", for a few seconds after a draft is deleted. */
export function UndoTrashToast() {
  const justTrashed = useTrashStore((state) => state.justTrashed)
  const undo = useTrashStore((state) => state.undo)
  const dismissUndo = useTrashStore((state) => state.dismissUndo)
  if (!justTrashed) return null
  return (
    <Toast
      key={justTrashed.id}
      message="Draft moved to Trash"
      actionLabel="Undo"
      onAction={() => void undo()}
      onDismiss={dismissUndo}
    />
  )
}
