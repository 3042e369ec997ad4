// One process at a time per data folder. node-sqlite3-wasm locks a database by creating a `<file>.lock` directory,
// which a process that crashed or was killed leaves behind, and every later open would then fail "database is locked".
// A pid file in the folder tells a live owner from a dead one, so a crash never leaves the data locked for good.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { resolve } from 'node:path'

export interface DataFolderClaim {
  /** The pid file naming the owner. */
  ownerFile: string
  /** The SQLite file in the folder, whose lock directory a dead owner may have left. */
  databaseFile: string
  /** The refusal when a live process holds the folder: another one, or this one (`ownerPid === process.pid`). */
  inUse(ownerPid: number): Error
  /** The refusal when this user may not write the pid file. */
  notWritable(cause: unknown): Error
}

export interface Ownership {
  release(): void
}

/** The pid files this process holds: one naming this process without being held here is left from before a restart. */
const claimedHere = new Set<string>()

/** Claims the folder for this process, clearing the locks a dead owner left; throws the claim's refusals otherwise. */
export function claimDataFolder({ ownerFile, databaseFile, inUse, notWritable }: DataFolderClaim): Ownership {
  const claimed = resolve(ownerFile)
  if (claimedHere.has(claimed)) throw inUse(process.pid)
  while (!tryCreate(ownerFile, `${process.pid}\n`, notWritable)) {
    const owner = readOwner(ownerFile)
    if (owner !== null && owner !== process.pid && isRunning(owner)) throw inUse(owner)
    rmSync(ownerFile, { force: true })
  }
  claimedHere.add(claimed)
  // This process owns the folder now, so a SQLite lock left in it belongs to a process that died holding it.
  rmSync(`${databaseFile}.lock`, { recursive: true, force: true })
  return {
    release: () => {
      rmSync(ownerFile, { force: true })
      claimedHere.delete(claimed)
    },
  }
}

function tryCreate(file: string, content: string, notWritable: DataFolderClaim['notWritable']): boolean {
  let fd: number
  try {
    fd = openSync(file, 'wx', 0o600)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw notWritable(error)
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
