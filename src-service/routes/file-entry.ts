// The start of every POST whose entry carries a file (a photo, an upload): the media type is checked before a byte is
// read, the file streams into incoming/ (media/receive-entry.ts), and a retry under an Idempotency-Key that was
// already answered gets that first answer back, its file discarded, instead of a second copy.
import type { IncomingMessage } from 'node:http'
import type { MediaLibrary } from '../media/library'
import { MAX_FILE_BYTES, receiveEntryWithFile, type ReceivedEntry } from '../media/receive-entry'
import type { IdempotencyRecords } from '../store'
import { requireAtomMediaType } from './body'
import { idempotentRequest, replay, type IdempotentRequest } from './posts-idempotency'
import type { Reply } from './reply'

export type FileEntryPost =
  | { earlier: Reply }
  /** The receiver places or discards the file; with a key, it remembers its answer in the recording transaction. */
  | { earlier: null; received: ReceivedEntry; idempotent: IdempotentRequest | null }

export async function receiveFileEntry(
  request: IncomingMessage,
  records: IdempotencyRecords,
  library: MediaLibrary,
  userId: number,
): Promise<FileEntryPost> {
  requireAtomMediaType(request)
  const received = await receiveEntryWithFile(request, library, { maxFileBytes: MAX_FILE_BYTES })
  let idempotent: IdempotentRequest | null
  let earlier: Reply | null
  try {
    idempotent = idempotentRequest(request, received.fingerprint)
    earlier = idempotent && (await replay(records, userId, idempotent))
  } catch (refusal) {
    // An unusable or reused key is refused after the file arrived: nothing of this request may stay behind.
    await received.file?.discard()
    throw refusal
  }
  if (earlier) {
    await received.file?.discard()
    return { earlier }
  }
  return { earlier: null, received, idempotent }
}
