// Files waiting to be sent are copied into <data dir>/media/<sha256>.<extension>: a queued photo must survive its
// original being moved, renamed or edited before the network comes back. Named by content, so the same bytes are
// kept once, and a weblog that already has them (uploaded for another post) is not sent them again.
import { createHash, randomUUID } from 'node:crypto'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { CoreError } from '../errors'
import {
  IMAGE_EXTENSIONS,
  IMAGE_FORMATS_IN_WORDS,
  MAX_MEDIA_BYTES,
  SNIFF_BYTES,
  openMediaFile,
  sniffImageType,
  tooLarge,
  unreadable,
  type ImageType,
} from '../media'
import type { LocalStore } from './database'

export interface MediaCopy {
  /** SHA-256 of the bytes, hex. */
  hash: string
  path: string
  /** Sniffed from the bytes: an image type, or application/octet-stream for anything else. */
  type: ImageType | 'application/octet-stream'
  size: number
}

/** Copy in this much at a time: large enough to stream quickly, small enough never to hold a photo in memory. */
const COPY_CHUNK_BYTES = 256 * 1024
const INCOMING_PREFIX = '.incoming-'

export class MediaCopies {
  readonly #store: LocalStore
  readonly #dir: string
  readonly #maxBytes: number
  readonly #now: () => number

