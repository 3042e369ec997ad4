// The preview's document: the draft put into the frame the weblog's page has around a post, as HTML for a sandboxed
// frame's srcdoc. Built in a document that is never shown (nothing in it loads), from the post as the editor's schema
// writes it (or the source view's HTML, sanitised as pasted HTML is), with images not yet uploaded shown from their
// local previews.
import type { FrameElement, PostFrame, WeblogLook } from '../../../../src-shared/contract'
import { sanitizeHtml } from './html'

/**
 * The frame's own policy, on top of the one it inherits from the app's page: nothing loads but images (the post's
 * own, and the theme's backgrounds, as the editor shows them); no script, no style from the document itself (the
 * weblog's sheet is adopted by the editor, see PostPreview), no form.
 */
export const PREVIEW_CONTENT_SECURITY_POLICY = "default-src 'none'; img-src data: https: http:; base-uri 'none'; form-action 'none'"

/** Tags the frame may be made of; anything else the page had there is drawn as a div. */
const FRAME_TAGS = new Set(['div', 'main', 'article', 'section', 'aside', 'td', 'blockquote', 'li', 'header', 'footer', 'nav', 'span', 'a', 'p', 'ul', 'ol', 'center', 'table', 'tbody', 'tr', 'strong', 'em', 'b', 'i', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'])

/** Where a post goes when the weblog's look is unknown: a plain article, for the neutral style below. */
const NEUTRAL_FRAME: PostFrame = {
  root: { tag: 'html', id: null, className: null },
  body: { tag: 'body', id: null, className: null },
  entry: [
    { tag: 'main', id: null, className: null },
    { tag: 'article', id: null, className: null },
  ],
  title: [{ tag: 'h1', id: null, className: null }],
  content: [{ tag: 'div', id: null, className: null }],
}

/** A quiet reading style, light or dark with the app, for a weblog whose own could not be read. */
export const NEUTRAL_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.6; }
body { margin: 0; padding: 2rem 1.5rem; }
main { max-width: 40rem; margin: 0 auto; }
h1 { font-size: 1.8rem; line-height: 1.25; margin: 0 0 1.25rem; }
img { max-width: 100%; height: auto; }
blockquote { margin: 1rem 0; padding-left: 1rem; border-left: 3px solid #8888; }
pre { overflow-x: auto; }
`

export interface PreviewPost {
  title: string
  html: string
  /**
   * The HTML is the editor's document written out: only what its schema holds (ProseMirror's parser dropped the
   * rest), from text that was sanitised on its way in (pasted, or from the source view). The same HTML the weblog
   * gets, so it is shown as it is; anything else (the source view's HTML as typed) is sanitised here first.
   */
  fromEditor: boolean
}

/** The look's frame and sheet, or the neutral ones. */
export function lookOf(look: WeblogLook | null): { frame: PostFrame; css: string } {
  return look?.style ? { frame: look.style.frame, css: look.style.css } : { frame: NEUTRAL_FRAME, css: NEUTRAL_CSS }
}

/** Where the post's HTML goes in the frame's markup: a comment, which no serialised frame element can contain. */
const CONTENT_PLACE = '<!--post-->'
/** An image of the post not yet uploaded, as the sanitiser writes it: quotes in attribute values come out as &quot;. */
const LOCAL_IMAGE_SOURCE = /(<img\b[^>]*?\ssrc=")blogdesk-media:([0-9a-f]{1,64})"/g

/**
 * The whole document for the frame's srcdoc; `localImage` gives the URL showing `blogdesk-media:<hash>`. The post's
 * HTML, sanitised, goes into the frame's markup as text: parsing and writing out 10,000 words once more would take
 * longer than the frame takes to draw them.
 */
export async function previewDocument(frame: PostFrame, post: PreviewPost, localImage: (hash: string) => Promise<string>): Promise<string> {
  const page = document.implementation.createHTMLDocument('')
  const root = page.documentElement
  nameLike(root, frame.root)
  const policy = page.createElement('meta')
  policy.httpEquiv = 'Content-Security-Policy'
  policy.content = PREVIEW_CONTENT_SECURITY_POLICY
  // A link clicked in the preview would leave it: opened in a new window, which the sandbox refuses.
  const base = page.createElement('base')
  base.target = '_blank'
  page.head.replaceChildren(metaCharset(page), policy, base)
  nameLike(page.body, frame.body)

  const entry = appendPath(page, page.body, frame.entry)
  const title = appendPath(page, entry, frame.title.length > 0 ? frame.title : [{ tag: 'h1', id: null, className: null }])
  title.textContent = post.title.trim() || 'Untitled'
  appendPath(page, entry, frame.content).append(page.createComment('post'))
  const content = await withLocalImages(post.fromEditor ? post.html : sanitizeHtml(post.html), localImage)
  const markup = root.outerHTML
  const place = markup.lastIndexOf(CONTENT_PLACE)
  return `<!DOCTYPE html>\n${markup.slice(0, place)}${content}${markup.slice(place + CONTENT_PLACE.length)}`
}

/** The post's images not yet uploaded, shown from their previews; one whose preview is missing shows its alt text. */
async function withLocalImages(html: string, localImage: (hash: string) => Promise<string>): Promise<string> {
  const hashes = new Set([...html.matchAll(LOCAL_IMAGE_SOURCE)].map((match) => match[2]!))
  if (hashes.size === 0) return html
  const urls = new Map(
    await Promise.all([...hashes].map(async (hash) => [hash, await localImage(hash).catch(() => '')] as const)),
  )
  return html.replace(LOCAL_IMAGE_SOURCE, (_whole, start: string, hash: string) => `${start}${escapeAttribute(urls.get(hash) ?? '')}"`)
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
}

function metaCharset(page: Document): HTMLMetaElement {
  const meta = page.createElement('meta')
  meta.setAttribute('charset', 'utf-8')
  return meta
}

/** Appends the path's elements, each inside the one before, and gives the innermost (or `parent` for none). */
function appendPath(page: Document, parent: Element, path: readonly FrameElement[]): Element {
  let at = parent
  for (const step of path) {
    const element = page.createElement(FRAME_TAGS.has(step.tag) ? step.tag : 'div')
    nameLike(element, step)
    at.append(element)
    at = element
  }
  return at
}

function nameLike(element: Element, step: FrameElement): void {
  if (step.id) element.id = step.id
  if (step.className) element.className = step.className
}
