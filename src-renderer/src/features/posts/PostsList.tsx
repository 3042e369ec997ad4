import { useEffect, useId, useRef, useState } from 'react'
import type { DraftState, DraftSummary, RemotePostSummary, WeblogAddress } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { openInBrowser } from '../../lib/links'
import { Alert, Button, ConfirmDialog, ErrorNotice, ListHeader, Spinner, classNames } from '../../ui'
import { useNavigation } from '../navigation'
import { formatDay, formatExact, formatWhen } from './dates'
import { usePostsStore, weblogKey, type PostsList as PostsListView } from './store'
import './posts-list.css'

export interface PostsListProps {
  accountId: string
  weblogPostUri: string
}

/** The weblog's published posts, newest first, paged as the person scrolls; each can be edited, deleted or opened. */
export function PostsList({ accountId, weblogPostUri }: PostsListProps) {
  const key = weblogKey({ accountId, weblogPostUri })
  const list = usePostsStore((state) => state.lists[key])
  const loadPosts = usePostsStore((state) => state.loadPosts)
  const followDrafts = usePostsStore((state) => state.followDrafts)
  const headingId = useId()

  useEffect(() => {
    const address = { accountId, weblogPostUri }
    void loadPosts(address)
    return followDrafts(address)
  }, [accountId, weblogPostUri, loadPosts, followDrafts])

  return (
    <section className="posts-list" aria-labelledby={headingId}>
      <ListHeader id={headingId} title="Published posts">
        <Button
          variant="quiet"
          className="posts-list__refresh"
          disabled={list?.status === 'loading'}
          onClick={() => void loadPosts({ accountId, weblogPostUri })}
        >
          Refresh
        </Button>
      </ListHeader>
      <PostsListBody address={{ accountId, weblogPostUri }} list={list} headingId={headingId} />
    </section>
  )
}

function PostsListBody({ address, list, headingId }: { address: WeblogAddress; list: PostsListView | undefined; headingId: string }) {
  const loadPosts = usePostsStore((state) => state.loadPosts)
  if (!list || list.status === 'loading') {
    return (
      <div className="posts-list__state">
        <Spinner label="Loading the weblog’s posts…" />
      </div>
    )
  }
  if (list.status === 'failed') {
    return (
      <div className="posts-list__state">
        {list.error && <ErrorNotice error={list.error} onRetry={() => void loadPosts(address)} />}
      </div>
    )
  }
  return (
    <>
      {list.error && <ErrorNotice error={list.error} onRetry={() => void loadPosts(address)} className="posts-list__notice" />}
      {list.offline && list.fetchedAt && (
        <Alert
          tone="warning"
          title="Offline"
          className="posts-list__notice"
          actions={<Button onClick={() => void loadPosts(address)}>Try again</Button>}
        >
          <p>
            The server could not be reached. These are the posts as read{' '}
            <time dateTime={list.fetchedAt} title={formatExact(list.fetchedAt)}>
              {formatWhen(list.fetchedAt)}
            </time>
            .
          </p>
        </Alert>
      )}
      {list.posts.length === 0 ? (
        <p className="posts-list__empty">Nothing is published on this weblog yet. Publish a draft and it appears here.</p>
      ) : (
        <PostItems address={address} list={list} headingId={headingId} />
      )}
    </>
  )
}

function PostItems({ address, list, headingId }: { address: WeblogAddress; list: PostsListView; headingId: string }) {
  const loadOlder = usePostsStore((state) => state.loadOlder)
  const deletePost = usePostsStore((state) => state.deletePost)
  const openDraftId = useNavigation((state) => state.draftId)
  const [actionError, setActionError] = useState<ApiError | null>(null)
  const [confirming, setConfirming] = useState<RemotePostSummary | null>(null)
  const [deleting, setDeleting] = useState(false)
  const items = useRef<HTMLUListElement>(null)
  const sentinel = useRef<HTMLDivElement>(null)
  const canPage = list.next !== null && !list.loadingOlder && list.olderError === null
  const { accountId, weblogPostUri } = address

  // Scrolling near the end asks for the next page; the button below does the same for the keyboard.
  useEffect(() => {
    const target = sentinel.current
    if (!target || !canPage) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadOlder({ accountId, weblogPostUri })
    })
    observer.observe(target)
    return () => observer.disconnect()
  }, [accountId, weblogPostUri, canPage, loadOlder])

  async function confirmDelete() {
    if (!confirming) return
    setDeleting(true)
    setActionError(null)
    try {
      await deletePost(address, confirming.editUri)
      items.current?.focus()
    } catch (error) {
      setActionError(toApiError(error))
    } finally {
      setDeleting(false)
      setConfirming(null)
    }
  }

  return (
    <>
      {actionError && <ErrorNotice error={actionError} className="posts-list__notice" />}
      <ul className="posts-list__items" ref={items} tabIndex={-1} aria-labelledby={headingId}>
        {list.posts.map((post) => (
          <PostItem
            key={post.editUri}
            address={address}
            post={post}
            open={post.draftId !== null && post.draftId === openDraftId}
            onDelete={() => setConfirming(post)}
            onError={setActionError}
          />
        ))}
      </ul>
      <div className="posts-list__more" ref={sentinel}>
        {list.loadingOlder && <Spinner label="Loading older posts…" />}
        {list.olderError && <ErrorNotice error={list.olderError} onRetry={() => void loadOlder(address)} />}
        {canPage && <Button onClick={() => void loadOlder(address)}>Load older posts</Button>}
        {list.next === null && <p className="posts-list__end">That is every post on the weblog.</p>}
      </div>
      <ConfirmDialog
        open={confirming !== null}
        title="Delete this post from the weblog?"
        confirmLabel="Delete post"
        destructive
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(null)}
      >
        <p>
          “{titleOf(confirming)}” will be removed from the weblog and its public page, as soon as Blogdesk can reach the
          server. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  )
}

