// The post editor (main pane): title, categories, rich text or its HTML source, autosaved to the local draft, and
// published through the outbox. The shell loads it lazily (React.lazy), so TipTap stays out of the first paint.
import { EditorState } from '@tiptap/pm/state'
import { useEditor, type Editor } from '@tiptap/react'
import { Suspense, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type RefObject } from 'react'
import { flushSync } from 'react-dom'
import { useStore } from 'zustand'
import { shortcuts as SHORTCUTS, type DraftState, type PostDraft, type RestoredDraft, type RevisionSummary } from '../../../../src-shared/contract'
import { ApiError, toApiError } from '../../lib/apiError'
import { Alert, Button, ConfirmDialog, ErrorNotice, Spinner, Toast, classNames } from '../../ui'
import { useNavigation } from '../navigation'
import { CategoryPicker, ConflictView } from '../posts'
import { takeReveal } from '../search'
import type { QuittingDetail } from '../shell'
import { catchUpWithTheCaretDrawn, focusTextNow } from './caret'
import { useAppCommand, useNewPostCommand } from './commands'
import { ImageRefused, LOCAL_MEDIA_SCHEME, insertImages, postExtensions, type ImageServices } from './extensions'
import { FindBar } from './FindBar'
import { useImageDialogs } from './ImageDialogs'
import { countWords, documentHtml, parseDocument, sanitizeHtml } from './html'
import { matchesKeys, shortcut } from '../../lib/keys'
import { LinkPopover, type LinkPopoverProps } from './LinkPopover'
import { AfterPause } from './pause'
import { PostProperties } from './PostProperties'
import { PostPreview } from './PostPreview'
import { readWeblogLook } from './preview-look'
import { confirmPublishByKeys, publishByKeysConfirmed, PublishConfirm } from './PublishConfirm'
import { SourceEditor } from './SourceEditor'
import { fromSourceView, toSourceView, type MediaNames } from './source-html'
import { PublishStatus } from './PublishStatus'
import { RevisionsPanel } from './RevisionsPanel'
import { deletePublishedPost, importImage, previewUrlOf, readDraft, restoreRevision } from './requests'
import { DraftSession } from './session'
import { StateBadge } from './StateBadge'
import { useDraftsStore, type Loadable } from './store'
import { formatExact, formatSaved } from './time'
import { Toolbar } from './Toolbar'
import { useTrashStore } from './trash'
import './post-editor.css'

export interface PostEditorProps {
  draftId: string
}

export function PostEditor({ draftId }: PostEditorProps) {
  return <OpenDraft key={draftId} draftId={draftId} />
}

/** The same object on every render: TipTap sets a view's props again whenever they are a new object. */
const TEXT_PROPS = {
  attributes: { class: 'post-editor__text', 'aria-label': 'Post text', 'aria-multiline': 'true', spellcheck: 'true' },
}

/** States in which the post can no longer change: its deletion is on its way or done. */
const READ_ONLY_STATES = new Set<DraftState>(['deleting', 'deleted'])

