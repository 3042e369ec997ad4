// A post's HTML as a list's one-line excerpt.
import { plainTextOf } from '../../../src-protocol'

const EXCERPT_LENGTH = 160

/** The first words of `html` as plain text, cut at a word boundary with an ellipsis when longer than a line. */
export function excerptOf(html: string, maxLength = EXCERPT_LENGTH): string {
  const text = plainTextOf(html, maxLength)
  if (text.length <= maxLength) return text
  const cut = text.slice(0, maxLength)
  const lastSpace = cut.lastIndexOf(' ')
  return `${(lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.–—-]+$/, '')}…`
}
