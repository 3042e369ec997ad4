// The store's statements name their parameters `:name` (SQLite's spelling); PostgreSQL numbers them `$1, $2 …`.
// This rewrites one into the other, reading the SQL as PostgreSQL's lexer would so that a colon inside a string
// literal, a quoted identifier, a comment, a dollar-quoted body or a `::type` cast is left alone.

export interface NumberedStatement {
  /** The SQL with `$n` in place of each `:name`. */
  text: string
  /** The parameter names in `$n` order, colon included (`':id'`), each once however often the SQL uses it. */
  names: string[]
}

const NAME_START = /[A-Za-z_]/
const NAME_PART = /[A-Za-z0-9_]/

export function numberParameters(sql: string): NumberedStatement {
  const names: string[] = []
  let text = ''
  let i = 0
  // Copies sql[i, end) unchanged and moves past it.
  const copyTo = (end: number) => {
    text += sql.slice(i, end)
    i = end
  }
  while (i < sql.length) {
    const char = sql[i]!
    const next = sql[i + 1]
    if (char === "'") {
      copyTo(endOfQuoted(sql, i, "'", isEscapeString(sql, i)))
    } else if (char === '"') {
      copyTo(endOfQuoted(sql, i, '"', false))
    } else if (char === '-' && next === '-') {
      const newline = sql.indexOf('\n', i)
      copyTo(newline === -1 ? sql.length : newline)
    } else if (char === '/' && next === '*') {
      copyTo(endOfBlockComment(sql, i))
    } else if (char === '$' && !NAME_PART.test(sql[i - 1] ?? ' ')) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0]
      if (tag) {
        const close = sql.indexOf(tag, i + tag.length)
        copyTo(close === -1 ? sql.length : close + tag.length)
      } else {
        copyTo(i + 1)
      }
    } else if (char === ':' && next === ':') {
      copyTo(i + 2)
    } else if (char === ':' && next !== undefined && NAME_START.test(next)) {
      let end = i + 2
      while (end < sql.length && NAME_PART.test(sql[end]!)) end++
      const name = sql.slice(i, end)
      let index = names.indexOf(name)
      if (index === -1) index = names.push(name) - 1
      text += `$${index + 1}`
      i = end
    } else {
      copyTo(i + 1)
    }
  }
  return { text, names }
}

/** `E'…'` (or `e'…'`) strings take backslash escapes; an identifier ending in e (`name'…'`) is not one. */
function isEscapeString(sql: string, quote: number): boolean {
  const before = sql[quote - 1]
  return (before === 'E' || before === 'e') && !NAME_PART.test(sql[quote - 2] ?? ' ')
}

/** Just past the closing quote; a doubled quote is one quote character, not the end. */
function endOfQuoted(sql: string, open: number, quote: string, backslashEscapes: boolean): number {
  let i = open + 1
  while (i < sql.length) {
    const char = sql[i]
    if (backslashEscapes && char === '\\') {
      i += 2
    } else if (char === quote) {
      if (sql[i + 1] !== quote) return i + 1
      i += 2
    } else {
      i++
    }
  }
  return sql.length
}

/** Just past the comment's end; PostgreSQL's block comments nest. */
function endOfBlockComment(sql: string, open: number): number {
  let depth = 0
  let i = open
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth++
      i += 2
    } else if (sql.startsWith('*/', i)) {
      depth--
      i += 2
      if (depth === 0) return i
    } else {
      i++
    }
  }
  return sql.length
}
