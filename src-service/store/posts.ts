// Weblog posts. A post's body is kept as the author sent it: markup ('xhtml': an XHTML fragment, or HTML that a
// client sent escaped) or plain text ('text'). Dates are W3CDTF in UTC, so they sort as text.
import { foldCase, type Category } from './categories'
import { idList, insertReturningId } from './dialect'
import type { Engine, Row } from './engine'

export type ContentKind = 'xhtml' | 'text'

export interface PostFields {
  title: string
  content: string
  contentKind: ContentKind
  summary: string | null
  /** When the post is dated, as the author chose it. */
  issued: string
  /** The weblog's categories the post is filed under (see Categories.match). */
  categories: readonly Category[]
}

export interface Post extends Omit<PostFields, 'categories'> {
  id: number
  weblogId: number
  authorId: number
  /** When the post was last changed. */
  modified: string
  /** Dated in the future when stored, and that date not yet come: off public pages, its event not yet recorded. */
  scheduled: boolean
  /** When the service first stored it. */
  created: string
  /** Category names, alphabetical. */
  categories: string[]
}

/** Whether a scheduled post's date (`:now`) has come, 1 or 0: an SQL expression, so a store can ask it with more. */
export const SCHEDULED_DUE = 'CASE WHEN EXISTS (SELECT 1 FROM posts WHERE scheduled = 1 AND issued <= :now) THEN 1 ELSE 0 END'

export class Posts {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /** Stores a new post; `now` (W3CDTF) becomes its created and modified time; one dated after it is scheduled. */
  async create(weblogId: number, authorId: number, fields: PostFields, now: string): Promise<Post> {
    const id = await insertReturningId(
      this.#db,
      `INSERT INTO posts (weblog_id, author_id, title, content, content_kind, summary, issued, modified, created, scheduled)
       VALUES (:weblogId, :authorId, :title, :content, :contentKind, :summary, :issued, :now, :now, :scheduled)`,
      // W3CDTF in UTC compares as text, here as it would in SQL.
      { ':weblogId': weblogId, ':authorId': authorId, ...fieldParams(fields), ':now': now, ':scheduled': fields.issued > now ? 1 : 0 },
    )
    await this.#fileUnder(id, fields.categories)
    // The post as just written, not read back: reading it cost as much as the insert.
    const { title, content, contentKind, summary, issued, categories } = fields
    const names = categories.map((category) => category.name).sort(byStoredOrder)
    const dates = { issued, modified: now, created: now, scheduled: issued > now }
    return { id, weblogId, authorId, title, content, contentKind, summary, ...dates, categories: names }
  }

