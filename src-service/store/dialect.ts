// SQL that the two engines spell differently, as fragments chosen by `engine.dialect`; everything else the store
// says is written once, in SQL both SQLite and PostgreSQL accept.
import type { Dialect, Engine, Params } from './engine'

/**
 * The integers of a JSON array parameter (`:ids` unless named otherwise) as rows of one column, `value`: for
 * `WHERE id IN (${idList(dialect)})` or `FROM (${idList(dialect)}) AS ids`. One parameter, however many ids.
 */
export function idList(dialect: Dialect, parameter = ':ids'): string {
  return dialect === 'sqlite'
    ? `SELECT value FROM json_each(${parameter})`
    : `SELECT CAST(json_array_elements_text(CAST(${parameter} AS json)) AS BIGINT) AS value`
}

/**
 * The strings of a JSON array parameter as rows of `value`, with `place` their order (counted from 0 on SQLite and
 * from 1 on PostgreSQL: order by it, do not read it): for `FROM (${textList(dialect, ':names')}) AS asked`.
 */
export function textList(dialect: Dialect, parameter: string): string {
  return dialect === 'sqlite'
    ? `SELECT key AS place, value FROM json_each(${parameter})`
    : `SELECT place, value FROM json_array_elements_text(CAST(${parameter} AS json)) WITH ORDINALITY AS texts (value, place)`
}

/** Runs an `INSERT` into a table with an `id` column and returns the id it was given (both engines know RETURNING). */
export async function insertReturningId(db: Engine, sql: string, params: Params): Promise<number> {
  const row = await db.get(`${sql} RETURNING id`, params)
  if (!row) throw new Error(`An insert returned no id: ${sql}`)
  return Number(row['id'])
}