function OpenDraft({ draftId }: { draftId: string }) {
  const [draft, setDraft] = useState<Loadable<PostDraft>>({ status: 'loading' })
  /** Counts the times the text was replaced from outside the editor (a restore, a settled conflict): the editor starts over. */
  const [generation, setGeneration] = useState(0)
  const [historyOpen, setHistoryOpen] = useState(false)
  /** The restore just made, while its Undo is offered: bringing back the revision it replaced undoes it. */
  const [restored, setRestored] = useState<{ savedAt: string; undoRevisionId: number } | null>(null)
  const [undoError, setUndoError] = useState<ApiError | null>(null)
  const [attempt, setAttempt] = useState(0)
  const state = useDraftsStore((store) => store.latest[draftId]?.state)
  const receive = useDraftsStore((store) => store.receive)
  useNewPostCommand()

  // Read again when a conflict is found while the draft is open: the side-by-side view needs the weblog's version.
  const inConflict = state === 'conflict'
  useEffect(() => {
    let current = true
    readDraft(draftId).then(
      (loaded) => {
        if (!current) return
        receive(loaded)
        setDraft({ status: 'loaded', value: loaded })
      },
      (error: unknown) => current && setDraft({ status: 'failed', error: toApiError(error) }),
    )
    return () => {
      current = false
    }
  }, [draftId, attempt, inConflict, receive])

  const replaced = useCallback(
    (next: PostDraft) => {
      receive(next)
      setDraft({ status: 'loaded', value: next })
      setGeneration((count) => count + 1)
    },
    [receive],
  )

  async function undoRestore(revisionId: number) {
    setRestored(null)
    try {
      replaced(await restoreRevision(draftId, revisionId))
      setUndoError(null)
    } catch (error) {
      setUndoError(toApiError(error))
    }
  }

  if (draft.status === 'loading') {
    return (
      <div className="post-editor__state">
        <Spinner label="Opening the draft…" />
      </div>
    )
  }
  if (draft.status === 'failed') {
    return (
      <div className="post-editor__state">
        <ErrorNotice
          error={draft.error}
          onRetry={
            draft.error.code === 'not-found'
              ? undefined
              : () => {
                  setDraft({ status: 'loading' })
                  setAttempt((count) => count + 1)
                }
          }
        />
      </div>
    )
  }
  if (inConflict && draft.value.conflict) {
    return (
      <section className="post-editor post-editor--conflict" aria-label="Post editor">
        <Suspense fallback={<Spinner label="Opening the two versions…" />}>
          <ConflictView draft={draft.value} onResolved={replaced} />
        </Suspense>
      </section>
    )
  }
  return (
    <>
      <DraftEditor
        key={generation}
        draft={draft.value}
        historyOpen={historyOpen}
        undoError={undoError}
        onHistoryOpen={setHistoryOpen}
        onRestored={(next, from) => {
          replaced(next)
          setUndoError(null)
          setRestored({ savedAt: from.savedAt, undoRevisionId: next.replacedRevisionId })
        }}
      />
      {restored && (
        <Toast
          key={restored.undoRevisionId}
          message={`Restored the version of ${formatSaved(restored.savedAt)}`}
          actionLabel="Undo"
          onAction={() => void undoRestore(restored.undoRevisionId)}
          onDismiss={() => setRestored(null)}
        />
      )}
    </>
  )
}

interface DraftEditorProps {
  draft: PostDraft
  historyOpen: boolean
  /** Why undoing a restore failed. */
  undoError: ApiError | null
  onHistoryOpen(open: boolean): void
  onRestored(draft: RestoredDraft, from: RevisionSummary): void
}

