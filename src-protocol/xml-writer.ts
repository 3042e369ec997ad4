import { NOT_XML_CHARACTERS, SUSPECT_CHARACTER } from './xml-characters'

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>'

// A carriage return is kept as a reference, since a reader turns a literal one into a line feed.
const TEXT_SPECIALS = /[&<>\r]/g
// Tabs and line breaks are written as references because a reader turns literal ones in attributes into spaces.
const ATTRIBUTE_SPECIALS = /[&<>"\t\n\r]/g
const REFERENCES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
}

function toReference(character: string): string {
  return REFERENCES[character] ?? character
}

// XML 1.0 cannot carry some characters at all, not even as references: they become U+FFFD rather than break
// the document. The quick look spares ordinary text the slower Unicode-aware replacement.
function withXmlCharactersOnly(text: string): string {
  SUSPECT_CHARACTER.lastIndex = 0
  return SUSPECT_CHARACTER.test(text) ? text.replace(NOT_XML_CHARACTERS, '\uFFFD') : text
}

/** Escapes character data for use between tags. */
export function escapeText(text: string): string {
  return withXmlCharactersOnly(text).replace(TEXT_SPECIALS, toReference)
}

/** Escapes a value for use inside a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return withXmlCharactersOnly(value).replace(ATTRIBUTE_SPECIALS, toReference)
}

/** `name="value"` pairs for a start tag, leaving out absent values; starts with a space when not empty. */
export function attributeList(attributes: Record<string, string | null | undefined>): string {
  let list = ''
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) list += ` ${name}="${escapeAttribute(value)}"`
  }
  return list
}