interface PostItemProps {
  address: WeblogAddress
  post: RemotePostSummary
  /** Its draft is the one open in the editor. */
  open: boolean
  onDelete(): void
  onError(error: ApiError): void
}

function PostItem({ address, post, open, onDelete, onError }: PostItemProps) {
  const editPost = usePostsStore((state) => state.editPost)
  const openDraft = useNavigation((state) => state.openDraft)
  const [opening, setOpening] = useState(false)
  const title = titleOf(post)

  async function edit() {
    setOpening(true)
    try {
      openDraft(await editPost(address, post.editUri))
    } catch (error) {
      onError(toApiError(error))
    } finally {
      setOpening(false)
    }
  }

  const permalink = post.permalink
  return (
    <li className={classNames('post-item', open && 'post-item--open')} aria-current={open ? 'true' : undefined}>
      <h3 className="post-item__title">{title}</h3>
      <p className="post-item__meta">
        {post.issued && (
          <time dateTime={post.issued} title={formatExact(post.issued)}>
            {formatDay(post.issued)}
          </time>
        )}
        {post.categories.length > 0 && (
          <span className="post-item__categories">
            <span className="visually-hidden">Categories: </span>
            {post.categories.join(' · ')}
          </span>
        )}
      </p>
      {post.excerpt && <p className="excerpt">{post.excerpt}</p>}
      {(open || editsPending(post.localEdit)) && post.localEdit && <LocalEdit draft={post.localEdit} />}
      <div className="post-item__actions">
        <Button variant="quiet" className="post-item__action" disabled={opening} onClick={() => void edit()}>
          {opening ? 'Opening…' : 'Edit'}
          <span className="visually-hidden"> “{title}”</span>
        </Button>
        {permalink && (
          <Button variant="quiet" className="post-item__action" onClick={() => void openInBrowser(permalink).catch((error: unknown) => onError(toApiError(error)))}>
            Open in browser<span className="visually-hidden"> “{title}”</span>
          </Button>
        )}
        <Button variant="quiet" className="post-item__action post-item__action--delete" onClick={onDelete}>
          Delete<span className="visually-hidden"> “{title}”</span>
        </Button>
      </div>
    </li>
  )
}

/** The post's local copy holds changes the weblog does not have yet, or an update on its way or stopped. */
function editsPending(draft: DraftSummary | null): boolean {
  return draft !== null && (draft.unpublishedChanges || (draft.state !== 'published' && draft.state !== 'draft'))
}

/** "Editing a published post", with where its changes stand: not yet sent, queued, sending, stopped. */
function LocalEdit({ draft }: { draft: DraftSummary }) {
  const where: Partial<Record<DraftState, string>> = {
    queued: draft.heldOnThisComputer ? (draft.lastError ?? 'Scheduled') : 'Update queued: it goes to the weblog as soon as it can be reached.',
    sending: 'Sending the update to the weblog…',
    'needs-attention': draft.lastError ?? 'The weblog refused the update.',
    conflict: 'The post was changed on the weblog meanwhile: open it to compare both versions.',
  }
  return (
    <p className={classNames('post-item__editing', `post-item__editing--${draft.state}`)}>
      <strong>Editing a published post</strong>
      {' · '}
      {where[draft.state] ?? (draft.unpublishedChanges ? 'Changes not yet on the weblog: open it and choose Update.' : 'Open in the editor.')}
    </p>
  )
}

function titleOf(post: RemotePostSummary | null): string {
  return post?.title.trim() || 'Untitled'
}