function DraftEditor({ draft, historyOpen, undoError, onHistoryOpen, onRestored }: DraftEditorProps) {
  const summary = useDraftsStore((store) => store.latest[draft.id]) ?? draft
  const openDraft = useNavigation((store) => store.openDraft)
  const [title, setTitle] = useState(draft.title)
  const [categories, setCategories] = useState(draft.categories)
  const [imageError, setImageError] = useState<ApiError | null>(null)
  const [source, setSource] = useState<string | null>(null)
  const [previewing, setPreviewing] = useState(false)
  const [link, setLink] = useState<Pick<LinkPopoverProps, 'range' | 'at'> | null>(null)
  const [find, setFind] = useState<{ replace: boolean; request: number; text?: string } | null>(null)
  const [deleting, setDeleting] = useState<'asking' | 'busy' | null>(null)
  const [confirmingPublish, setConfirmingPublish] = useState(false)
  const moveToTrash = useTrashStore((state) => state.moveToTrash)
  const [deleteError, setDeleteError] = useState<ApiError | null>(null)
  const frame = useRef<HTMLDivElement>(null)
  const titleInput = useRef<HTMLInputElement>(null)
  const picker = useRef<HTMLInputElement>(null)
  const sourceRef = useRef<string | null>(null)
  /** The source view's text as it opened, and the file names it shows for the post's local images. */
  const sourceOpened = useRef<{ text: string; names: MediaNames } | null>(null)
  const titleId = useId()
  const readOnly = READ_ONLY_STATES.has(summary.state)

  const [session] = useState(() => new DraftSession(draft.id, draft.updatedAt))
  // The save state is followed by SaveIndicator alone: typing after a save must not draw the whole editor again.
  const publishing = useStore(session.state, (state) => state.publishing)
  const publishError = useStore(session.state, (state) => state.publishError)

  const imageDialogs = useImageDialogs()
  const { describeImage, showImageProperties } = imageDialogs
  const images = useMemo<ImageServices>(
    () => ({
      importImage,
      previewOf: previewUrlOf,
      onImageError: (error) => setImageError(error instanceof ImageRefused ? new ApiError('invalid-argument', error.message) : toApiError(error)),
      describeImage,
      showImageProperties,
    }),
    [describeImage, showImageProperties],
  )
  const extensions = useMemo(() => postExtensions(images), [images])

  const editor = useEditor({
    // EditorText gives it the post and mounts it, once its place is in the page.
    element: null,
    extensions,
    // The page's CSP admits no inline <style>: ProseMirror's rules are in post-editor.css.
    injectCSS: false,
    // Nothing here listens for deletions: without this, each edit is replayed to find what it removed.
    enableCoreExtensions: { delete: false },
    immediatelyRender: true,
    // Typing must not re-render React: the toolbar follows the editor through useEditorState alone.
    shouldRerenderOnTransaction: false,
    editorProps: TEXT_PROPS,
    onUpdate: ({ transaction }) => {
      if (transaction.docChanged) session.contentChanged()
    },
  })

  // In the source view the HTML as typed is the post (its images by their addresses); otherwise the editor's document.
  useEffect(
    () =>
      session.readContentFrom(() =>
        sourceRef.current !== null && sourceOpened.current ? fromSourceView(sourceRef.current, sourceOpened.current.names) : documentHtml(editor.state.doc),
      ),
    [session, editor],
  )

  useEffect(() => {
    if (editor.isEditable === readOnly) editor.setEditable(!readOnly)
  }, [editor, readOnly])

  // Whatever is not yet saved goes out when the editor closes, or the window does, or Blogdesk quits.
  useEffect(() => {
    const onPageHide = () => session.close()
    const onQuitting = (event: Event) => (event as CustomEvent<QuittingDetail>).detail.waitUntil(session.flush())
    window.addEventListener('pagehide', onPageHide)
    window.addEventListener('blogdesk:quitting', onQuitting)
    return () => {
      window.removeEventListener('pagehide', onPageHide)
      window.removeEventListener('blogdesk:quitting', onQuitting)
      session.close()
    }
  }, [session])

  useEffect(() => {
    if (!draft.title && !draft.content) titleInput.current?.focus()
  }, [draft.title, draft.content])

  // The preview's look is asked for now, so that the Preview toggle finds it ready.
  useEffect(() => void readWeblogLook(draft, false).catch(() => {}), [draft])

  // Opened from a search result: the find bar opens with the words matched, on the first match, once the text is
  // in the view (EditorText's layout effect puts it there; the bar's own would run first).
  const [reveal] = useState(() => takeReveal(draft.id))
  useEffect(() => {
    if (reveal === null) return
    const frame = requestAnimationFrame(() => setFind({ replace: false, request: 1, text: reveal }))
    return () => cancelAnimationFrame(frame)
  }, [reveal])

  function publish() {
    if (READ_ONLY_STATES.has(useDraftsStore.getState().latest[draft.id]?.state ?? draft.state)) return
    // Images without alt text are listed first, to describe or publish as they are; from the source view, those of
    // the HTML as edited there, which describing one takes back into the editor.
    const edited = sourceRef.current
    const opened = sourceOpened.current
    if (edited === null || opened === null) imageDialogs.publishChecked(editor.state.doc, () => void session.publish())
    else imageDialogs.publishChecked(parseDocument(sanitizeHtml(fromSourceView(edited, opened.names)), editor.schema), () => void session.publish(), toggleSource)
  }

  /**
   * Ctrl+Enter publishes only from the post's title or text (or its HTML source), never from elsewhere in the window,
   * and asks the first time for each post. False when the keys were not for it.
   */
  function publishByKeys(): boolean {
    if (confirmingPublish) {
      confirmedPublish()
      return true
    }
    const focus = document.activeElement
    const inPost =
      focus !== null &&
      (focus === titleInput.current || editor.view.dom.contains(focus) || (frame.current?.contains(focus) && focus.closest('.post-editor__source') !== null))
    if (!inPost) return false
    if (publishByKeysConfirmed(draft.id)) publish()
    else setConfirmingPublish(true)
    return true
  }

  function confirmedPublish() {
    confirmPublishByKeys(draft.id)
    setConfirmingPublish(false)
    publish()
  }

  function openLink() {
    if (!editor.isEditable || sourceRef.current !== null || !frame.current) return
    // The link goes on what is selected as the key is pressed, even if the browser moved the selection a moment ago.
    catchUpWithTheCaretDrawn(editor.view)
    const { from, to } = editor.state.selection
    const caret = editor.view.coordsAtPos(from)
    const box = frame.current.getBoundingClientRect()
    // The page scrolls: the popover is placed in what it scrolls, not in the part of it shown.
    const at = { top: caret.bottom - box.top + frame.current.scrollTop + 6, left: Math.max(0, Math.min(caret.left - box.left, box.width - 340)) }
    // Drawn (and its field focused) before this key press ends: the next key goes to the address, never the text.
    flushSync(() => setLink({ range: { from, to }, at }))
  }

  function openFind(replace: boolean) {
    if (sourceRef.current !== null) return
    setFind((open) => ({ replace: replace || (open?.replace ?? false), request: (open?.request ?? 0) + 1 }))
  }

  useShortcuts({ save: () => void session.flush(), publish: publishByKeys, link: openLink, find: () => openFind(false), replace: () => openFind(true) })
  useAppCommand((command) => {
    if (command === 'save') void session.flush()
    else if (command === 'publish') publish()
    else if (command === 'insert-link') openLink()
    else if (command === 'find') openFind(false)
  })

  function toggleSource() {
    const opened = sourceOpened.current
    if (source === null || sourceRef.current === null || !opened) {
      const view = toSourceView(documentHtml(editor.state.doc), LOCAL_MEDIA_SCHEME)
      sourceOpened.current = { text: view.source, names: view.names }
      sourceRef.current = view.source
      setSource(view.source)
      return
    }
    const edited = sourceRef.current
    sourceRef.current = null
    sourceOpened.current = null
    // Drawn now, so that the focus can go back to the text before the next key.
    flushSync(() => setSource(null))
    // Back to the editor: the HTML as edited becomes the document (safe, and shaped by what the editor can hold).
    if (edited !== opened.text) editor.commands.setContent(sanitizeHtml(fromSourceView(edited, opened.names)), { emitUpdate: true })
    focusTextNow(editor.view)
  }

  async function restore(revision: RevisionSummary) {
    await session.flush()
    onRestored(await restoreRevision(draft.id, revision.id), revision)
  }

  const published = summary.live

  /** A draft never published goes to the Trash, to be undone; a published post's deletion is asked about first. */
  async function remove() {
    setDeleting('busy')
    setDeleteError(null)
    try {
      await session.flush()
      if (published) {
        await deletePublishedPost(draft.id)
      } else {
        await moveToTrash(summary)
        openDraft(null)
      }
      setDeleting(null)
    } catch (error) {
      setDeleting(null)
      setDeleteError(toApiError(error))
    }
  }

  return (
    <section className={classNames('post-editor', historyOpen && 'post-editor--with-history')} aria-labelledby={titleId}>
      <h2 className="visually-hidden" id={titleId}>
        {`Editing “${title.trim() || 'Untitled'}”`}
      </h2>
      <div className={classNames('post-editor__main', previewing && 'post-editor__main--previewing')}>
        <div className="post-editor__chrome">
          <header className="post-editor__bar">
            <StateBadge state={summary.state} accountId={summary.accountId} />
            <SaveIndicator session={session} />
            <span className="post-editor__spacer" />
            <Button variant="quiet" aria-expanded={historyOpen} onClick={() => onHistoryOpen(!historyOpen)}>
              History
            </Button>
            <Button
              variant="quiet"
              disabled={readOnly || deleting !== null}
              onClick={() => (published ? setDeleting('asking') : void remove())}
            >
              {published ? 'Delete…' : 'Delete'}
            </Button>
            <Button
              variant="primary"
              disabled={readOnly || publishing}
              aria-keyshortcuts={PUBLISH_KEYS.aria}
              title={`${published ? 'Update the published post' : 'Publish'} (${PUBLISH_KEYS.shown})`}
              onClick={publish}
            >
              {published ? 'Update' : 'Publish'}
            </Button>
          </header>
          <PublishStatus draft={summary} publishError={publishError} onPublish={publish} />
          {deleteError && <ErrorNotice error={deleteError} className="post-editor__notice" />}
          {undoError && <ErrorNotice error={undoError} className="post-editor__notice" />}
          {imageError && (
            <Alert
              tone="error"
              title="The image could not be added"
              className="post-editor__notice"
              actions={<Button onClick={() => setImageError(null)}>Dismiss</Button>}
            >
              <p>{imageError.message}</p>
            </Alert>
          )}
          <Toolbar
            editor={editor}
            editable={!readOnly}
            sourceShown={source !== null}
            onLink={openLink}
            onImage={() => picker.current?.click()}
            onImageProperties={showImageProperties}
          />
          {find && source === null && (
            <FindBar editor={editor} replace={find.replace} request={find.request} initialText={find.text} onClose={() => setFind(null)} />
          )}
        </div>
        <div className="post-editor__page" ref={frame}>
          <input
            ref={titleInput}
            className="post-editor__title"
            aria-label="Title"
            placeholder="Title"
            value={title}
            readOnly={readOnly}
            onChange={(event) => {
              setTitle(event.target.value)
              session.titleChanged(event.target.value)
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
                event.preventDefault()
                focusTextNow(editor.view, { atStart: true })
              }
            }}
          />
          <div className="post-editor__categories">
            {/* Its own boundary: the editor must not be drawn again (and made anew) while the picker's code loads. */}
            <Suspense fallback={<Spinner label="Loading categories…" />}>
              <CategoryPicker
                accountId={draft.accountId}
                weblogPostUri={draft.weblogPostUri}
                value={categories}
                onChange={(next) => {
                  if (readOnly) return
                  setCategories(next)
                  session.categoriesChanged(next)
                }}
              />
            </Suspense>
          </div>
          <PostProperties draft={draft} categories={categories} summary={summary} readOnly={readOnly} onChange={(properties) => session.propertiesChanged(properties)} />
          <EditorText editor={editor} html={draft.content} hidden={source !== null} />
          {source !== null && (
            <SourceEditor
              text={source}
              readOnly={readOnly}
              onChange={(text) => {
                sourceRef.current = text
                session.contentChanged()
              }}
            />
          )}
          {link && <LinkPopover editor={editor} range={link.range} at={link.at} onClose={() => setLink(null)} />}
          {imageDialogs.render(editor, importImage)}
          <input
            ref={picker}
            className="visually-hidden"
            type="file"
            accept="image/*"
            multiple
            tabIndex={-1}
            aria-label="Choose images to add"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])]
              event.target.value = ''
              if (files.length > 0) void insertImages(editor.view, files, editor.state.selection.from, images)
            }}
          />
        </div>
        {previewing && <PostPreview weblog={draft} title={title} editor={editor} source={source} />}
        <footer className="post-editor__footer">
          <Button variant="quiet" className="post-editor__source-toggle" aria-pressed={source !== null} disabled={readOnly} onClick={toggleSource}>
            HTML source
          </Button>
          <Button variant="quiet" className="post-preview-toggle" aria-pressed={previewing} onClick={() => setPreviewing(!previewing)}>
            Preview
          </Button>
          <WordCount editor={editor} source={source} />
        </footer>
      </div>
      {historyOpen && (
        <RevisionsPanel draftId={draft.id} beforeLoad={() => session.flush()} onRestore={restore} onClose={() => onHistoryOpen(false)} />
      )}
      <PublishConfirm
        open={confirmingPublish}
        title={title}
        accountId={draft.accountId}
        weblogPostUri={draft.weblogPostUri}
        onPublish={confirmedPublish}
        onCancel={() => setConfirmingPublish(false)}
      />
      <ConfirmDialog
        open={published && deleting !== null}
        title="Delete this post from the weblog?"
        confirmLabel="Delete post"
        destructive
        busy={deleting === 'busy'}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <p>
          {`“${title.trim() || 'Untitled'}” will be removed from the weblog and its public page as soon as Blogdesk can reach the server. This cannot be undone.`}
        </p>
      </ConfirmDialog>
    </section>
  )
}

