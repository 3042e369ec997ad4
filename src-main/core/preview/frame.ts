// Where one post sits on a weblog's page: the chain of elements from <body> down to the element holding a post's
// text, and the heading holding its title. Found first by matching a post Blogdesk knows (from the weblog's feed)
// against the page's text, which works whatever a theme calls its classes; then, on pages that show no known post
// whole, by the class names weblog engines commonly give an entry (hAtom's, WordPress's, Movable Type's).
import type { FrameElement, PostFrame } from '../../../src-shared/contract'
import { attribute, contains, elementsOf, parentElement, parseHtml, readText, type HtmlDocument, type HtmlElement } from './html-tree'

export interface KnownPost {
  title: string
  /** The post's HTML as the feed carries it. */
  content: string
}

/** How much of a post's text (its spaces left out), from its start and from its end, one element of the page must hold. */
const SNIPPET_CHARS = 60
/** Places on the page where a post's opening is looked for (a frontpage may show its excerpt before the post). */
const MAX_OCCURRENCES = 20
/** Elements that hold a post's text, but inside a paragraph or a list: the frame is the block that holds them. */
const CONTAINERS = new Set(['div', 'main', 'article', 'section', 'aside', 'td', 'body', 'blockquote', 'li'])
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])
/** The frame's elements become these tags in the preview; anything else (a form, an object) becomes a div. */
const FRAME_TAGS = new Set([...CONTAINERS, ...HEADINGS, 'header', 'footer', 'nav', 'span', 'a', 'p', 'ul', 'ol', 'center', 'table', 'tbody', 'tr', 'strong', 'em', 'b', 'i'])
const CONTENT_CLASSES = ['entry-content', 'post-content', 'entry-body', 'post-body', 'asset-body', 'e-content', 'article-content', 'entry-text', 'post-entry', 'content']
const ENTRY_CLASSES = ['hentry', 'h-entry', 'entry', 'post', 'asset', 'type-post', 'blog-post', 'article']

/** The frame around a known post on this page, or null when none of them is shown here whole. */
export function frameOfKnownPost(document: HtmlDocument, posts: readonly KnownPost[]): PostFrame | null {
  const index = indexText(document)
  for (const post of posts) {
    const text = withoutSpaces(readText(parseHtml(post.content)))
    if (text.length === 0) continue
    const title = normalised(post.title)
    const candidates = blocksHolding(index, text)
    // An excerpt of the post elsewhere on the page (a sidebar's "recent posts") finds the post's heading only far up
    // the page: the post is where its title is nearest, in the deepest entry.
    const entries = candidates.flatMap((content) => {
      const found = title ? entryWithTitle(content, (heading) => normalised(readText(heading)) === title) : null
      return found ? [{ ...found, content, depth: depthOf(found.entry) }] : []
    })
    const nearest = entries.reduce<(typeof entries)[number] | null>((best, entry) => (!best || entry.depth > best.depth ? entry : best), null)
    if (nearest) return frameOf(document, nearest.entry, nearest.heading, nearest.content)
    const [content] = candidates
    if (content) return frameOf(document, parentElement(content) ?? content, null, content)
  }
  return null
}

/** The page's text without spaces, once, and where each block's text lies in it: one pass, however deep the page. */
interface TextIndex {
  text: string
  blocks: { element: HtmlElement; start: number; end: number; depth: number }[]
}

function indexText(document: HtmlDocument): TextIndex {
  const parts: string[] = []
  let length = 0
  const blocks: TextIndex['blocks'] = []
  const walk = (nodes: readonly unknown[], depth: number) => {
    for (const node of nodes as { type: string; data?: string; children?: unknown[] }[]) {
      if (node.type === 'text') {
        const part = withoutSpaces(node.data ?? '')
        parts.push(part)
        length += part.length
      } else if (node.type === 'tag') {
        const element = node as unknown as HtmlElement
        const start = length
        walk(element.children, depth + 1)
        if (CONTAINERS.has(element.name)) blocks.push({ element, start, end: length, depth })
      }
      // Scripts, styles and comments hold no text a reader sees.
    }
  }
  walk(document.children, 0)
  return { text: parts.join(''), blocks }
}

/**
 * For each place the post's first words are found, the deepest block whose text runs from there to its last words and
 * is not much longer than the post (so not a page of several posts, one's opening and another's ending).
 */
function blocksHolding(index: TextIndex, text: string): HtmlElement[] {
  const start = text.slice(0, SNIPPET_CHARS)
  const end = text.slice(-SNIPPET_CHARS)
  const longest = text.length * 1.5 + 200
  const found: HtmlElement[] = []
  for (let from = index.text.indexOf(start), tries = 0; from !== -1 && tries < MAX_OCCURRENCES; from = index.text.indexOf(start, from + 1), tries++) {
    const to = index.text.indexOf(end, from)
    if (to === -1) break
    let best: TextIndex['blocks'][number] | null = null
    for (const block of index.blocks) {
      if (block.start <= from && block.end >= to + end.length && block.end - block.start <= longest && (!best || block.depth > best.depth)) best = block
    }
    if (best && !found.includes(best.element)) found.push(best.element)
  }
  return found
}

