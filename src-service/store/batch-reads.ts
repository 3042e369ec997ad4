// Posts and weblogs read many at a time, for the JSON interface: a page of events names dozens of them, and one
// query for all costs far less than one each.
import type { Connection } from './connection'
import { toPost, type Post } from './posts'
import { toWeblog, type Weblog } from './weblogs'

export class BatchReads {
  readonly #db: Connection

  constructor(db: Connection) {
    this.#db = db
  }

  /** Posts by id, each with its category names (alphabetical); ids that name nothing are left out. */
  posts(ids: readonly number[]): Map<number, Post> {
    const idList = JSON.stringify(ids)
    const categories = new Map<number, string[]>()
    const filed = this.#db.all(
      `SELECT post_categories.post_id, categories.name FROM post_categories
       JOIN categories ON categories.id = post_categories.category_id
       WHERE post_categories.post_id IN (SELECT value FROM json_each(:ids)) ORDER BY categories.name`,
      { ':ids': idList },
    )
    for (const row of filed) {
      const postId = Number(row['post_id'])
      categories.set(postId, [...(categories.get(postId) ?? []), String(row['name'])])
    }
    const rows = this.#db.all('SELECT * FROM posts WHERE id IN (SELECT value FROM json_each(:ids))', { ':ids': idList })
    return new Map(rows.map((row) => [Number(row['id']), toPost(row, categories.get(Number(row['id'])) ?? [])]))
  }

  weblogs(ids: readonly number[]): Map<number, Weblog> {
    const rows = this.#db.all(
      'SELECT id, owner_id, title, slug FROM weblogs WHERE id IN (SELECT value FROM json_each(:ids))',
      { ':ids': JSON.stringify(ids) },
    )
    return new Map(rows.map((row) => [Number(row['id']), toWeblog(row)]))
  }
}
