// Posts and weblogs read many at a time, for the JSON interface: a page of events names dozens of them, and one
// query for all costs far less than one each.
import { idList } from './dialect'
import type { Engine } from './engine'
import { toPost, type Post } from './posts'
import { toWeblog, type Weblog } from './weblogs'

export class BatchReads {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /** Posts by id, each with its category names (alphabetical); ids that name nothing are left out. */
  async posts(postIds: readonly number[]): Promise<Map<number, Post>> {
    const ids = JSON.stringify(postIds)
    const categories = new Map<number, string[]>()
    const filed = await this.#db.all(
      `SELECT post_categories.post_id, categories.name FROM post_categories
       JOIN categories ON categories.id = post_categories.category_id
       WHERE post_categories.post_id IN (${idList(this.#db.dialect)}) ORDER BY categories.name`,
      { ':ids': ids },
    )
    for (const row of filed) {
      const postId = Number(row['post_id'])
      categories.set(postId, [...(categories.get(postId) ?? []), String(row['name'])])
    }
    const rows = await this.#db.all(`SELECT * FROM posts WHERE id IN (${idList(this.#db.dialect)})`, { ':ids': ids })
    return new Map(rows.map((row) => [Number(row['id']), toPost(row, categories.get(Number(row['id'])) ?? [])]))
  }

  async weblogs(ids: readonly number[]): Promise<Map<number, Weblog>> {
    const rows = await this.#db.all(
      `SELECT id, owner_id, title, slug FROM weblogs WHERE id IN (${idList(this.#db.dialect)})`,
      { ':ids': JSON.stringify(ids) },
    )
    return new Map(rows.map((row) => [Number(row['id']), toWeblog(row)]))
  }
}
