// Post bodies are markup written by anyone with an API password, shown to anyone who opens the page. The page's
// CSP already blocks every script; this is the second wall: only an allow-list of elements and attributes passes,
// links and images only to harmless schemes, and the result is re-serialised from tokens (every tag balanced,
// every text and attribute re-escaped), so nothing the author wrote reaches the browser unexamined.
import type { ContentKind } from '../store'
import { escapeHtml } from './page'

const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  abbr: ['title'],
  b: [],
  blockquote: ['cite'],
  br: [],
  caption: [],
  cite: [],
  code: [],
  dd: [],
  del: [],
  dfn: [],
  div: [],
  dl: [],
  dt: [],
  em: [],
  figcaption: [],
  figure: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  i: [],
  img: ['src', 'alt', 'title', 'width', 'height'],
  ins: [],
  kbd: [],
  li: [],
  mark: [],
  ol: ['start'],
  p: [],
  pre: [],
  q: ['cite'],
  s: [],
  samp: [],
  small: [],
  span: [],
  strong: [],
  sub: [],
  sup: [],
  table: [],
  tbody: [],
  td: ['colspan', 'rowspan'],
  tfoot: [],
  th: ['colspan', 'rowspan', 'scope'],
  thead: [],
  tr: [],
  u: [],
  ul: [],
  var: [],
}
const VOID_ELEMENTS = new Set(['br', 'hr', 'img'])
/** Elements whose content HTML reads as raw text up to the end tag: skipped whole. */
const RAW_TEXT_ELEMENTS = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
])
/** Elements dropped together with everything inside them, since their content means nothing outside them. */
const DROPPED_ELEMENTS = new Set(['head', 'template', 'svg', 'math', 'object', 'embed', 'applet', 'select', 'frameset'])
const URL_ATTRIBUTES = new Set(['href', 'src', 'cite'])
const LINK_SCHEMES = new Set(['http', 'https', 'mailto'])
const IMAGE_SCHEMES = new Set(['http', 'https'])

