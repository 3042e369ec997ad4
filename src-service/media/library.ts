// The files behind uploads and photos, under <media-dir>/media/ (the data dir unless `--media-dir` names a folder that
// several instances share). Every file is stored under a name the service makes up (folder/owner id/random hex +
// extension) and recorded in the database; public URLs are looked up there, so no text from a request ever becomes
// part of a path. A file arrives in incoming/ and is renamed into place (same file system, so atomically: a reader on
// any instance finds the whole file or none) only by the transaction that records it.
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, renameSync, rmSync } from 'node:fs'
import { open, rm, type FileHandle } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, join, resolve } from 'node:path'

export type MediaFolder = 'uploads' | 'photos' | 'thumbnails'

const MEDIA_FOLDER = 'media'
const INCOMING_FOLDER = 'incoming'
const STORED_NAME = /^(uploads|photos|thumbnails)\/\d+\/[0-9a-f]{32}(\.[a-z0-9]{1,10})?$/

export interface IncomingFile {
  path: string
  handle: FileHandle
}

export class MediaLibrary {
  readonly root: string
  /** This instance's own folder in incoming/, where files arrive. */
  readonly incoming: string

  private constructor(root: string, incoming: string) {
    this.root = root
    this.incoming = incoming
  }

  /**
   * Opens <mediaDir>/media, creating it, for the one process that owns `dataDir`. Its files arrive in a folder of
   * incoming/ named after that host and data dir, so instances sharing the media dir never touch each other's
   * arrivals, and the files a crashed run of this instance left half-received are removed here.
   */
  static open(mediaDir: string, dataDir: string): MediaLibrary {
    const root = join(mediaDir, MEDIA_FOLDER)
    const owner = createHash('sha256').update(`${hostname()}\0${resolve(dataDir)}`).digest('hex').slice(0, 16)
    const library = new MediaLibrary(root, join(root, INCOMING_FOLDER, owner))
    rmSync(library.incoming, { recursive: true, force: true })
    mkdirSync(library.incoming, { recursive: true, mode: 0o700 })
    return library
  }

  /** A new, empty file in incoming/, open for writing; the caller removes it unless it is placed. */
  async createIncoming(): Promise<IncomingFile> {
    const path = this.incomingPath()
    return { path, handle: await open(path, 'wx', 0o600) }
  }

  /** A fresh path in incoming/ for a file someone else writes (sharp's thumbnail). */
  incomingPath(): string {
    return join(this.incoming, `${randomHex()}.part`)
  }

  /** A name for a new stored file, e.g. photos/3/5f0c….jpg; `extension` is kept only when it is plain. */
  newStoredName(folder: MediaFolder, ownerId: number, extension: string): string {
    const plain = /^\.[a-z0-9]{1,10}$/.test(extension.toLowerCase()) ? extension.toLowerCase() : ''
    return `${folder}/${ownerId}/${randomHex()}${plain}`
  }

  /** Where a stored file lives on disk. */
  pathOf(storedName: string): string {
    if (!STORED_NAME.test(storedName)) throw new Error(`Not a stored media name: ${JSON.stringify(storedName)}`)
    return join(this.root, ...storedName.split('/'))
  }

  /**
   * Runs `record` in `transaction`, then moves each incoming file to its stored name before the commit: the rows
   * and the files exist together or not at all (a file placed before a failed commit is removed again). `earlier`
   * runs first in the transaction: an answer it finds (another request's, under the same Idempotency-Key, committed
   * meanwhile) is the result instead, and nothing is recorded or placed.
   */
  async recordWithFiles<T>(
    transaction: Transaction,
    files: readonly FileMove[],
    record: () => Promise<T>,
    earlier: () => Promise<T | null> = async () => null,
  ): Promise<T> {
    const placed: string[] = []
    try {
      return await transaction(async () => {
        const answered = await earlier()
        if (answered !== null) return answered
        const result = await record()
        for (const { from, to } of files) {
          this.#place(from, to)
          placed.push(to)
        }
        return result
      })
    } catch (error) {
      for (const storedName of placed) rmSync(this.pathOf(storedName), { force: true })
      throw error
    }
  }

  #place(incomingPath: string, storedName: string): void {
    const target = this.pathOf(storedName)
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
    renameSync(incomingPath, target)
  }
}

/** The store's transaction function. */
export type Transaction = <T>(work: () => Promise<T>) => Promise<T>

/** An incoming file and the stored name it takes. */
export interface FileMove {
  from: string
  to: string
}

/** Removes an incoming file that was not placed; a file already moved away is fine. */
export async function discardIncoming(path: string): Promise<void> {
  await rm(path, { force: true })
}

function randomHex(): string {
  return randomBytes(16).toString('hex')
}
