// The draft as the weblog will show it: in a sandboxed frame that runs no script, inside the frame the weblog's page
// puts around a post, with the weblog's stylesheets (read and cached by the main process), or a neutral style that
// says why. Drawn again once typing pauses, when shown beside the editor.
import type { Editor } from '@tiptap/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { WeblogAddress, WeblogLook } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { Button, ErrorNotice, Spinner } from '../../ui'
import { localPreviewUrl } from './extensions'
import { documentHtml } from './html'
import { AfterPause } from './pause'
import { lookOf, previewDocument, type PreviewPost } from './preview-document'
import { readWeblogLook } from './preview-look'
import { previewUrlOf } from './requests'
import { formatExact } from './time'
import './post-preview.css'

/** Long enough that a burst of typing draws the preview once. */
const REDRAW_PAUSE_MS = 300

export interface PostPreviewProps {
  weblog: WeblogAddress
  title: string
  editor: Editor
  /** The HTML source as typed, while the source view is open: then it is the post. */
  source: string | null
}

type LookState = { status: 'loading' } | { status: 'loaded'; look: WeblogLook } | { status: 'failed'; error: ApiError }

export function PostPreview({ weblog, title, editor, source }: PostPreviewProps) {
  const [state, setState] = useState<LookState>({ status: 'loading' })
  const [editorHtml, setEditorHtml] = useState(() => documentHtml(editor.state.doc))
  const { accountId, weblogPostUri } = weblog

  const load = useCallback(
    (refresh: boolean) => {
      let current = true
      readWeblogLook({ accountId, weblogPostUri }, refresh).then(
        (look) => current && setState({ status: 'loaded', look }),
        (error: unknown) => current && setState({ status: 'failed', error: toApiError(error) }),
      )
      return () => {
        current = false
      }
    },
    [accountId, weblogPostUri],
  )
  useEffect(() => load(false), [load])

  // The editor's text changes without drawing this component: a pause in typing asks for a new drawing.
  useEffect(() => {
    const redraw = new AfterPause(REDRAW_PAUSE_MS, () => !editor.isDestroyed && setEditorHtml(documentHtml(editor.state.doc)))
    const onUpdate = () => redraw.poke()
    editor.on('update', onUpdate)
    return () => {
      editor.off('update', onUpdate)
      redraw.cancel()
    }
  }, [editor])

  return (
    <section className="post-preview" aria-label="Preview">
      {state.status === 'loading' && <Spinner label="Reading the weblog’s look…" />}
      {state.status === 'failed' && <ErrorNotice error={state.error} onRetry={() => load(true)} className="post-preview__notice" />}
      {state.status === 'loaded' && (
        <>
          <div className="post-preview__bar">
            <p className="post-preview__about" role="status">
              {state.look.note ?? (state.look.fetchedAt ? `In the weblog’s style, as read ${formatExact(state.look.fetchedAt)}.` : 'In the weblog’s style.')}
            </p>
            <Button variant="quiet" onClick={() => load(true)}>
              Read the weblog’s style again
            </Button>
          </div>
          <PreviewFrame look={state.look} post={{ title, html: source ?? editorHtml, fromEditor: source === null }} />
        </>
      )}
    </section>
  )
}

interface PreviewFrameProps {
  look: WeblogLook
  post: PreviewPost
}

function PreviewFrame({ look, post }: PreviewFrameProps) {
  const { title, html, fromEditor } = post
  const frame = useRef<HTMLIFrameElement>(null)
  const { frame: postFrame, css } = lookOf(look)

  useEffect(() => {
    const iframe = frame.current!
    let current = true
    const scrolled = iframe.contentWindow?.scrollY ?? 0
    iframe.dataset['ready'] = 'false'
    void previewDocument(postFrame, { title, html, fromEditor }, (hash) => localPreviewUrl(hash, previewUrlOf)).then((markup) => {
      if (!current) return
      iframe.addEventListener(
        'load',
        () => {
          if (!current) return
          adoptStyles(iframe, css)
          iframe.contentWindow?.scrollTo(0, scrolled)
          iframe.dataset['ready'] = 'true'
        },
        { once: true },
      )
      iframe.srcdoc = markup
    })
    return () => {
      current = false
    }
  }, [postFrame, css, title, html, fromEditor])

  return (
    <iframe
      ref={frame}
      className="post-preview__frame"
      title="Preview of the post in the weblog’s style"
      // No allow-scripts: nothing in the preview runs. Same origin only so that the editor can give it the weblog's
      // stylesheet (adoptStyles): a srcdoc frame inherits the app's policy, which refuses a <style> written in it.
      sandbox="allow-same-origin"
    />
  )
}

/** The weblog's sheet, constructed in the frame's own window (a sheet cannot be shared across documents). */
function adoptStyles(iframe: HTMLIFrameElement, css: string): void {
  const view = iframe.contentWindow as (Window & typeof globalThis) | null
  const page = iframe.contentDocument
  if (!view || !page) return
  const sheet = new view.CSSStyleSheet()
  // The canvas a browser gives a page that sets none, so the preview never shows the app's own background through.
  sheet.replaceSync(`html { background-color: Canvas; color: CanvasText }\n${css}`)
  page.adoptedStyleSheets = [sheet]
}
