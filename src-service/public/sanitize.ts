// Post bodies are markup written by anyone with an API password, shown to anyone who opens the page, and sent to
// third-party clients as `renderedContent`, where no CSP of ours protects them. So only an allow-list of elements and
// attributes passes, links and images only to harmless schemes, and the result is re-serialised by sanitize-html
// from htmlparser2's HTML tokens (every tag balanced, every text and attribute re-escaped) in time linear in the
// markup, so that no post can stall the service.
import sanitize from 'sanitize-html'
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
  figure: ['class'],
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
/**
 * Dropped together with everything inside them: raw-text elements (their content is not markup to a browser), and
 * elements whose content means nothing outside them.
 */
const DROPPED_ELEMENTS = new Set([
  ...['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext'],
  ...['head', 'template', 'svg', 'math', 'object', 'embed', 'applet', 'select', 'frameset'],
])
const LINK_SCHEMES = new Set(['http', 'https', 'mailto'])
const IMAGE_DATA = /^data:image\/(?:png|gif|jpeg|webp);/
const LINK_REL = 'nofollow noopener noreferrer'

const OPTIONS: sanitize.IOptions = {
  allowedTags: Object.keys(ALLOWED_ATTRIBUTES),
  allowedAttributes: {
    ...Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([name, allowed]) => [name, [...allowed]])),
    a: [...ALLOWED_ATTRIBUTES['a']!, { name: 'rel', values: [LINK_REL] }],
  },
  // An image's alignment, as Blogdesk's editor writes it (docs/PROTOCOL.md, "Images in a post"): these classes only.
  allowedClasses: { figure: ['alignleft', 'aligncenter', 'alignright', 'alignfull'] },
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  nonTextTags: [...DROPPED_ELEMENTS],
  exclusiveFilter: (frame) => DROPPED_ELEMENTS.has(frame.tag),
  enforceHtmlBoundary: false,
  // XHTML bodies may carry CDATA sections: their text is kept, as an XML reader would.
  parser: { recognizeCDATA: true },
  transformTags: {
    // Only a link that stays gets rel; the author's own rel never does.
    a: (tagName, { rel: _authorsRel, ...attribs }) => {
      const scheme = attribs['href'] === undefined ? undefined : schemeOf(attribs['href'])
      const staysLinked = scheme === null || (scheme !== undefined && LINK_SCHEMES.has(scheme))
      return { tagName, attribs: staysLinked ? { ...attribs, rel: LINK_REL } : attribs }
    },
    img: (tagName, attribs) => {
      const { src } = attribs
      if (src === undefined || schemeOf(src) !== 'data' || IMAGE_DATA.test(compactUrl(src))) return { tagName, attribs }
      const { src: _refused, ...rest } = attribs
      return { tagName, attribs: rest }
    },
  },
}

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
  return sanitize(markup, OPTIONS)
}

/** Browsers ignore ASCII whitespace and control characters anywhere in a URL's scheme. */
function compactUrl(url: string): string {
  return Array.from(url)
    .filter((character) => character > ' ' && character !== '\u007f')
    .join('')
    .toLowerCase()
}

/** The scheme a browser would read in `url`; null for a relative URL. */
function schemeOf(url: string): string | null {
  return /^([a-z][a-z0-9+.-]*):/.exec(compactUrl(url))?.[1] ?? null
}
