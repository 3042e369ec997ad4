// XML 1.0's Char production: tab, line feed, carriage return, and everything from U+0020 up except the surrogates,
// U+FFFE and U+FFFF. With the u flag a lone surrogate is one code point, so it counts as forbidden too.
const NOT_XML_CHARACTER_SOURCE = '[^\\t\\n\\r\\u0020-\\uD7FF\\uE000-\\uFFFD\\u{10000}-\\u{10FFFF}]'

/** Finds every character XML 1.0 cannot contain, for replacing. */
export const NOT_XML_CHARACTERS = new RegExp(NOT_XML_CHARACTER_SOURCE, 'gu')

/**
 * Finds characters outside XML 1.0's Char production and every surrogate, which is fine as half of a pair. Without
 * the u flag the class is a plain range check, several times faster than NOT_XML_CHARACTERS: a quick first look.
 */
export const SUSPECT_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/g

export function isXmlCharacter(codePoint: number): boolean {
  return (
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    (codePoint >= 0x10000 && codePoint <= 0x10ffff)
  )
}