/**
 * Where ProseMirror draws the text, opened with the post's HTML. Both are done here rather than by TipTap, which
 * walks the parsed HTML once more to drop whitespace ProseMirror drops anyway, and whose EditorContent draws the
 * whole document a second time to make room for React node views (this editor has none). For a long post, that was
 * half the time it took to open.
 */
function EditorText({ editor, html, hidden }: { editor: Editor; html: string; hidden: boolean }) {
  const place = useRef<HTMLDivElement>(null)
  const opened = useRef(false)
  // The text the editor opens with; what the editor holds afterwards is its own.
  const [openingHtml] = useState(html)
  useLayoutEffect(() => {
    if (!opened.current) {
      opened.current = true
      // Before the view exists, this only sets the state it will be made with.
      editor.view.updateState(EditorState.create({ schema: editor.schema, doc: parseDocument(openingHtml, editor.schema) }))
    }
    editor.mount(place.current!)
    return () => editor.unmount()
  }, [editor, openingHtml])
  return <div ref={place} className={classNames('post-editor__content', hidden && 'post-editor__content--hidden')} />
}

function SaveIndicator({ session }: { session: DraftSession }) {
  const save = useStore(session.state, (state) => state.save)
  switch (save.kind) {
    case 'saved':
      return (
        <span className="save-indicator" role="status" title={save.at ? `Saved on this computer: ${formatExact(save.at)}` : undefined}>
          Saved locally
        </span>
      )
    case 'unsaved':
      return (
        <span className="save-indicator save-indicator--pending" role="status">
          Edited
        </span>
      )
    case 'saving':
      return (
        <span className="save-indicator save-indicator--pending" role="status">
          Saving…
        </span>
      )
    case 'failed':
      return (
        <span className="save-indicator save-indicator--failed" role="alert">
          Not saved: {save.error.message}{' '}
          <button type="button" className="save-indicator__retry" onClick={() => void session.flush()}>
            Try again
          </button>
        </span>
      )
  }
}

