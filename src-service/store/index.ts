// The service's store: everything it keeps lives in one data dir.
import { join } from 'node:path'
import { Applications } from './applications'
import { Categories } from './categories'
import { Connection } from './connection'
import { lockDataDir, prepareDataDir } from './data-dir'
import { Events } from './events'
import { IdempotencyRecords } from './idempotency'
import { Lists } from './lists'
import { Albums, Photos, Uploads } from './media'
import { Posts } from './posts'
import { SecretBox } from './secret-box'
import { Users } from './users'
import { Weblogs } from './weblogs'

export type { Categories, Category, CategoryMatch } from './categories'
export type { EventRecord, Events, NewEvent, ObjectType, Verb } from './events'
export type { IdempotencyRecord, IdempotencyRecords, StoredResponse } from './idempotency'
export { ITEM_FIELDS, itemTitle } from './lists'
export type { ItemField, ItemFields, List, ListItem, Lists, ListType, NewList, NewListItem, Notes } from './lists'
export type { Album, Albums, Photo, PhotoFields, Photos, Upload, UploadFields, Uploads } from './media'
export type { ContentKind, Post, PostFields, Posts } from './posts'
export type { User, Users } from './users'
export type { NewWeblog, Weblog, Weblogs } from './weblogs'

export const DATABASE_FILE = 'service.sqlite'
export const SECRET_KEY_FILE = 'secret.key'

export interface Store {
  readonly users: Users
  readonly weblogs: Weblogs
  readonly applications: Applications
  readonly events: Events
  readonly posts: Posts
  readonly categories: Categories
  readonly idempotency: IdempotencyRecords
  readonly lists: Lists
  readonly albums: Albums
  readonly photos: Photos
  readonly uploads: Uploads
  readonly secrets: SecretBox
  /** Grows with every write; a rendering of stored data stays current while it is unchanged (routes/render-cache.ts). */
  readonly writes: number
  /** Runs `work` in one transaction: all of it is stored, or (when it throws) none of it. */
  transaction<T>(work: () => T): T
  close(): void
}

/** Opens the store in `dataDir`, creating the dir, its key and its database on first use. */
export function openStore(dataDir: string): Store {
  prepareDataDir(dataDir)
  const databaseFile = join(dataDir, DATABASE_FILE)
  const lock = lockDataDir(dataDir, databaseFile)
  let db: Connection
  let secrets: SecretBox
  try {
    secrets = SecretBox.openOrCreate(join(dataDir, SECRET_KEY_FILE))
    db = Connection.open(databaseFile)
  } catch (error) {
    lock.release()
    throw error
  }
  return {
    users: new Users(db, secrets),
    weblogs: new Weblogs(db),
    applications: new Applications(db),
    events: new Events(db),
    posts: new Posts(db),
    categories: new Categories(db),
    idempotency: new IdempotencyRecords(db),
    lists: new Lists(db),
    albums: new Albums(db),
    photos: new Photos(db),
    uploads: new Uploads(db),
    secrets,
    get writes() {
      return db.writes
    },
    transaction: (work) => db.transaction(work),
    close: () => {
      if (!db.isOpen) return
      db.close()
      lock.release()
    },
  }
}
