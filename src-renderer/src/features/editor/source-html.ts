// The post's HTML as the source view shows it, and back: one block per line, indented by nesting, without the
// wrappers the editor adds (a list item's lone <p>, empty paragraphs), and images of this post not yet uploaded shown
// by their file names instead of `blogdesk-media:<hash>`. Written over the browser's DOM: what is printed is what the
// HTML parser read, so every attribute (classes, a figure's alignment, anything unknown) is printed as it was.

/** Images of this post not yet uploaded, by hash: the name of the file each came from, while Blogdesk runs. */
const fileNames = new Map<string, string>()

export function rememberFileName(hash: string, fileName: string): void {
  if (fileName.trim() !== '') fileNames.set(hash, fileName.trim())
}

/** Where a local image's address may stand: an image's source, or a link to the image. */
const ADDRESS_ATTRIBUTES = ['src', 'href']

/** The file names shown in the source view, each standing for one `blogdesk-media:<hash>` address. */
export type MediaNames = ReadonlyMap<string, string>

/** Elements laid out as blocks: each starts a line of its own. Anything else is printed within the line it is on. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
])

/** Whitespace is part of the text in these: printed exactly as they are, never indented. */
const VERBATIM = new Set(['pre', 'textarea'])

const INDENT = '  '

/**
 * The source view's text for the post's HTML, and the file names it shows for the post's local images.
 * `localScheme` is the address prefix of those images (`blogdesk-media:`).
 */
export function toSourceView(html: string, localScheme: string): { source: string; names: MediaNames } {
  const body = parseBody(html)
  const names = nameLocalMedia(body, localScheme)
  const addressToName = new Map([...names].map(([name, address]) => [address, name]))
  replaceAddresses(body, addressToName)
  const lines: string[] = []
  printChildren(body, 0, lines)
  return { source: lines.join('\n'), names }
}

/** The post's HTML from the source view's text: file names the view showed become their `blogdesk-media:` addresses again. */
export function fromSourceView(source: string, names: MediaNames): string {
  const body = parseBody(source)
  replaceAddresses(body, names)
  return body.innerHTML
}

/** Parsed where nothing loads or runs: a DOMParser's document has no scripting and fetches no images. */
function parseBody(html: string): HTMLElement {
  return new DOMParser().parseFromString(html, 'text/html').body
}

/**
 * A name for each local image address in the post: the file it came from where this session knows it, otherwise
 * `image-<first 8 of its hash>`; never one another image or an address in the post already uses.
 */
function nameLocalMedia(body: HTMLElement, localScheme: string): Map<string, string> {
  const addresses = new Set<string>()
  const taken = new Set<string>()
  for (const element of body.querySelectorAll('*')) {
    for (const attribute of ADDRESS_ATTRIBUTES) {
      const value = element.getAttribute(attribute)
      if (value === null) continue
      if (value.startsWith(localScheme)) addresses.add(value)
      else taken.add(value)
    }
  }
  const names = new Map<string, string>()
  for (const address of addresses) {
    const hash = address.slice(localScheme.length)
    const name = uniqueName(fileNames.get(hash) ?? `image-${hash.slice(0, 8)}`, taken)
    taken.add(name)
    names.set(name, address)
  }
  return names
}

/** "tram.jpg", then "tram-2.jpg", "tram-3.jpg"… */
function uniqueName(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted
  const dot = wanted.lastIndexOf('.')
  const [stem, extension] = dot > 0 ? [wanted.slice(0, dot), wanted.slice(dot)] : [wanted, '']
  let count = 2
  while (taken.has(`${stem}-${count}${extension}`)) count++
  return `${stem}-${count}${extension}`
}

function replaceAddresses(body: HTMLElement, replacements: ReadonlyMap<string, string>): void {
  if (replacements.size === 0) return
  for (const element of body.querySelectorAll('*')) {
    for (const attribute of ADDRESS_ATTRIBUTES) {
      const replacement = replacements.get(element.getAttribute(attribute) ?? '')
      if (replacement !== undefined) element.setAttribute(attribute, replacement)
    }
  }
}

function isBlock(node: Node): node is Element {
  return node.nodeType === Node.ELEMENT_NODE && BLOCKS.has((node as Element).localName)
}

/** A node as HTML: an element with what it holds, a text escaped, a comment kept. */
function htmlOf(node: Node): string {
  if (node.nodeType === Node.ELEMENT_NODE) return (node as Element).outerHTML
  if (node.nodeType === Node.COMMENT_NODE) return `<!--${(node as Comment).data}-->`
  const holder = node.ownerDocument!.createElement('span')
  holder.textContent = node.textContent
  return holder.innerHTML
}

/** Blocks each on their lines; the inline content between them (text, links, images) on a line of its own. */
function printChildren(parent: Element, depth: number, lines: string[]): void {
  let inline = ''
  const endLine = () => {
    const text = inline.trim()
    if (text !== '') lines.push(INDENT.repeat(depth) + text)
    inline = ''
  }
  for (const child of parent.childNodes) {
    if (isBlock(child)) {
      endLine()
      printBlock(child, depth, lines)
    } else {
      inline += htmlOf(child)
    }
  }
  endLine()
}

function printBlock(element: Element, depth: number, lines: string[]): void {
  if (isEmptyParagraph(element)) return
  unwrapListItemParagraph(element)
  const { open, close } = tagsOf(element)
  const indent = INDENT.repeat(depth)
  if (VERBATIM.has(element.localName) || ![...element.childNodes].some(isBlock)) {
    lines.push(indent + open + element.innerHTML + close)
    return
  }
  lines.push(indent + open)
  printChildren(element, depth + 1, lines)
  lines.push(indent + close)
}

/**
 * A paragraph with nothing in it shows nothing on the weblog: the editor keeps one after a closing image, or where
 * Enter was pressed twice. Not one a list item or quotation needs to hold: the editor puts those back itself.
 */
function isEmptyParagraph(element: Element): boolean {
  return element.localName === 'p' && element.childElementCount === 0 && element.textContent!.trim() === ''
}

/** `<li><p>Text</p></li>` reads `<li>Text</li>`, and `<li><p>Text</p><ul>…</ul></li>` `<li>Text<ul>…</ul></li>`. */
function unwrapListItemParagraph(element: Element): void {
  if (element.localName !== 'li') return
  const [first, ...rest] = [...element.children]
  if (first?.localName !== 'p' || first.attributes.length > 0 || first !== element.firstChild) return
  if (rest.some((child) => child.localName !== 'ul' && child.localName !== 'ol')) return
  first.replaceWith(...first.childNodes)
}

/** The element's start and end tags as the HTML serialiser writes them (a void element has no end tag). */
function tagsOf(element: Element): { open: string; close: string } {
  const outer = element.cloneNode(false) as Element
  const html = outer.outerHTML
  const close = `</${element.localName}>`
  return html.endsWith(close) ? { open: html.slice(0, -close.length), close } : { open: html, close: '' }
}
