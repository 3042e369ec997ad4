// The words of a post's HTML as plain text: what lists show as excerpts and what search indexes, in the app and the
// service alike. Scripts, styles and comments are dropped and character references read. Blocks (paragraphs,
// headings, list items, line breaks) are separated by a space; inline markup (emphasis, links) by nothing, so
// "<em>early nights</em>, then" reads "early nights, then" as it does on the page. The HTML often comes from other
// servers, so it is read by htmlparser2's tokenizer, whose cost grows with the length of the HTML whatever it holds
// (unclosed tags, comments or quotes included).
import { Parser } from 'htmlparser2'

/** Elements that begin and end a run of words: everything else sits inside a line of text. */
const SEPARATING = new Set([
  'address', 'article', 'aside', 'audio', 'blockquote', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl',
  'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr',
  'iframe', 'img', 'legend', 'li', 'main', 'nav', 'object', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'td',
  'th', 'tr', 'ul', 'video',
])
/** Elements whose content no reader sees as text. */
const HIDDEN = new Set(['script', 'style', 'template'])
/** HTML is read this much at a time, so a caller who needs only the first words does not pay for the rest. */
const CHUNK_LENGTH = 4096

const SPACES = /[\s\p{Cc}]+/gu

/**
 * The text of `html`, whitespace collapsed (control characters too: search marks its matches with two of them).
 * With `enough`, reading may stop once more than that many characters other than spaces are in: for an excerpt.
 */
export function plainTextOf(html: string, enough = Number.POSITIVE_INFINITY): string {
  const pieces: string[] = []
  let length = 0
  let hiddenDepth = 0
  const separate = (name: string) => {
    if (SEPARATING.has(name)) pieces.push(' ')
  }
  const parser = new Parser(
    {
      onopentagname(name) {
        if (HIDDEN.has(name)) hiddenDepth++
        else separate(name)
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1)
        else separate(name)
      },
      ontext(text) {
        if (hiddenDepth > 0) return
        const collapsed = text.replace(SPACES, ' ')
        pieces.push(collapsed)
        // Only what is not space counts toward `enough`: the spaces between blocks collapse away at the end.
        length += collapsed.trim().length
      },
    },
    { decodeEntities: true },
  )
  for (let at = 0; at < html.length && length <= enough; at += CHUNK_LENGTH) {
    parser.write(html.slice(at, at + CHUNK_LENGTH))
  }
  parser.end()
  return pieces.join('').replace(SPACES, ' ').trim()
}
