// A post's HTML in and out of the editor: the document as saved (and shown in the source view), pasted HTML made
// safe, and the word count.
import createDOMPurify from 'dompurify'
import { DOMParser as ProseMirrorParser, DOMSerializer, type Node, type Schema } from '@tiptap/pm/model'

/**
 * Serialised into a document that is never shown: an <img> made in the page's own document starts loading at once,
 * and `blogdesk-media:` is no address the page can load.
 */
const inertDocument = document.implementation.createHTMLDocument('')
const serializers = new WeakMap<Schema, DOMSerializer>()

/**
 * Each top-level block's HTML, kept while the block lives. A document's nodes never change, and an edit keeps the
 * blocks it did not touch as the same objects: a save after typing serialises the blocks typed in, not the whole post
 * (at 50,000 words, a task long enough to delay the next key).
 */
const blockHtml = new WeakMap<Node, string>()

/** The post's HTML as saved: one top-level block per line, so the source view and the weblog's copy read well. */
export function documentHtml(doc: Node): string {
  if (isEmptyDocument(doc)) return ''
  let serializer = serializers.get(doc.type.schema)
  if (!serializer) {
    serializer = DOMSerializer.fromSchema(doc.type.schema)
    serializers.set(doc.type.schema, serializer)
  }
  const container = inertDocument.createElement('div')
  const blocks: string[] = []
  doc.forEach((block) => {
    let html = blockHtml.get(block)
    if (html === undefined) {
      container.replaceChildren(serializer.serializeNode(block, { document: inertDocument }))
      html = container.innerHTML
      blockHtml.set(block, html)
    }
    blocks.push(html)
  })
  return blocks.join('\n')
}

const parsers = new WeakMap<Schema, ProseMirrorParser>()

/**
 * The post's HTML as a document of `schema`, parsed in a page that is never shown (nothing in it loads or runs).
 * ProseMirror's parser drops what the schema cannot hold, and the whitespace between blocks.
 */
export function parseDocument(html: string, schema: Schema): Node {
  let parser = parsers.get(schema)
  if (!parser) {
    parser = ProseMirrorParser.fromSchema(schema)
    parsers.set(schema, parser)
  }
  return parser.parse(new DOMParser().parseFromString(html, 'text/html').body)
}

/** A document with nothing written in it: one empty paragraph. */
export function isEmptyDocument(doc: Node): boolean {
  return doc.childCount === 1 && doc.firstChild!.isTextblock && doc.firstChild!.content.size === 0
}

const purify = createDOMPurify(window)

/** Links and images may point at the web, at mail, or at an image of this post not yet uploaded. */
const ALLOWED_URI = /^(?:(?:https?|mailto|tel|blogdesk-media):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i

/**
 * HTML from the clipboard or the source view, made safe before the editor parses it: scripts, handlers, styles and
 * forms go, and so do id and name, with which it could shadow the page's globals (DOM clobbering). ProseMirror's own
 * clipboard markup (data-pm-slice) stays, so copying within the editor keeps its shape.
 */
export function sanitizeHtml(html: string): string {
  return purify.sanitize(html, {
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'dialog'],
    FORBID_ATTR: ['style', 'srcset', 'id', 'name'],
  })
}

/** Letters and digits, joined by apostrophes or hyphens: the same words the history panel counts. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu

/** Each top-level block's word count, kept while the block lives (as its HTML above). */
const blockWords = new WeakMap<Node, number>()

/** Counted block by block: blocks are apart (as a space), so no word spans two of them. */
export function countWords(doc: Node): number {
  let count = 0
  doc.forEach((block) => {
    let words = blockWords.get(block)
    if (words === undefined) {
      words = block.textBetween(0, block.content.size, ' ', ' ').match(WORD)?.length ?? 0
      blockWords.set(block, words)
    }
    count += words
  })
  return count
}
