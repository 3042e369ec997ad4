// One Blogdesk at a time per data dir. node-sqlite3-wasm locks a database by creating a `<file>.lock` directory,
// which an app that crashed or was killed leaves behind, and every later open would then fail "database is locked".
// A pid file beside the database tells a live owner from a dead one, so a crash never leaves the data locked for good.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

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

export interface Ownership {
  release(): void
}

export const ownerFileOf = (databaseFile: string) => `${databaseFile}.pid`

/** The databases this process holds: a pid file naming this process for another one is left from before a restart. */
const claimedHere = new Set<string>()

/** Claims `databaseFile` (and so the data dir around it) for this process, clearing a lock its dead owner left. */
export function claimDatabase(databaseFile: string): Ownership {
  const claimed = resolve(databaseFile)
  if (claimedHere.has(claimed)) throw new DataInUseError(process.pid, databaseFile)
  const ownerFile = ownerFileOf(databaseFile)
  while (!tryCreate(ownerFile, `${process.pid}\n`)) {
    const owner = readOwner(ownerFile)
    if (owner !== null && owner !== process.pid && isRunning(owner)) throw new DataInUseError(owner, databaseFile)
    rmSync(ownerFile, { force: true })
  }
  claimedHere.add(claimed)
  // This process owns the database now, so a SQLite lock left beside it belongs to a Blogdesk that died holding it.
  rmSync(`${databaseFile}.lock`, { recursive: true, force: true })
  return {
    release: () => {
      rmSync(ownerFile, { force: true })
      claimedHere.delete(claimed)
    },
  }
}

function tryCreate(file: string, content: string): boolean {
  let fd: number
  try {
    fd = openSync(file, 'wx', 0o600)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new Error(`Blogdesk cannot write in ${dirname(file)}, where it keeps your drafts. Allow this user to write there.`, {
        cause: error,
      })
    }
    throw error
  }
  try {
    writeSync(fd, content)
  } finally {
    closeSync(fd)
  }
  return true
}

function readOwner(ownerFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(ownerFile, 'utf8'), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null // removed meanwhile by its owner, or unreadable: either way nobody live claims the data through it
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