/** Counting 50,000 words takes a few milliseconds: done once typing pauses, never per keystroke. */
const WORD_COUNT_PAUSE_MS = 400

function WordCount({ editor, source }: { editor: Editor; source: string | null }) {
  const count = useSyncExternalStore(
    useCallback((notify: () => void) => followWordCount(editor, notify), [editor]),
    () => wordCounts.get(editor) ?? null,
  )
  if (source !== null) return <span className="word-count">Editing HTML</span>
  return (
    <span className="word-count" aria-live="off">
      {count === null ? 'Counting words…' : count === 1 ? '1 word' : `${count.toLocaleString()} words`}
    </span>
  )
}

const wordCounts = new WeakMap<Editor, number>()

function followWordCount(editor: Editor, notify: () => void): () => void {
  const count = () => {
    if (editor.isDestroyed) return
    wordCounts.set(editor, countWords(editor.state.doc))
    notify()
  }
  const recount = new AfterPause(WORD_COUNT_PAUSE_MS, count)
  const onUpdate = () => recount.poke()
  editor.on('update', onUpdate)
  // The first count waits until the post is on screen and the browser has nothing else to do.
  const idle = wordCounts.has(editor) ? null : requestIdleCallback(count, { timeout: 1_000 })
  return () => {
    editor.off('update', onUpdate)
    recount.cancel()
    if (idle !== null) cancelIdleCallback(idle)
  }
}

