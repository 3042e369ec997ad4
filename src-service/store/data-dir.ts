// The data dir holds everything the service keeps: the SQLite file, its key file, and (later) media files.
// Only one service may use a data dir at a time. node-sqlite3-wasm locks a database by creating a `<file>.lock`
// directory, which a crashed or killed process leaves behind; the pid file written here tells a live owner from a
// dead one, so a crash never leaves the data locked for good.
import { closeSync, constants, accessSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
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

export interface DataDirLock {
  release(): void
}

/** Claims `dir` for this process; `databaseFile` is the SQLite file inside it whose stale lock may be cleared. */
export function lockDataDir(dir: string, databaseFile: string): DataDirLock {
  const pidFile = join(dir, 'service.pid')
  while (!tryCreate(pidFile, `${process.pid}\n`)) {
    const owner = readOwner(pidFile)
    if (owner !== null && isRunning(owner)) {
      throw new SetupError(
        `Another Blogdesk service (process ${owner}) is using ${dir}. Stop it first, or choose another data dir.`,
      )
    }
    rmSync(pidFile, { force: true })
  }
  // This process owns the dir now, so any SQLite lock left in it belongs to a service that died holding it.
  rmSync(`${databaseFile}.lock`, { recursive: true, force: true })
  return { release: () => rmSync(pidFile, { force: true }) }
}

function tryCreate(file: string, content: string): boolean {
  let fd: number
  try {
    fd = openSync(file, 'wx', 0o600)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    writeSync(fd, content)
  } finally {
    closeSync(fd)
  }
  return true
}

function readOwner(pidFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null // removed meanwhile by its owner, or unreadable: either way nobody live claims the dir through it
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
