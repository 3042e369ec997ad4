// Addresses the service stores go into headers (an OAuth callback becomes a Location) and into pages and documents
// other programs read. A control character in one would split a header, or be read one way here and another there,
// so such an address is refused where it comes in rather than cleaned up later.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]+/
const NAMED_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** The first run of control characters in `text`, written as escapes (`\r\n`), or null when there is none. */
export function controlCharactersIn(text: string): string | null {
  const found = CONTROL_CHARACTERS.exec(text)?.[0]
  if (found === undefined) return null
  return [...found]
    .map((character) => NAMED_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('')
}
