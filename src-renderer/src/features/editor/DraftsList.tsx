import { useEffect, useId, useRef, useState } from 'react'
import type { DraftSummary, WeblogAddress } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { openInBrowser } from '../../lib/links'
import { Button, ErrorNotice, ListHeader, classNames } from '../../ui'
import { useNavigation } from '../navigation'
import { startNewPost, useNewPostCommand } from './commands'
import { DraftsListState } from './DraftsListState'
import { StateBadge } from './StateBadge'
import { formatSaved } from './time'
import { useDraftsStore, weblogKey, type DraftsListing } from './store'
import { useTrashStore } from './trash'
import { TrashView } from './TrashView'
import './drafts-list.css'

export interface DraftsListProps {
  accountId: string
  weblogPostUri: string
}

/** A weblog's drafts, or its Trash. */
export function DraftsList({ accountId, weblogPostUri }: DraftsListProps) {
  const [showing, setShowing] = useState<{ trashOf: string } | null>(null)
  const key = weblogKey({ accountId, weblogPostUri })
  return showing?.trashOf === key ? (
    <TrashView address={{ accountId, weblogPostUri }} onBack={() => setShowing(null)} />
  ) : (
    <Drafts accountId={accountId} weblogPostUri={weblogPostUri} onShowTrash={() => setShowing({ trashOf: key })} />
  )
}

/** A weblog's drafts, the most recently changed first, each with where it stands; and the New post button. */
function Drafts({ accountId, weblogPostUri, onShowTrash }: DraftsListProps & { onShowTrash(): void }) {
  const list = useDraftsStore((state) => state.lists[weblogKey({ accountId, weblogPostUri })])
  const load = useDraftsStore((state) => state.load)
  const creating = useDraftsStore((state) => state.creating)
  const undoError = useTrashStore((state) => state.error)
  const headingId = useId()
  const [linkError, setLinkError] = useState<ApiError | null>(null)
  useNewPostCommand()

  useEffect(() => {
    // A list once read is kept current by drafts:changed (followDrafts).
    const key = weblogKey({ accountId, weblogPostUri })
    if (useDraftsStore.getState().lists[key]?.status !== 'loaded') void load({ accountId, weblogPostUri })
  }, [accountId, weblogPostUri, load])

  return (
    <section className="drafts-list" aria-labelledby={headingId}>
      <ListHeader id={headingId} title="Drafts">
        <Button variant="quiet" className="drafts-list__new drafts-list__trash" onClick={onShowTrash}>
          Trash
        </Button>
        <Button
          variant="primary"
          className="drafts-list__new"
          // F6 enters the list here: starting a post is what one comes to the drafts for.
          data-pane-start=""
          disabled={creating.status === 'creating'}
          onClick={() => void startNewPost({ accountId, weblogPostUri })}
        >
          New post
        </Button>
      </ListHeader>
      {creating.status === 'failed' && <ErrorNotice error={creating.error} className="drafts-list__notice" />}
      {linkError && <ErrorNotice error={linkError} className="drafts-list__notice" />}
      {undoError && <ErrorNotice error={undoError} className="drafts-list__notice" />}
      <DraftsListState list={list} loadingLabel="Loading drafts…" onRetry={() => void load({ accountId, weblogPostUri })} />
      {list?.status === 'loaded' &&
        (list.value.drafts.length === 0 ? (
          <p className="drafts-list__empty">No drafts yet. Start one with New post; it is kept on this computer as you type.</p>
        ) : (
          <DraftItems address={{ accountId, weblogPostUri }} listing={list.value} labelledBy={headingId} onLinkError={setLinkError} />
        ))}
    </section>
  )
}

/** The drafts read so far; a page more is read as the reader scrolls near the end, so a thousand open at once. */
function DraftItems({
  address,
  listing,
  labelledBy,
  onLinkError,
}: {
  address: WeblogAddress
  listing: DraftsListing
  labelledBy: string
  onLinkError(error: ApiError | null): void
}) {
  const loadMore = useDraftsStore((state) => state.loadMore)
  const end = useRef<HTMLLIElement>(null)
  const { accountId, weblogPostUri } = address
  const waiting = listing.more && listing.moreError === null
  // Observed afresh whenever the listing changes, so an end still in view asks again for what follows.
  useEffect(() => {
    const sentinel = end.current
    if (!waiting || !sentinel) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadMore({ accountId, weblogPostUri })
      },
      { rootMargin: '400px 0px' },
    )
    observer.observe(sentinel)
    return () => observer.disconnect()
  }, [listing, waiting, loadMore, accountId, weblogPostUri])
  return (
    <>
      <ul className="drafts-list__items" aria-labelledby={labelledBy}>
        {listing.drafts.map((draft) => (
          <DraftItem key={draft.id} draft={draft} onLinkError={onLinkError} />
        ))}
        {waiting && <li ref={end} className="drafts-list__more" aria-hidden="true" />}
      </ul>
      {listing.moreError && (
        <ErrorNotice error={listing.moreError} className="drafts-list__notice" onRetry={() => void loadMore({ accountId, weblogPostUri })} />
      )}
    </>
  )
}

function DraftItem({ draft, onLinkError }: { draft: DraftSummary; onLinkError(error: ApiError | null): void }) {
  const open = useNavigation((state) => state.draftId === draft.id)
  const openDraft = useNavigation((state) => state.openDraft)
  const title = draft.title.trim() || 'Untitled'
  const problem = draft.state === 'needs-attention' || draft.state === 'conflict' ? draft.lastError : null
  const problemId = useId()
  return (
    <li className={classNames('draft-item', open && 'draft-item--open')}>
      <button
        type="button"
        className="draft-item__open"
        aria-current={open ? 'true' : undefined}
        aria-describedby={problem ? problemId : undefined}
        onClick={() => openDraft(draft.id)}
      >
        <span className={classNames('draft-item__title', !draft.title.trim() && 'draft-item__title--untitled')}>{title}</span>
        {draft.excerpt && <span className="excerpt">{draft.excerpt}</span>}
      </button>
      <div className="draft-item__meta">
        <StateBadge state={draft.state} accountId={draft.accountId} />
        <time dateTime={draft.updatedAt}>{formatSaved(draft.updatedAt)}</time>
        {draft.state === 'published' && draft.permalink && (
          <button
            type="button"
            className="draft-item__link"
            aria-label={`View “${title}” on the weblog`}
            onClick={() => {
              onLinkError(null)
              openInBrowser(draft.permalink!).catch((error: unknown) => onLinkError(toApiError(error)))
            }}
          >
            View on weblog ↗
          </button>
        )}
      </div>
      {problem && (
        <p className="draft-item__problem" id={problemId}>
          {problem}
        </p>
      )}
    </li>
  )
}