const PUBLISH_KEYS = shortcut(SHORTCUTS.publish.keys)

interface Shortcuts {
  save(): void
  /** Answers whether the keys were for it. */
  publish(): boolean
  link(): void
  find(): void
  replace(): void
}

/**
 * Ctrl/Cmd+S saves, Ctrl/Cmd+K edits the link, Ctrl/Cmd+F finds and Ctrl/Cmd+H replaces, wherever the focus is in the
 * window; Ctrl/Cmd+Enter publishes from the post only. Caught before the editor sees them: ProseMirror would otherwise
 * take Ctrl+Enter as a line break.
 */
function useShortcuts(shortcuts: Shortcuts): void {
  const latest: RefObject<Shortcuts> = useRef(shortcuts)
  useEffect(() => {
    latest.current = shortcuts
  })
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const { save, publish, link, find, replace } = latest.current
      const actions: [string, () => boolean | void][] = [
        [SHORTCUTS.save.keys, save],
        [SHORTCUTS.publish.keys, publish],
        [SHORTCUTS.insertLink.keys, link],
        [SHORTCUTS.find.keys, find],
        [SHORTCUTS.replace.keys, replace],
      ]
      const action = actions.find(([keys]) => matchesKeys(event, keys))?.[1]
      if (!action || action() === false) return
      event.preventDefault()
      event.stopPropagation()
    }
    window.addEventListener('keydown', onKeyDown, true)
    return () => window.removeEventListener('keydown', onKeyDown, true)
  }, [])
}
