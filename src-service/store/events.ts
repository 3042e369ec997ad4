// Activity records: the service writes one whenever a user creates something (NewAsset), favourites a post
// (AddedFavorite) or adds a neighbour (AddedNeighbor). The JSON interface reads them back as streams.
import { randomBytes } from 'node:crypto'
import type { Connection, Row } from './connection'

export type Verb = 'NewAsset' | 'AddedFavorite' | 'AddedNeighbor'
export type ObjectType = 'Post' | 'Comment' | 'Photo' | 'ListItem' | 'User'

export interface NewEvent {
  actorId: number
  verb: Verb
  objectType: ObjectType
  objectId: number
  /** W3CDTF; now when absent. Seed data backdates its history. */
  published?: string
}

export interface EventRecord extends Required<NewEvent> {
  id: number
  /** The event's id in URLs (`/events/<urlId>.json`): opaque, so ids cannot be counted or guessed. */
  urlId: string
}

export class Events {
  readonly #db: Connection

  constructor(db: Connection) {
    this.#db = db
  }

  /** Records an event; call it inside the transaction that creates the object, so neither exists without the other. */
  record(event: NewEvent): EventRecord {
    const urlId = `6e${randomBytes(15).toString('hex')}`
    const published = event.published ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
    const id = this.#db.run(
      `INSERT INTO events (url_id, actor_id, verb, object_type, object_id, published)
       VALUES (:urlId, :actorId, :verb, :objectType, :objectId, :published)`,
      {
        ':urlId': urlId,
        ':actorId': event.actorId,
        ':verb': event.verb,
        ':objectType': event.objectType,
        ':objectId': event.objectId,
        ':published': published,
      },
    )
    return { ...event, id, urlId, published }
  }

  /** An actor's latest events, newest first. */
  newestBy(actorId: number, limit: number): EventRecord[] {
    return this.#db
      .all('SELECT * FROM events WHERE actor_id = :actorId ORDER BY published DESC, id DESC LIMIT :limit', {
        ':actorId': actorId,
        ':limit': limit,
      })
      .map(toEventRecord)
  }

  /** Removes the events about an object that no longer exists (a deleted post), in the deleting transaction. */
  forgetObject(objectType: ObjectType, objectId: number): void {
    this.#db.run('DELETE FROM events WHERE object_type = :objectType AND object_id = :objectId', {
      ':objectType': objectType,
      ':objectId': objectId,
    })
  }
}

function toEventRecord(row: Row): EventRecord {
  return {
    id: Number(row['id']),
    urlId: String(row['url_id']),
    actorId: Number(row['actor_id']),
    verb: String(row['verb']) as Verb,
    objectType: String(row['object_type']) as ObjectType,
    objectId: Number(row['object_id']),
    published: String(row['published']),
  }
}
