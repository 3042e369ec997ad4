// ISBNs as people type them: with or without hyphens and spaces, in the 10-digit form (last character possibly
// X) or the 13-digit form. Only an ISBN whose check digit is right is looked up: anything else would fetch some
// other book, or nothing.

export interface Isbn {
  isbn13: string
  /** Only books numbered under the 978 prefix have a 10-digit form. */
  isbn10: string | null
}

/** The ISBN in both forms, or null when `text` is not a valid ISBN-10 or ISBN-13. */
export function parseIsbn(text: string): Isbn | null {
  const compact = text.replace(/[\s-]/g, '').toUpperCase()
  if (/^\d{9}[\dX]$/.test(compact)) {
    if (isbn10CheckDigit(compact.slice(0, 9)) !== compact[9]) return null
    return { isbn13: isbn10To13(compact), isbn10: compact }
  }
  if (/^97[89]\d{10}$/.test(compact)) {
    if (isbn13CheckDigit(compact.slice(0, 12)) !== compact[12]) return null
    return { isbn13: compact, isbn10: compact.startsWith('978') ? isbn13To10(compact) : null }
  }
  return null
}

function isbn10CheckDigit(first9: string): string {
  let sum = 0
  for (let index = 0; index < 9; index++) sum += Number(first9[index]) * (10 - index)
  const check = (11 - (sum % 11)) % 11
  return check === 10 ? 'X' : String(check)
}

function isbn13CheckDigit(first12: string): string {
  let sum = 0
  for (let index = 0; index < 12; index++) sum += Number(first12[index]) * (index % 2 === 0 ? 1 : 3)
  return String((10 - (sum % 10)) % 10)
}

function isbn10To13(isbn10: string): string {
  const first12 = `978${isbn10.slice(0, 9)}`
  return first12 + isbn13CheckDigit(first12)
}

function isbn13To10(isbn13: string): string {
  const first9 = isbn13.slice(3, 12)
  return first9 + isbn10CheckDigit(first9)
}
