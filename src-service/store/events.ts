// Activity records: the service writes one whenever a user creates something (NewAsset), favourites a post
// (AddedFavorite) or adds a neighbour (AddedNeighbor). The JSON interface reads them back as streams.
import { AsyncResource } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { idList, insertReturningId } from './dialect'
import type { Engine, Row } from './engine'

export type Verb = 'NewAsset' | 'AddedFavorite' | 'AddedNeighbor'
export type ObjectType = 'Post' | 'Comment' | 'Photo' | 'ListItem' | 'User'

export interface NewEvent {
  actorId: number
  verb: Verb
  objectType: ObjectType
  objectId: number
  /** W3CDTF; now when absent. Seed data backdates its history. */
  published?: string
  /** The group the action was done in, if any (the by-group view of a user's events lists these). */
  groupId?: number | null
}

export interface EventRecord extends Required<NewEvent> {
  id: number
  /** The event's id in URLs (`/events/<urlId>.json`): opaque, so ids cannot be counted or guessed. */
  urlId: string
}

/** Where a page of a stream ended: its last event's (published, id). Streams run newest first by that pair. */
export interface StreamCursor {
  published: string
  id: number
}

/** Told the actors who have new events (routes/live-events.ts streams them). */
export type RecordedListener = (actorIds: ReadonlySet<number>) => void

export class Events {
  readonly #db: Engine
  readonly #listeners = new Set<RecordedListener>()
  /** Actors with events recorded since listeners were last told; told once per turn of the event loop. */
  #pendingActors: Set<number> | null = null
  /** Tells the listeners in the context the store was opened in: outside every transaction (see #tellLater). */
  readonly #tellPending = AsyncResource.bind(() => this.#tell())

  constructor(db: Engine) {
    this.#db = db
  }

  /** Calls `listener` after events are recorded, with their actors; returns the unsubscribe function. */
  onRecorded(listener: RecordedListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Records an event; call it inside the transaction that creates the object, so neither exists without the other. */
  async record(event: NewEvent): Promise<EventRecord> {
    const urlId = `6e${randomBytes(15).toString('hex')}`
    const published = event.published ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
    const groupId = event.groupId ?? null
    const id = await insertReturningId(
      this.#db,
      `INSERT INTO events (url_id, actor_id, verb, object_type, object_id, published, group_id)
       VALUES (:urlId, :actorId, :verb, :objectType, :objectId, :published, :groupId)`,
      {
        ':urlId': urlId,
        ':actorId': event.actorId,
        ':verb': event.verb,
        ':objectType': event.objectType,
        ':objectId': event.objectId,
        ':published': published,
        ':groupId': groupId,
      },
    )
    this.#db.afterCommit(() => this.#tellLater(event.actorId))
    return { ...event, id, urlId, published, groupId }
  }

  /**
   * The actor's events after `cursor` in the stream's order (published, then id), oldest first, at most `limit`:
   * what a live stream sends next. In that order, not the order of recording, so a stream agrees with events.json
   * even about events recorded with an earlier date (seed data backdates its history).
   */
  async newerThan(actorId: number, cursor: StreamCursor, limit: number): Promise<EventRecord[]> {
    const rows = await this.#db.all(
      `SELECT * FROM events WHERE actor_id = :actorId AND (published, id) > (:published, :id)
       ORDER BY published, id LIMIT :limit`,
      { ':actorId': actorId, ':published': cursor.published, ':id': cursor.id, ':limit': limit },
    )
    return rows.map(toEventRecord)
  }

  async find(urlId: string): Promise<EventRecord | null> {
    const row = await this.#db.get('SELECT * FROM events WHERE url_id = :urlId', { ':urlId': urlId })
    return row && toEventRecord(row)
  }

  /**
   * A page of an actor's stream, newest first: the `limit` events after `cursor`, or from the newest when it is null.
   * Keyset paging: a page costs the same however deep it is, and events added meanwhile (newer than any cursor)
   * neither shift nor repeat the pages that follow.
   */
  async streamPage(actorId: number, cursor: StreamCursor | null, limit: number): Promise<EventRecord[]> {
    const rows = cursor
      ? await this.#db.all(
          `SELECT * FROM events WHERE actor_id = :actorId AND (published, id) < (:published, :id)
           ORDER BY published DESC, id DESC LIMIT :limit`,
          { ':actorId': actorId, ':published': cursor.published, ':id': cursor.id, ':limit': limit },
        )
      : await this.#db.all('SELECT * FROM events WHERE actor_id = :actorId ORDER BY published DESC, id DESC LIMIT :limit', {
          ':actorId': actorId,
          ':limit': limit,
        })
    return rows.map(toEventRecord)
  }

  /** How many events the actor's stream holds (kept by trigger, so no scan). */
  async totalBy(actorId: number): Promise<number> {
    const row = await this.#db.get('SELECT total FROM event_totals WHERE actor_id = :actorId', { ':actorId': actorId })
    return Number(row?.['total'] ?? 0)
  }

  /** A slice of the actor's events in one group, newest first, `offset` events in. */
  async inGroupPage(actorId: number, groupId: number, offset: number, limit: number): Promise<EventRecord[]> {
    const rows = await this.#db.all(
      `SELECT * FROM events WHERE actor_id = :actorId AND group_id = :groupId
       ORDER BY published DESC, id DESC LIMIT :limit OFFSET :offset`,
      { ':actorId': actorId, ':groupId': groupId, ':limit': limit, ':offset': offset },
    )
    return rows.map(toEventRecord)
  }

  async countInGroup(actorId: number, groupId: number): Promise<number> {
    const row = await this.#db.get('SELECT count(*) AS n FROM events WHERE actor_id = :actorId AND group_id = :groupId', {
      ':actorId': actorId,
      ':groupId': groupId,
    })
    return Number(row?.['n'] ?? 0)
  }

  /** The group each object was published in: that of its first NewAsset event, for the objects that have one. */
  async groupsOfObjects(objectType: ObjectType, objectIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.#db.all(
      `SELECT ids.value AS object_id,
         (SELECT group_id FROM events
          WHERE object_type = :objectType AND object_id = ids.value AND verb = 'NewAsset' ORDER BY id LIMIT 1) AS group_id
       FROM (${idList(this.#db.dialect)}) AS ids`,
      { ':objectType': objectType, ':ids': JSON.stringify(objectIds) },
    )
    const published = rows.filter((row) => row['group_id'] !== null)
    return new Map(published.map((row) => [Number(row['object_id']), Number(row['group_id'])]))
  }

  /**
   * Listeners hear of an event once the transaction that recorded it has committed (Engine.afterCommit), in a
   * microtask outside it: what they read includes the event on either engine, PostgreSQL's connections included. Many
   * events in one turn make one call.
   */
  #tellLater(actorId: number): void {
    if (this.#listeners.size === 0) return
    if (this.#pendingActors) {
      this.#pendingActors.add(actorId)
      return
    }
    this.#pendingActors = new Set([actorId])
    queueMicrotask(this.#tellPending)
  }

  #tell(): void {
    const actors = this.#pendingActors!
    this.#pendingActors = null
    for (const listener of this.#listeners) {
      // Out here nobody would catch it: a failing listener is reported, and the others still hear.
      try {
        listener(actors)
      } catch (error) {
        console.error('A listener to new events failed:', error)
      }
    }
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
    groupId: row['group_id'] === null ? null : Number(row['group_id']),
  }
}
