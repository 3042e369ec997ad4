// XML's Name production. Combining marks open the NameChar class: after another character they would read as one
// combined character.
const NAME_START_CHARS =
  'A-Z_a-z:\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}'
const NAME_CHARS = '\\u0300-\\u036F' + NAME_START_CHARS + '\\-.0-9\\u00B7\\u203F-\\u2040'

/** An XML name, as a regular expression source for the u flag. */
export const NAME = `[${NAME_START_CHARS}][${NAME_CHARS}]*`

const NCNAME = new RegExp(`^[${NAME_START_CHARS.replace(':', '')}][${NAME_CHARS.replace(':', '')}]*$`, 'u')

/** Whether `name` can be the local name of an element or attribute (an XML name without a colon). */
export function isLocalName(name: string): boolean {
  return NCNAME.test(name)
}
