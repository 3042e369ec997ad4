// The service's store: everything it keeps lives in one data dir.
import { join } from 'node:path'
import { Applications } from './applications'
import { Connection } from './connection'
import { lockDataDir, prepareDataDir } from './data-dir'
import { Events } from './events'
import { SecretBox } from './secret-box'
import { Users } from './users'
import { Weblogs } from './weblogs'

export type { EventRecord, Events, NewEvent, ObjectType, Verb } from './events'
export type { User, Users } from './users'
export type { NewWeblog, Weblog, Weblogs } from './weblogs'

export const DATABASE_FILE = 'service.sqlite'
export const SECRET_KEY_FILE = 'secret.key'

export interface Store {
  readonly users: Users
  readonly weblogs: Weblogs
  readonly applications: Applications
  readonly events: Events
  readonly secrets: SecretBox
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
    secrets,
    transaction: (work) => db.transaction(work),
    close: () => {
      if (!db.isOpen) return
      db.close()
      lock.release()
    },
  }
}
