import { NS } from './namespaces'
import { NamespaceScope } from './namespace-scope'
import { MARKUP_PART, readRawContent, type RawContent, type RawMarkup } from './raw-content'
import { XmlError } from './xml-error'
import { checkXml } from './xml-document'
import { decodeText } from './xml-text'
import { escapeAttribute } from './xml-writer'

// A fragment written into an entry sits four levels down (feed, entry, content, div), so a fragment accepted here
// can always be read back within the reader's default depth of 64.
const FRAGMENT_MAX_DEPTH = 60
const FRAGMENT_OPEN = `<div xmlns="${NS.xhtml}">`
const FRAGMENT_CLOSE = '</div>'

/**
 * Whether `fragment` is well-formed XML content (text and elements, as inside an element): balanced tags, quoted
 * attributes, only the five predefined entities and character references, every prefix declared within it, no
 * DOCTYPE. Such markup can be written as `mode="xml"` content inside the XHTML div; anything else has to go as
 * `mode="escaped"`. Unprefixed elements are XHTML.
 */
export function isWellFormedMarkup(fragment: string): boolean {
  try {
    const source = checkXml(FRAGMENT_OPEN + fragment + FRAGMENT_CLOSE, { maxDepth: FRAGMENT_MAX_DEPTH + 1 })
    // Well-formed, the wrapper's end tag is the last one: its content is read as raw content straight away (every
    // prefix resolved, as readXml's keeping it raw would), with no tree built first. Every reply with a post asks.
    const scope = new NamespaceScope()
    scope.declare('xmlns', NS.xhtml, 1, 'div')
    readRawContent(source, FRAGMENT_OPEN.length, source.length - FRAGMENT_CLOSE.length, scope, 1)
    return true
  } catch (error) {
    if (error instanceof XmlError) return false
    throw error
  }
}

const XML_WHITESPACE = new Set([0x20, 0x0a, 0x09, 0x0d])

/**
 * The markup as a string that stands alone: surrounding whitespace left out (it means nothing around markup), and
 * the namespace declarations it relied on from outside written into its top-level start tags.
 */
export function standaloneMarkup(markup: RawMarkup): string {
  const { source, declarations } = markup
  let { start, end } = markup
  while (start < end && XML_WHITESPACE.has(source.charCodeAt(start))) start++
  while (end > start && XML_WHITESPACE.has(source.charCodeAt(end - 1))) end--
  if (declarations.length === 0) return source.slice(start, end)

  const byPosition = declarations.toSorted((a, b) => a.at - b.at)
  let result = ''
  let copiedUpTo = start
  for (const { at, prefix, uri } of byPosition) {
    result += `${source.slice(copiedUpTo, at)} xmlns:${prefix}="${escapeAttribute(uri)}"`
    copiedUpTo = at
  }
  return result + source.slice(copiedUpTo, end)
}

/** The text a reader sees in raw content, in document order: what is left once the tags are taken away. */
export function markupText(content: RawContent): string {
  if (content.children.length === 0) return content.text
  let text = ''
  for (MARKUP_PART.lastIndex = content.start; MARKUP_PART.lastIndex < content.end; ) {
    const [, cdata, , , characters] = MARKUP_PART.exec(content.source) as RegExpExecArray
    if (cdata !== undefined) text += cdata
    else if (characters !== undefined) text += decodeText(characters)
  }
  return text
}
