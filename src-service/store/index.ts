// The service's store: everything it keeps lives in one data dir, its database too unless it is given another engine
// (PostgreSQL, for several instances). Every method is asynchronous, as PostgreSQL is.
import { join } from 'node:path'
import type { NonceLedgerFactory } from '../../src-protocol'
import { Applications } from './applications'
import { BatchReads } from './batch-reads'
import { Categories } from './categories'
import { lockDataDir, prepareDataDir } from './data-dir'
import { Directory } from './directory'
import type { Engine } from './engine'
import { Events } from './events'
import { IdempotencyRecords } from './idempotency'
import { Lists } from './lists'
import { Albums, Photos, Uploads } from './media'
import { OAuthCredentials } from './oauth'
import { Posts, SCHEDULED_DUE } from './posts'
import { Profiles } from './profiles'
import { SecretBox } from './secret-box'
import { sharedSecretBox } from './service-keys'
import { SignInFailures } from './sign-in-failures'
import { Comments, Favorites, Groups, Relationships } from './social'
import { openPostgresEngine } from './postgres-engine'
import { SqliteEngine } from './sqlite-engine'
import { TurnBatch } from './turn-batch'
import { Users } from './users'
import { Weblogs } from './weblogs'
import { wsseNonceLedger } from './wsse-nonces'

export type { Categories, Category, CategoryMatch } from './categories'
export type { BatchReads } from './batch-reads'
export type { Directory, KeyedApplication, NamedObject, UrlIdKind } from './directory'
export type { Dialect, Engine } from './engine'
export type { EventRecord, Events, NewEvent, ObjectType, StreamCursor, Verb } from './events'
export type { IdempotencyRecord, IdempotencyRecords, StoredResponse } from './idempotency'
export { ITEM_FIELDS, itemTitle } from './lists'
export type { ItemField, ItemFields, List, ListItem, Lists, ListType, NewList, NewListItem, Notes } from './lists'
export type { Album, Albums, Photo, PhotoFields, Photos, Upload, UploadFields, Uploads } from './media'
export type { AccessTokenGrant, OAuthCredentials, RequestToken, RequestTokenState, TokenCredentials } from './oauth'
export type { ContentKind, Post, PostFields, Posts } from './posts'
export type { Person, Profile, Profiles } from './profiles'
export type { Comment, CommentFormat, Comments, Favorites, Group, Groups, Membership, MembershipRole, NewComment, NewGroup, RelationshipKind, Relationships } from './social'
export type { SignInFailures } from './sign-in-failures'
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
  readonly oauth: OAuthCredentials
  readonly directory: Directory
  readonly profiles: Profiles
  readonly groups: Groups
  readonly relationships: Relationships
  readonly favorites: Favorites
  readonly comments: Comments
  readonly batch: BatchReads
  readonly secrets: SecretBox
  /** Failed sign-ins per account and address, counted in the database (auth/sign-in-throttle.ts). */
  readonly signInFailures: SignInFailures
  /** Where the WSSE verifier keeps spent nonces: memory on SQLite, the database on PostgreSQL (wsse-nonces.ts). */
  readonly wsseNonces: NonceLedgerFactory
  /**
   * Grows with every write that may change what a rendering shows, by this instance or (on PostgreSQL) any other
   * sharing the database: a rendering stays current while it is unchanged (routes/render-cache.ts). One read each.
   */
  writes(): Promise<number>
  /**
   * What a read looks at first, in one look (one round trip on PostgreSQL): the count of writes, as `writes()`, and
   * whether a scheduled post's date (`now`) has come (routes/scheduled-posts.ts).
   */
  readState(now: string): Promise<ReadState>
  /**
   * Runs `work` in one transaction: all of it is stored, or (when it throws) none of it. Every store call `work` makes,
   * however deep in its awaits, belongs to it; nested calls are savepoints.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>
  close(): Promise<void>
}

export interface ReadState {
  writes: number
  scheduledDue: boolean
}

export interface StoreOptions {
  /** A PostgreSQL URL (database-url.ts): the data, the keys, WSSE nonces and sign-in failures there instead of in
   * the data dir, which then holds no more than the ownership lock (and media, without --media-dir). */
  database?: string
}

/** Opens the store in `dataDir`, creating the dir and (without another engine) its key and database on first use. */
export async function openStore(dataDir: string, options: StoreOptions = {}): Promise<Store> {
  prepareDataDir(dataDir)
  const databaseFile = join(dataDir, DATABASE_FILE)
  const lock = lockDataDir(dataDir, databaseFile)
  let db: Engine
  let writes: () => Promise<number>
  let readState: (now: string) => Promise<ReadState>
  let secrets: SecretBox
  try {
    if (options.database === undefined) {
      secrets = SecretBox.openOrCreate(join(dataDir, SECRET_KEY_FILE))
      const sqlite = SqliteEngine.open(databaseFile)
      db = sqlite
      writes = () => Promise.resolve(sqlite.writes)
      // The count first: a write landing between the two only makes what the read renders count as older.
      readState = async (now) => {
        const count = sqlite.writes
        return { writes: count, scheduledDue: await posts.hasScheduledDue(now) }
      }
    } else {
      const postgres = await openPostgresEngine(options.database)
      db = postgres
      writes = () => postgres.writeVersion()
      // Reads beginning together share one look, at the latest of their times; each releases what is due by its own.
      const readStates = new TurnBatch(postgres, async (times: readonly string[]) => {
        const latest = times.reduce((later, time) => (time > later ? time : later))
        const { version, value } = await postgres.writeVersionWith(SCHEDULED_DUE, { ':now': latest })
        return times.map(() => ({ writes: version, scheduledDue: Number(value) === 1 }))
      })
      readState = (now) => readStates.get(now)
      secrets = await sharedSecretBox(postgres, join(dataDir, SECRET_KEY_FILE)).catch(async (error: unknown) => {
        await postgres.close()
        throw error
      })
    }
  } catch (error) {
    lock.release()
    throw error
  }
  const posts = new Posts(db)
  let closing: Promise<void> | null = null
  return {
    users: new Users(db, secrets),
    weblogs: new Weblogs(db),
    applications: new Applications(db),
    events: new Events(db),
    posts,
    categories: new Categories(db),
    idempotency: new IdempotencyRecords(db),
    lists: new Lists(db),
    albums: new Albums(db),
    photos: new Photos(db),
    uploads: new Uploads(db),
    oauth: new OAuthCredentials(db, secrets),
    directory: new Directory(db),
    profiles: new Profiles(db),
    groups: new Groups(db),
    relationships: new Relationships(db),
    favorites: new Favorites(db),
    comments: new Comments(db),
    batch: new BatchReads(db),
    secrets,
    signInFailures: new SignInFailures(db),
    wsseNonces: wsseNonceLedger(db),
    writes,
    readState,
    transaction: (work) => db.transaction(work),
    close: () =>
      (closing ??= db.close().finally(() => lock.release())),
  }
}