/** The frame around the first element with a class weblog engines give an entry's text, or null. */
export function frameByClassNames(document: HtmlDocument): PostFrame | null {
  const elements = elementsOf(document)
  for (const name of CONTENT_CLASSES) {
    const content = elements.find((element) => classesOf(element).includes(name))
    if (!content) continue
    const entry = closest(content, (element) => element.name === 'article' || ENTRY_CLASSES.some((entryClass) => classesOf(element).includes(entryClass)))
    const found = entryWithTitle(content, () => true, entry)
    return frameOf(document, found?.entry ?? entry ?? parentElement(content) ?? content, found?.heading ?? null, content)
  }
  const article = elements.find((element) => element.name === 'article')
  return article ? frameOf(document, article, null, article) : null
}

/**
 * The nearest ancestor of the post's text that also holds a heading matching the title (outside the text): the entry.
 * Stops at `limit` when given.
 */
function entryWithTitle(
  content: HtmlElement,
  matches: (heading: HtmlElement) => boolean,
  limit: HtmlElement | null = null,
): { entry: HtmlElement; heading: HtmlElement } | null {
  for (let entry = parentElement(content); entry; entry = parentElement(entry)) {
    const heading = elementsOf(entry).find(
      (element) => (HEADINGS.has(element.name) || classesOf(element).some((name) => /title/.test(name))) && !contains(content, element) && !contains(element, content) && matches(element),
    )
    if (heading) return { entry, heading }
    if (entry === limit) return null
  }
  return null
}

function frameOf(document: HtmlDocument, entry: HtmlElement, heading: HtmlElement | null, content: HtmlElement): PostFrame {
  const elements = elementsOf(document)
  const root = elements.find((element) => element.name === 'html') ?? null
  const body = elements.find((element) => element.name === 'body') ?? null
  return {
    root: frameElement(root, 'html'),
    body: frameElement(body, 'body'),
    entry: pathBetween(body, entry),
    title: heading ? pathBetween(entry, innermostWithSameText(heading)) : [],
    content: pathBetween(entry, content),
  }
}

/** The elements below `top` down to `bottom` (itself included, unless it is `top`), outermost first. */
function pathBetween(top: HtmlElement | null, bottom: HtmlElement): FrameElement[] {
  const path: FrameElement[] = []
  for (let at: HtmlElement | null = bottom; at && at !== top; at = parentElement(at)) {
    if (at.name === 'body' || at.name === 'html') break
    path.unshift(frameElement(at, 'div'))
  }
  return path
}

/** A title's heading often wraps a link to the post (`h2 > a`): the link's styles are the title's too. */
function innermostWithSameText(heading: HtmlElement): HtmlElement {
  let at = heading
  for (;;) {
    const only = at.children.filter((child) => 'name' in child || readTextOf(child) !== '')
    if (only.length !== 1 || !('name' in only[0]!)) return at
    at = only[0] as HtmlElement
  }
}

function readTextOf(node: unknown): string {
  return ((node as { data?: string }).data ?? '').trim()
}

function frameElement(element: HtmlElement | null, fallbackTag: string): FrameElement {
  if (!element) return { tag: fallbackTag, id: null, className: null }
  return {
    tag: FRAME_TAGS.has(element.name) || element.name === fallbackTag ? element.name : 'div',
    id: cleanName(attribute(element, 'id')),
    className: cleanName(attribute(element, 'class')),
  }
}

/** Ids and classes as selectors use them: names, nothing that could be markup. */
function cleanName(value: string | null): string | null {
  const cleaned = value?.replace(/[^\w\s-]/g, '').replace(/\s+/g, ' ').trim().slice(0, 256) ?? ''
  return cleaned === '' ? null : cleaned
}

function classesOf(element: HtmlElement): string[] {
  return (attribute(element, 'class') ?? '').toLowerCase().split(/\s+/).filter(Boolean)
}

function closest(element: HtmlElement, matches: (element: HtmlElement) => boolean): HtmlElement | null {
  for (let at = parentElement(element); at; at = parentElement(at)) if (matches(at)) return at
  return null
}

/** Feeds and pages space a post's blocks differently ("</p>\n<p>" or "</p><p>"): its words are compared without. */
function withoutSpaces(text: string): string {
  return text.replace(/\s+/g, '')
}

function depthOf(element: HtmlElement): number {
  let depth = 0
  for (let at = parentElement(element); at; at = parentElement(at)) depth += 1
  return depth
}

function normalised(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase()
}
