// Character data as XML reads it, once the well-formedness check has vouched for every reference in it.

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
const ATTRIBUTE_WHITESPACE = /[\t\n]/g

/** What a reference stands for, given what lies between its "&" and ";" (the check has vouched for it). */
function referenced(body: string): string {
  if (body[0] !== '#') return PREDEFINED[body] ?? ''
  return String.fromCodePoint(body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10))
}

/** Text between tags with its references replaced. */
export function decodeText(text: string): string {
  let ampersand = text.indexOf('&')
  if (ampersand === -1) return text
  let decoded = ''
  let copiedUpTo = 0
  while (ampersand !== -1) {
    const semicolon = text.indexOf(';', ampersand)
    decoded += text.slice(copiedUpTo, ampersand) + referenced(text.slice(ampersand + 1, semicolon))
    copiedUpTo = semicolon + 1
    ampersand = text.indexOf('&', copiedUpTo)
  }
  return decoded + text.slice(copiedUpTo)
}

/**
 * An attribute value as XML reads it: literal tabs and line feeds become spaces (line breaks are already line
 * feeds), the same characters written as references survive.
 */
export function decodeAttribute(value: string): string {
  return decodeText(value.replace(ATTRIBUTE_WHITESPACE, ' '))
}

/** Whether `text` is only XML whitespace. */
export function isWhitespace(text: string): boolean {
  return /^[\t\n\r ]*$/.test(text)
}
