import { idList, insertReturningId } from './dialect'
import type { Engine, Row } from './engine'
import { TurnBatch } from './turn-batch'

export interface Weblog {
  id: number
  ownerId: number
  title: string
  /** The weblog's public page is /blogs/<slug>/. */
  slug: string
}

export type NewWeblog = Omit<Weblog, 'id'>

export class Weblogs {
  readonly #db: Engine
  /** Every write to a weblog looks it up first: those arriving together share one statement. */
  readonly #found: TurnBatch<number, Weblog | null>

  constructor(db: Engine) {
    this.#db = db
    this.#found = new TurnBatch(db, (ids) => this.#findAll(ids))
  }

  async add(weblog: NewWeblog): Promise<Weblog> {
    const id = await insertReturningId(this.#db, 'INSERT INTO weblogs (owner_id, title, slug) VALUES (:ownerId, :title, :slug)', {
      ':ownerId': weblog.ownerId,
      ':title': weblog.title,
      ':slug': weblog.slug,
    })
    return { id, ...weblog }
  }

  find(id: number): Promise<Weblog | null> {
    return this.#found.get(id)
  }

  async #findAll(ids: readonly number[]): Promise<(Weblog | null)[]> {
    const rows = await this.#db.all(`SELECT id, owner_id, title, slug FROM weblogs WHERE id IN (${idList(this.#db.dialect)})`, {
      ':ids': JSON.stringify(ids),
    })
    const found = new Map(rows.map((row) => [Number(row['id']), toWeblog(row)]))
    return ids.map((id) => found.get(id) ?? null)
  }

  /** The weblog whose public pages live under /blogs/<slug>/. */
  async findBySlug(slug: string): Promise<Weblog | null> {
    const row = await this.#db.get('SELECT id, owner_id, title, slug FROM weblogs WHERE slug = :slug', { ':slug': slug })
    return row && toWeblog(row)
  }

  /** Oldest first, so a user's listing keeps its order as weblogs are added. */
  async ownedBy(userId: number): Promise<Weblog[]> {
    const rows = await this.#db.all('SELECT id, owner_id, title, slug FROM weblogs WHERE owner_id = :userId ORDER BY id', {
      ':userId': userId,
    })
    return rows.map(toWeblog)
  }
}

/** A `weblogs` row (id, owner_id, title, slug) as a Weblog. */
export function toWeblog(row: Row): Weblog {
  return {
    id: Number(row['id']),
    ownerId: Number(row['owner_id']),
    title: String(row['title']),
    slug: String(row['slug']),
  }
}