  /** Replaces what an author can change; `now` becomes its modified time. */
  async update(id: number, fields: PostFields, now: string): Promise<Post> {
    await this.#db.run(
      `UPDATE posts SET title = :title, content = :content, content_kind = :contentKind, summary = :summary,
                        issued = :issued, modified = :now
       WHERE id = :id`,
      { ':id': id, ...fieldParams(fields), ':now': now },
    )
    await this.#db.run('DELETE FROM post_categories WHERE post_id = :id', { ':id': id })
    await this.#fileUnder(id, fields.categories)
    return this.#require(id)
  }

  /** Removes the post and its filing under categories. */
  async delete(id: number): Promise<void> {
    await this.#db.run('DELETE FROM posts WHERE id = :id', { ':id': id })
  }

  async find(id: number): Promise<Post | null> {
    const row = await this.#db.get('SELECT * FROM posts WHERE id = :id', { ':id': id })
    return row && (await this.#withCategories([row]))[0]!
  }

  /** One page of a weblog's posts, newest first (by issued date, then by the order they were stored). */
  async page(weblogId: number, offset: number, limit: number): Promise<Post[]> {
    const rows = await this.#db.all(
      `SELECT * FROM posts WHERE weblog_id = :weblogId ORDER BY issued DESC, id DESC LIMIT :limit OFFSET :offset`,
      { ':weblogId': weblogId, ':limit': limit, ':offset': offset },
    )
    return this.#withCategories(rows)
  }

  /** One page of what the public sees of a weblog: its posts dated up to `now`, newest first. */
  async publicPage(weblogId: number, now: string, limit: number): Promise<Post[]> {
    const rows = await this.#db.all(
      `SELECT * FROM posts WHERE weblog_id = :weblogId AND issued <= :now ORDER BY issued DESC, id DESC LIMIT :limit`,
      { ':weblogId': weblogId, ':now': now, ':limit': limit },
    )
    return this.#withCategories(rows)
  }

  /** Whether a scheduled post's date has come (one indexed look, cheap enough before every read). */
  async hasScheduledDue(now: string): Promise<boolean> {
    return Number((await this.#db.get(`SELECT ${SCHEDULED_DUE} AS due`, { ':now': now }))?.['due']) === 1
  }

  /** The scheduled posts whose date has come, oldest first. */
  async scheduledDue(now: string): Promise<Post[]> {
    return this.#withCategories(
      await this.#db.all('SELECT * FROM posts WHERE scheduled = 1 AND issued <= :now ORDER BY issued, id', { ':now': now }),
    )
  }

  /**
   * Marks a scheduled post public (its event is to be recorded in the same transaction); false when it already was,
   * so of two releasing it at once (two instances on one database) only one records the event.
   */
  async markReleased(id: number): Promise<boolean> {
    return (await this.#db.run('UPDATE posts SET scheduled = 0 WHERE id = :id AND scheduled = 1', { ':id': id })) === 1
  }

  async countIn(weblogId: number): Promise<number> {
    const row = await this.#db.get('SELECT count(*) AS n FROM posts WHERE weblog_id = :weblogId', { ':weblogId': weblogId })
    return Number(row?.['n'] ?? 0)
  }

  async #fileUnder(postId: number, categories: readonly Category[]): Promise<void> {
    for (const category of categories) {
      await this.#db.run('INSERT INTO post_categories (post_id, category_id) VALUES (:postId, :categoryId)', {
        ':postId': postId,
        ':categoryId': category.id,
      })
    }
  }

  async #require(id: number): Promise<Post> {
    const post = await this.find(id)
    if (!post) throw new Error(`Post ${id} vanished inside its own transaction`)
    return post
  }

  async #withCategories(rows: Row[]): Promise<Post[]> {
    if (rows.length === 0) return []
    const names = new Map<number, string[]>()
    const filed = await this.#db.all(
      `SELECT pc.post_id, c.name FROM post_categories pc JOIN categories c ON c.id = pc.category_id
       WHERE pc.post_id IN (${idList(this.#db.dialect)}) ORDER BY c.name`,
      { ':ids': JSON.stringify(rows.map((row) => Number(row['id']))) },
    )
    for (const row of filed) {
      const postId = Number(row['post_id'])
      names.set(postId, [...(names.get(postId) ?? []), String(row['name'])])
    }
    return rows.map((row) => toPost(row, names.get(Number(row['id'])) ?? []))
  }
}

/** Category names in the order `ORDER BY name` gives them: SQLite's NOCASE, then UTF-8 bytes. */
function byStoredOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(foldCase(a)), Buffer.from(foldCase(b)))
}

function fieldParams(fields: PostFields): Record<string, string | null> {
  return {
    ':title': fields.title,
    ':content': fields.content,
    ':contentKind': fields.contentKind,
    ':summary': fields.summary,
    ':issued': fields.issued,
  }
}

/** A whole `posts` row as a Post, with its category names. */
export function toPost(row: Row, categories: string[]): Post {
  return {
    id: Number(row['id']),
    weblogId: Number(row['weblog_id']),
    authorId: Number(row['author_id']),
    title: String(row['title']),
    content: String(row['content']),
    contentKind: String(row['content_kind']) as ContentKind,
    summary: row['summary'] === null ? null : String(row['summary']),
    issued: String(row['issued']),
    modified: String(row['modified']),
    created: String(row['created']),
    scheduled: Number(row['scheduled'] ?? 0) === 1,
    categories,
  }
}
