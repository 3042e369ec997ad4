// The data dir holds everything the service keeps: the SQLite file, its key file, and media files. Only one service
// may use a data dir at a time, through the shared data-folder lock (src-shared/sqlite/ownership.ts).
import { accessSync, constants, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { claimDataFolder, type Ownership } from '../../src-shared/sqlite'
import { SetupError } from '../setup-error'

/** Creates `dir` if missing and checks the service can write in it. */
export function prepareDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.W_OK | constants.X_OK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new SetupError(
        `Cannot keep data in ${dir}: it is a file, not a folder. Choose a folder path (a missing folder is created).`,
      )
    }
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new SetupError(
        `Cannot keep data in ${dir}: this user may not write there. Choose a folder you can write to.`,
      )
    }
    throw error
  }
}

/** Claims `dir` for this process; `databaseFile` is the SQLite file inside it whose stale lock may be cleared. */
export function lockDataDir(dir: string, databaseFile: string): Ownership {
  return claimDataFolder({
    ownerFile: join(dir, 'service.pid'),
    databaseFile,
    inUse: (owner) =>
      new SetupError(`Another Blogdesk service (process ${owner}) is using ${dir}. Stop it first, or choose another data dir.`),
    notWritable: () => new SetupError(`Cannot keep data in ${dir}: this user may not write there. Choose a folder you can write to.`),
  })
}