  constructor(store: LocalStore, options: { maxBytes?: number; now?: () => number } = {}) {
    this.#store = store
    this.#dir = join(store.dataDir, 'media')
    this.#maxBytes = options.maxBytes ?? MAX_MEDIA_BYTES
    this.#now = options.now ?? Date.now
    mkdirSync(this.#dir, { recursive: true })
    // Half-copied files left by an app that stopped mid-copy; only this app uses the data dir (ownership.ts).
    for (const name of readdirSync(this.#dir)) {
      if (name.startsWith(INCOMING_PREFIX)) rmSync(join(this.#dir, name), { force: true })
    }
  }

  /**
   * Copies `sourcePath` in, hashing it as it streams, and returns the copy (the existing one when the same bytes
   * were added before). With `imageOnly`, anything that is not a JPEG, PNG, GIF, WebP, HEIC or AVIF is refused.
   */
  async add(sourcePath: string, options: { imageOnly?: boolean } = {}): Promise<MediaCopy> {
    const { handle, size: statedSize } = await openMediaFile(sourcePath, this.#maxBytes)
    const incoming = join(this.#dir, `${INCOMING_PREFIX}${randomUUID()}`)
    let copied: { hash: string; type: MediaCopy['type']; size: number }
    try {
      copied = await this.#copy(sourcePath, handle, statedSize, incoming, options.imageOnly ?? false)
    } catch (error) {
      await rm(incoming, { force: true })
      throw error
    } finally {
      await handle.close()
    }

    const extension = copied.type === 'application/octet-stream' ? extensionOf(sourcePath) : IMAGE_EXTENSIONS[copied.type]
    const existing = this.get(copied.hash)
    const path = existing?.path ?? join(this.#dir, `${copied.hash}.${extension}`)
    if ((await sizeOf(path)) === copied.size) await rm(incoming, { force: true })
    else await rename(incoming, path) // new, or the kept copy went missing or was damaged: this one replaces it
    this.#store.run(
      `INSERT INTO media_copies (hash, type, extension, size, added_at) VALUES (:hash, :type, :extension, :size, :addedAt)
       ON CONFLICT (hash) DO NOTHING`,
      { hash: copied.hash, type: copied.type, extension, size: copied.size, addedAt: new Date(this.#now()).toISOString() },
    )
    return this.get(copied.hash)!
  }

  get(hash: string): MediaCopy | null {
    const row = this.#store.get('SELECT * FROM media_copies WHERE hash = :hash', { hash })
    if (!row) return null
    return {
      hash,
      path: join(this.#dir, `${hash}.${String(row['extension'])}`),
      type: String(row['type']) as MediaCopy['type'],
      size: Number(row['size']),
    }
  }

  /**
   * Deletes the copies among `hashes` that nothing refers to any more (no draft or revision of any account, no
   * operation still to be sent), files and records: what an account removed with its drafts leaves behind. A copy
   * being added right now is never among them. Returns the hashes of the copies deleted.
   */
  async forgetUnreferenced(hashes: Iterable<string>): Promise<string[]> {
    const forgotten: string[] = []
    for (const hash of new Set(hashes)) {
      const copy = this.get(hash)
      if (copy === null || this.#isReferenced(hash)) continue
      this.#store.run('DELETE FROM media_copies WHERE hash = :hash', { hash })
      await rm(copy.path, { force: true })
      forgotten.push(hash)
    }
    return forgotten
  }

  /** A path in the media folder for a file made only to be sent (a scaled image): the caller removes it; a start does too. */
  scratchPath(): string {
    return join(this.#dir, `${INCOMING_PREFIX}${randomUUID()}`)
  }

  /** Where `weblogPostUri`'s UploadURI put these bytes (or `<hash>@<width>w`, the image scaled to that width) before. */
  uploadedUrl(weblogPostUri: string, hash: string): string | null {
    const row = this.#store.get('SELECT url FROM uploaded_media WHERE weblog_post_uri = :weblogPostUri AND hash = :hash', {
      weblogPostUri,
      hash,
    })
    return row ? String(row['url']) : null
  }

  rememberUpload(weblogPostUri: string, hash: string, url: string): void {
    this.#store.run(
      `INSERT INTO uploaded_media (weblog_post_uri, hash, url, uploaded_at) VALUES (:weblogPostUri, :hash, :url, :uploadedAt)
       ON CONFLICT (weblog_post_uri, hash) DO UPDATE SET url = excluded.url, uploaded_at = excluded.uploaded_at`,
      { weblogPostUri, hash, url, uploadedAt: new Date(this.#now()).toISOString() },
    )
  }

  /** A draft's text refers to a copy as `blogdesk-media:<hash>` (sync/inline-media.ts); an operation's payload by its hash. */
  #isReferenced(hash: string): boolean {
    const row = this.#store.get(
      `SELECT EXISTS (SELECT 1 FROM drafts WHERE content LIKE :inText)
           OR EXISTS (SELECT 1 FROM draft_revisions WHERE content LIKE :inText)
           OR EXISTS (SELECT 1 FROM outbox WHERE state != 'done' AND payload LIKE :inPayload) AS referenced`,
      { inText: `%blogdesk-media:${hash}%`, inPayload: `%${hash}%` },
    )
    return Number(row?.['referenced']) === 1
  }

  async #copy(
    sourcePath: string,
    source: FileHandle,
    statedSize: number,
    incoming: string,
    imageOnly: boolean,
  ): Promise<{ hash: string; type: MediaCopy['type']; size: number }> {
    const hash = createHash('sha256')
    const target = await open(incoming, 'wx', 0o600)
    let type: MediaCopy['type'] | null = null
    let size = 0
    try {
      const chunk = new Uint8Array(COPY_CHUNK_BYTES)
      for (;;) {
        const { bytesRead } = await source.read(chunk, 0, chunk.length, size).catch((error: unknown) => {
          throw unreadable(sourcePath, error)
        })
        if (bytesRead === 0) break
        const bytes = chunk.subarray(0, bytesRead)
        if (type === null) {
          type = sniffImageType(bytes.subarray(0, SNIFF_BYTES)) ?? 'application/octet-stream'
          if (imageOnly && type === 'application/octet-stream') {
            throw new CoreError(
              'invalid-argument',
              `“${basename(sourcePath)}” is not a photo Blogdesk can send: it takes ${IMAGE_FORMATS_IN_WORDS} images.`,
            )
          }
        }
        size += bytesRead
        // The file may have grown since it was measured.
        if (size > this.#maxBytes) throw tooLarge(sourcePath, Math.max(size, statedSize), this.#maxBytes)
        hash.update(bytes)
        await target.write(bytes)
      }
      // On the disk before the database says the copy exists, so a power cut cannot leave a record of a torn file.
      await target.sync()
    } finally {
      await target.close()
    }
    if (type === null) {
      throw new CoreError('invalid-argument', `“${basename(sourcePath)}” is empty. Pick the file again once it has been saved.`)
    }
    return { hash: hash.digest('hex'), type, size }
  }
}

/** A safe extension for a copy of something that is not an image: the source's own, when it is a plain one. */
function extensionOf(sourcePath: string): string {
  const extension = extname(sourcePath).slice(1).toLowerCase()
  return /^[a-z0-9]{1,10}$/.test(extension) ? extension : 'bin'
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size
  } catch {
    return null
  }
}
