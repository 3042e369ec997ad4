// Character data as XML reads it, once the well-formedness check has vouched for every reference in it.

const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
const ATTRIBUTE_WHITESPACE = /[\t\n]/g

function replaceReference(_whole: string, hex?: string, decimal?: string, entity?: string): string {
  if (entity !== undefined) return PREDEFINED[entity] ?? ''
  return String.fromCodePoint(hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(decimal ?? '', 10))
}

/** Text between tags with its references replaced. */
export function decodeText(text: string): string {
  return text.includes('&') ? text.replace(REFERENCE, replaceReference) : text
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
