// Just enough HTML reading for lookups: a page's <title> and its <link> elements. Pages in the wild are rarely
// well-formed XML, so this scans tags rather than parsing a tree; scripts, styles and comments are skipped first,
// so a "<title>" inside them does not count.

// Scans use indexOf and bounded regular expressions only: a page is up to a MiB of text somebody else wrote, and a
// pattern that rescans the rest of the page from every "<title" or "<link" would take minutes on a crafted one.
const NOT_MARKUP = /<!--[\s\S]*?(?:-->|$)|<(script|style|template|svg)\b[\s\S]*?(?:<\/\1\s*>|$)/gi
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

/** The media types a web page comes as. */
export const HTML_TYPES = ['text/html', 'application/xhtml+xml']

/** Titles longer than this are cut (with an ellipsis): they become list item titles. */
export const MAX_TITLE_LENGTH = 200

/** The page's title as a person reads it (entities decoded, whitespace collapsed, capped), or null if it has none. */
export function pageTitle(html: string): string | null {
  const page = html.replace(NOT_MARKUP, '')
  const lower = page.toLowerCase()
  const start = findTagStart(lower, 'title', 0)
  if (start === -1) return null
  const contentStart = lower.indexOf('>', start) + 1
  const end = contentStart === 0 ? -1 : lower.indexOf('</title', contentStart)
  if (end === -1) return null
  // Title text is RCDATA: a "<b>" in it is text, not a tag.
  return cleanText(decodeEntities(page.slice(contentStart, end)), MAX_TITLE_LENGTH)
}

/** Every <link> element's attributes (names lower-cased, values decoded), in document order. */
export function linkElements(html: string): Record<string, string>[] {
  const page = html.replace(NOT_MARKUP, '')
  const lower = page.toLowerCase()
  const links: Record<string, string>[] = []
  for (let start = findTagStart(lower, 'link', 0); start !== -1; ) {
    const end = tagEnd(page, start + '<link'.length)
    if (end === -1) break
    const attributes: Record<string, string> = Object.create(null)
    for (const [, name = '', double, single, bare] of page.slice(start + '<link'.length, end).matchAll(ATTRIBUTE)) {
      const key = name.toLowerCase()
      if (!(key in attributes)) attributes[key] = decodeEntities(double ?? single ?? bare ?? '')
    }
    links.push(attributes)
    start = findTagStart(lower, 'link', end)
  }
  return links
}

/** Where the next `<name` tag (not `<names…`) starts in lower-cased `page`, or -1. */
function findTagStart(lower: string, name: string, from: number): number {
  for (let at = lower.indexOf(`<${name}`, from); at !== -1; at = lower.indexOf(`<${name}`, at + 1)) {
    const next = lower[at + name.length + 1]
    if (next === undefined || /[\s/>]/.test(next)) return at
  }
  return -1
}

/** The index of the `>` that closes a tag whose attributes start at `from` (quotes respected), or -1. */
function tagEnd(page: string, from: number): number {
  let quote: string | null = null
  for (let at = from; at < page.length; at++) {
    const character = page[at]
    if (quote !== null) {
      if (character === quote) quote = null
    } else if (character === '"' || character === "'") {
      quote = character
    } else if (character === '>') {
      return at
    }
  }
  return -1
}

/** Whitespace runs become one space, the ends are trimmed, and text longer than `maxLength` ends in "…". */
export function cleanText(text: string, maxLength: number): string | null {
  const collapsed = text.replace(/\s+/g, ' ').trim()
  if (collapsed === '') return null
  const characters = [...collapsed]
  return characters.length <= maxLength ? collapsed : `${characters.slice(0, maxLength - 1).join('').trimEnd()}…`
}

// HTML 4's Latin-1 entities name the code points 160–255 in order.
const LATIN1_NAMES =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc ' +
  'euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
  'yacute thorn yuml'
const NAMED_ENTITIES = new Map<string, number>([
  ...LATIN1_NAMES.split(' ').map((name, index): [string, number] => [name, 160 + index]),
  ['amp', 38], ['lt', 60], ['gt', 62], ['quot', 34], ['apos', 39],
  ['OElig', 338], ['oelig', 339], ['Scaron', 352], ['scaron', 353], ['Yuml', 376], ['fnof', 402],
  ['ndash', 8211], ['mdash', 8212], ['lsquo', 8216], ['rsquo', 8217], ['sbquo', 8218], ['ldquo', 8220],
  ['rdquo', 8221], ['bdquo', 8222], ['dagger', 8224], ['Dagger', 8225], ['bull', 8226], ['hellip', 8230],
  ['prime', 8242], ['Prime', 8243], ['lsaquo', 8249], ['rsaquo', 8250], ['euro', 8364], ['trade', 8482],
  ['larr', 8592], ['rarr', 8594], ['hearts', 9829], ['thinsp', 8201], ['ensp', 8194], ['emsp', 8195],
])

/** Decodes character references; an unknown name stays as written, as browsers leave it. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|([A-Za-z][A-Za-z0-9]*));?/g, (whole, hex, decimal, name) => {
    const codePoint =
      hex !== undefined
        ? Number.parseInt(hex as string, 16)
        : decimal !== undefined
          ? Number.parseInt(decimal as string, 10)
          : NAMED_ENTITIES.get(name as string)
    if (codePoint === undefined) return whole
    // NUL, surrogates and values past Unicode become U+FFFD, as in browsers.
    const valid = codePoint > 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff)
    return String.fromCodePoint(valid ? codePoint : 0xfffd)
  })
}
