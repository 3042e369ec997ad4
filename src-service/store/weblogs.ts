import type { Connection, Row } from './connection'

export interface Weblog {
  id: number
  ownerId: number
  title: string
  /** The weblog's public page is /blogs/<slug>/. */
  slug: string
}

export type NewWeblog = Omit<Weblog, 'id'>

export class Weblogs {
  readonly #db: Connection

  constructor(db: Connection) {
    this.#db = db
  }

  add(weblog: NewWeblog): Weblog {
    const id = this.#db.run('INSERT INTO weblogs (owner_id, title, slug) VALUES (:ownerId, :title, :slug)', {
      ':ownerId': weblog.ownerId,
      ':title': weblog.title,
      ':slug': weblog.slug,
    })
    return { id, ...weblog }
  }

  find(id: number): Weblog | null {
    const row = this.#db.get('SELECT id, owner_id, title, slug FROM weblogs WHERE id = :id', { ':id': id })
    return row && toWeblog(row)
  }

  /** The weblog whose public pages live under /blogs/<slug>/. */
  findBySlug(slug: string): Weblog | null {
    const row = this.#db.get('SELECT id, owner_id, title, slug FROM weblogs WHERE slug = :slug', { ':slug': slug })
    return row && toWeblog(row)
  }

  /** Oldest first, so a user's listing keeps its order as weblogs are added. */
  ownedBy(userId: number): Weblog[] {
    return this.#db
      .all('SELECT id, owner_id, title, slug FROM weblogs WHERE owner_id = :userId ORDER BY id', { ':userId': userId })
      .map(toWeblog)
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
