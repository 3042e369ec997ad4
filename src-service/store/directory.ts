// The public names of stored things: every object's url id (made by migration 6's triggers, never derived from its
// row id, so ids cannot be counted or guessed) and the application behind an API key.
import { idList } from './dialect'
import type { Engine } from './engine'

/** The kinds of object that have a url id; each is a table of its own. */
export type UrlIdKind =
  | 'User'
  | 'Group'
  | 'Application'
  | 'Blog'
  | 'Post'
  | 'Comment'
  | 'Album'
  | 'Photo'
  | 'List'
  | 'ListItem'

export interface NamedObject {
  kind: UrlIdKind
  id: number
}

export interface KeyedApplication {
  id: number
  urlId: string
  name: string
}

export class Directory {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /** The url id of a stored object; every row has one from the moment it is inserted. */
  async urlIdOf(kind: UrlIdKind, id: number): Promise<string> {
    const urlId = (await this.urlIdsOf(kind, [id])).get(id)
    if (urlId === undefined) throw new Error(`${kind} ${id} has no url id: it does not exist`)
    return urlId
  }

  /** Url ids of many objects of one kind at once, by row id; ids that name nothing are left out. */
  async urlIdsOf(kind: UrlIdKind, ids: readonly number[]): Promise<Map<number, string>> {
    const rows = await this.#db.all(
      `SELECT object_id, url_id FROM url_ids
       WHERE object_type = :kind AND object_id IN (${idList(this.#db.dialect)})`,
      { ':kind': kind, ':ids': JSON.stringify(ids) },
    )
    return new Map(rows.map((row) => [Number(row['object_id']), String(row['url_id'])]))
  }

  /** What a url id names, or null when it names nothing (a mistyped or deleted object's). */
  async resolve(urlId: string): Promise<NamedObject | null> {
    const row = await this.#db.get('SELECT object_type, object_id FROM url_ids WHERE url_id = :urlId', { ':urlId': urlId })
    return row && { kind: String(row['object_type']) as UrlIdKind, id: Number(row['object_id']) }
  }

  /** The row id of the object of `kind` that `urlId` names, or null. */
  async idOf(kind: UrlIdKind, urlId: string): Promise<number | null> {
    const named = await this.resolve(urlId)
    return named?.kind === kind ? named.id : null
  }

  /** The application an API key belongs to, or null for a key that was never issued. */
  async applicationOfApiKey(apiKey: string): Promise<KeyedApplication | null> {
    const row = await this.#db.get(
      `SELECT applications.id, applications.name, url_ids.url_id FROM api_keys
       JOIN applications ON applications.id = api_keys.application_id
       JOIN url_ids ON url_ids.object_type = 'Application' AND url_ids.object_id = applications.id
       WHERE api_keys.api_key = :apiKey`,
      { ':apiKey': apiKey },
    )
    return row && { id: Number(row['id']), urlId: String(row['url_id']), name: String(row['name']) }
  }
}
