// One Blogdesk at a time per data dir, through the shared data-folder lock: a pid file beside the database.
import { dirname } from 'node:path'
import { claimDataFolder, type Ownership } from '../../../src-shared/sqlite'

export type { Ownership }

/** Another running Blogdesk has this data open. */
export class DataInUseError extends Error {
  readonly ownerPid: number

  constructor(ownerPid: number, databaseFile: string) {
    const dataDir = dirname(databaseFile)
    super(
      ownerPid === process.pid
        ? `This Blogdesk already has the data in ${dataDir} open; close it before opening it again.`
        : `Blogdesk is already running (process ${ownerPid}) with the data in ${dataDir}. Switch to that window, or ` +
            `quit it and start Blogdesk again. If no Blogdesk is running, another program now has process number ` +
            `${ownerPid}: delete ${ownerFileOf(databaseFile)} and start Blogdesk again.`,
    )
    this.name = 'DataInUseError'
    this.ownerPid = ownerPid
  }
}

const ownerFileOf = (databaseFile: string) => `${databaseFile}.pid`

/** Claims `databaseFile` (and so the data dir around it) for this process, clearing a lock its dead owner left. */
export function claimDatabase(databaseFile: string): Ownership {
  return claimDataFolder({
    ownerFile: ownerFileOf(databaseFile),
    databaseFile,
    inUse: (ownerPid) => new DataInUseError(ownerPid, databaseFile),
    notWritable: (cause) =>
      new Error(`Blogdesk cannot write in ${dirname(databaseFile)}, where it keeps your drafts. Allow this user to write there.`, {
        cause,
      }),
  })
}
