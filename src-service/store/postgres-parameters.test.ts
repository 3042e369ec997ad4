import { describe, expect, it } from 'vitest'
import { numberParameters } from './postgres-parameters'

describe('named parameters numbered for PostgreSQL', () => {
  it('numbers each name once, in the order it first appears, however often it is used', () => {
    expect(numberParameters('SELECT * FROM posts WHERE weblog_id = :weblog AND (issued < :before OR id < :weblog)')).toEqual({
      text: 'SELECT * FROM posts WHERE weblog_id = $1 AND (issued < $2 OR id < $1)',
      names: [':weblog', ':before'],
    })
  })

  it('leaves casts alone, including a cast right after a parameter', () => {
    expect(numberParameters('SELECT :id::bigint, created::text, CAST(:when AS TEXT)')).toEqual({
      text: 'SELECT $1::bigint, created::text, CAST($2 AS TEXT)',
      names: [':id', ':when'],
    })
  })

  it.each([
    ["string literals, with doubled quotes", "SELECT 'it''s :not', :yes", "SELECT 'it''s :not', $1"],
    ['escape strings, with backslashes', "SELECT E'\\' :not', :yes", "SELECT E'\\' :not', $1"],
    ['quoted identifiers', 'SELECT "odd "" :not" FROM t WHERE a = :yes', 'SELECT "odd "" :not" FROM t WHERE a = $1'],
    ['line comments', 'SELECT :yes -- :not\n, 1', 'SELECT $1 -- :not\n, 1'],
    ['nested block comments', 'SELECT /* :not /* :not */ :not */ :yes', 'SELECT /* :not /* :not */ :not */ $1'],
    ['dollar-quoted bodies', 'SELECT $$ :not $$, $tag$ :not $$ :not $tag$, :yes', 'SELECT $$ :not $$, $tag$ :not $$ :not $tag$, $1'],
    ['times inside the date format of a default', `SELECT to_char(now(), 'HH24:MI:SS'), :yes`, `SELECT to_char(now(), 'HH24:MI:SS'), $1`],
  ])('skips colons inside %s', (_, sql, text) => {
    expect(numberParameters(sql)).toEqual({ text, names: [':yes'] })
  })

  it('takes a colon before a digit or a space for what it is, not a parameter', () => {
    expect(numberParameters("SELECT a[1:2], b ? : c, 'x' || :yes")).toEqual({
      text: "SELECT a[1:2], b ? : c, 'x' || $1",
      names: [':yes'],
    })
  })

  it('reads a name up to its last letter, digit or underscore', () => {
    expect(numberParameters('VALUES (:user_id2,:name)')).toEqual({ text: 'VALUES ($1,$2)', names: [':user_id2', ':name'] })
  })

  it('runs to the end of an unterminated literal without inventing parameters', () => {
    expect(numberParameters("SELECT ':not")).toEqual({ text: "SELECT ':not", names: [] })
  })
})
