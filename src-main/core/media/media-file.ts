// Opening a file a person dropped or picked, with refusals in words: gone, a folder, unreadable, too large.
import { open, type FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import { CoreError } from '../errors'

/** The largest file Blogdesk takes in (a photo or an upload); the services it talks to take far less. */
export const MAX_MEDIA_BYTES = 100 * 1024 * 1024

export interface OpenedMediaFile {
  handle: FileHandle
  size: number
}

/** Opens `path` for reading, refusing what is not a regular file of at most `maxBytes`. */
export async function openMediaFile(path: string, maxBytes: number): Promise<OpenedMediaFile> {
  let handle: FileHandle
  try {
    handle = await open(path, 'r')
  } catch (error) {
    throw unreadable(path, error)
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) {
      throw new CoreError('invalid-argument', `“${basename(path)}” is a folder, not a file. Open the folder and pick the files in it.`)
    }
    if (stats.size > maxBytes) throw tooLarge(path, stats.size, maxBytes)
    return { handle, size: stats.size }
  } catch (error) {
    await handle.close()
    throw error
  }
}

export function tooLarge(path: string, size: number, maxBytes: number): CoreError {
  return new CoreError(
    'invalid-argument',
    `“${basename(path)}” is ${describeBytes(size)}; Blogdesk takes files up to ${describeBytes(maxBytes)}. ` +
      'Export a smaller version and use that.',
  )
}

export function unreadable(path: string, error: unknown): CoreError {
  const code = (error as NodeJS.ErrnoException).code
  const name = `“${basename(path)}”`
  if (code === 'ENOENT') {
    return new CoreError('not-found', `${name} is no longer at ${path}: it was moved or deleted. Add it again from where it is now.`, {
      cause: error,
    })
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new CoreError('invalid-argument', `Blogdesk may not read ${name}. Allow reading it, or copy it somewhere you own, and add it again.`, {
      cause: error,
    })
  }
  if (code === 'EISDIR') {
    return new CoreError('invalid-argument', `${name} is a folder, not a file. Open the folder and pick the files in it.`, { cause: error })
  }
  return new CoreError('invalid-argument', `Blogdesk could not read ${name}: ${(error as Error).message}.`, { cause: error })
}

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes >= 10 * 1024 * 1024 ? 0 : 1)} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} bytes`
}