const TAG_NAME = /[A-Za-z][^\s/>]*/y
const ATTRIBUTE = /[\s/]*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/y
const CHARACTER_REFERENCE = /&(?:#\d{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/y

/** A post's body or an item's notes as safe HTML: markup sanitised, plain text with its paragraphs and line breaks. */
export function contentHtml(kind: ContentKind, content: string): string {
  if (kind === 'xhtml') return sanitizeHtml(content)
  return content
    .split(/\r?\n\s*\r?\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\r?\n/g, '<br>\n')}</p>`)
    .join('\n')
}

/** The safe subset of an HTML or XHTML fragment, as HTML. */
export function sanitizeHtml(markup: string): string {
  const output: string[] = []
  const open: string[] = []
  let dropping: { name: string; depth: number } | null = null
  let index = 0

  while (index < markup.length) {
    const lt = markup.indexOf('<', index)
    const textEnd = lt === -1 ? markup.length : lt
    if (textEnd > index) {
      if (!dropping) output.push(escapeTextKeepingReferences(markup.slice(index, textEnd)))
      index = textEnd
      continue
    }

    if (markup.startsWith('<!--', index)) {
      index = skipPast(markup, '-->', index + 4)
      continue
    }
    if (markup.startsWith('<![CDATA[', index)) {
      const end = markup.indexOf(']]>', index + 9)
      const text = markup.slice(index + 9, end === -1 ? markup.length : end)
      if (!dropping) output.push(escapeHtml(text))
      index = end === -1 ? markup.length : end + 3
      continue
    }
    if (markup.startsWith('<!', index) || markup.startsWith('<?', index)) {
      index = skipPast(markup, '>', index + 2)
      continue
    }

    const closing = markup[index + 1] === '/'
    TAG_NAME.lastIndex = index + (closing ? 2 : 1)
    const nameMatch = TAG_NAME.exec(markup)
    if (!nameMatch) {
      // A "<" that starts no tag is text, as in HTML.
      if (!dropping) output.push('&lt;')
      index++
      continue
    }
    const name = nameMatch[0].toLowerCase()
    const tag = readTagRest(markup, TAG_NAME.lastIndex)
    index = tag.end

    if (closing) {
      if (dropping) {
        if (name === dropping.name && --dropping.depth === 0) dropping = null
        continue
      }
      const at = open.lastIndexOf(name)
      if (at === -1) continue
      for (const element of open.splice(at).reverse()) output.push(`</${element}>`)
      continue
    }

    if (dropping) {
      if (name === dropping.name && !tag.selfClosing) dropping.depth++
      continue
    }
    if (RAW_TEXT_ELEMENTS.has(name)) {
      if (!tag.selfClosing) index = skipRawText(markup, name, index)
      continue
    }
    if (DROPPED_ELEMENTS.has(name)) {
      if (!tag.selfClosing) dropping = { name, depth: 1 }
      continue
    }
    const allowed = ALLOWED_ATTRIBUTES[name]
    if (!allowed) continue // unknown element: its tags go, its content stays

    output.push(`<${name}${safeAttributes(name, tag.attributes, allowed)}>`)
    if (VOID_ELEMENTS.has(name)) continue
    if (tag.selfClosing) output.push(`</${name}>`)
    else open.push(name)
  }

  for (const element of open.reverse()) output.push(`</${element}>`)
  return output.join('')
}

function skipPast(markup: string, terminator: string, from: number): number {
  const end = markup.indexOf(terminator, from)
  return end === -1 ? markup.length : end + terminator.length
}

function skipRawText(markup: string, name: string, from: number): number {
  const end = markup.toLowerCase().indexOf(`</${name}`, from)
  return end === -1 ? markup.length : skipPast(markup, '>', end)
}

interface TagRest {
  attributes: [string, string][]
  selfClosing: boolean
  /** Where the markup after the tag starts. */
  end: number
}

function readTagRest(markup: string, from: number): TagRest {
  const attributes: [string, string][] = []
  let index = from
  for (;;) {
    ATTRIBUTE.lastIndex = index
    const match = ATTRIBUTE.exec(markup)
    if (!match || match[0].length === 0) break
    attributes.push([match[1]!.toLowerCase(), match[2] ?? match[3] ?? match[4] ?? ''])
    index = ATTRIBUTE.lastIndex
  }
  const close = markup.indexOf('>', index)
  if (close === -1) return { attributes, selfClosing: false, end: markup.length }
  return { attributes, selfClosing: markup.slice(index, close).trim() === '/', end: close + 1 }
}

function safeAttributes(element: string, attributes: [string, string][], allowed: readonly string[]): string {
  const kept = new Map<string, string>()
  for (const [name, raw] of attributes) {
    if (!allowed.includes(name) || kept.has(name)) continue
    const value = decodeReferences(raw)
    const isImage = element === 'img'
    if (URL_ATTRIBUTES.has(name) && !isSafeUrl(value, isImage ? IMAGE_SCHEMES : LINK_SCHEMES, isImage)) continue
    kept.set(name, value)
  }
  if (element === 'a' && kept.has('href')) kept.set('rel', 'nofollow noopener noreferrer')
  return [...kept].map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join('')
}

/**
 * Browsers ignore ASCII whitespace and control characters anywhere in a URL's scheme, so they are removed before
 * looking for one. A URL without a scheme is relative to the page, and harmless.
 */
function isSafeUrl(url: string, schemes: ReadonlySet<string>, allowDataImages: boolean): boolean {
  const compact = Array.from(url)
    .filter((character) => character > ' ' && character !== '\u007f')
    .join('')
    .toLowerCase()
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact)?.[1]
  if (scheme === undefined) return true
  if (allowDataImages && scheme === 'data') return /^data:image\/(?:png|gif|jpeg|webp);/.test(compact)
  return schemes.has(scheme)
}

// Text keeps the author's character references (&nbsp; &eacute; &#8212;); any other "&" is a literal one.
function escapeTextKeepingReferences(text: string): string {
  let escaped = ''
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!
    if (character === '&') {
      CHARACTER_REFERENCE.lastIndex = index
      const reference = CHARACTER_REFERENCE.exec(text)
      if (reference) {
        escaped += reference[0]
        index += reference[0].length - 1
        continue
      }
    }
    escaped += escapeHtml(character)
  }
  return escaped
}

const NAMED_REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }
// Browsers also decode references without their semicolon in attribute values.
const ATTRIBUTE_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]+));?/g

/**
 * Attribute values are judged as the browser would read them, so references are decoded first. Named references
 * beyond the common few stay literal: the value is re-escaped on output, so the browser reads exactly what was judged.
 */
export function decodeReferences(value: string): string {
  return value.replace(ATTRIBUTE_REFERENCE, (whole, decimal?: string, hex?: string, named?: string) => {
    if (named !== undefined) return NAMED_REFERENCES[named.toLowerCase()] ?? whole
    const codePoint = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16)
    return codePoint > 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff)
      ? String.fromCodePoint(codePoint)
      : '\ufffd'
  })
}
