// Uploading a file to a weblog's site (UploadURI, docs/PROTOCOL.md): any media type, named by the entry's title. A name
// already used on that weblog gets _1, _2 … before its extension, so an upload never replaces another.
import { formatW3cDate } from '../../src-protocol'
import { HttpError } from '../routes/reply'
import type { Store, Upload, Weblog } from '../store'
import { fileNameProblem, firstFreeName, splitExtension } from './file-names'
import type { MediaLibrary } from './library'
import { requireBase64File, type ReceivedEntry } from './receive-entry'

const UPLOAD_CONTENT_EXAMPLE = '<content mode="base64" type="image/png">…</content>'

export interface UploadRequest extends ReceivedEntry {
  weblog: Weblog
}

/** Stores the file; `respond` runs inside the recording transaction (see addPhoto). Consumes the received file. */
export async function addUpload<T>(
  store: Store,
  library: MediaLibrary,
  request: UploadRequest,
  respond: (upload: Upload) => Promise<T>,
): Promise<T> {
  try {
    const { weblog, entry } = request
    const requestedName = entry.title?.trim() ?? ''
    const problem = fileNameProblem(requestedName)
    if (problem) throw new HttpError(400, `${problem} (The entry's <title> names the uploaded file.)`)
    const { type, file } = requireBase64File(request, UPLOAD_CONTENT_EXAMPLE)
    if (type === null) {
      throw new HttpError(400, `The <content> has no type, so the file could not be served. Send ${UPLOAD_CONTENT_EXAMPLE}.`)
    }
    const mediaType = normalMediaType(type)
    const now = formatW3cDate(new Date())
    const storedName = library.newStoredName('uploads', weblog.id, splitExtension(requestedName)[1])
    return await library.recordWithFiles(store.transaction, [{ from: file.path, to: storedName }], async () => {
      await store.uploads.lockNames(weblog.id)
      const filename = await firstFreeName(requestedName, (candidate) => store.uploads.has(weblog.id, candidate))
      const upload = await store.uploads.add(
        weblog.id,
        { filename, mediaType, byteSize: file.size, sha256: file.sha256, storedName },
        now,
      )
      return respond(upload)
    })
  } finally {
    await request.file?.discard()
  }
}

const TOKEN = "[a-z0-9!#$&^_.+-]+"
const MEDIA_TYPE = new RegExp(`^(${TOKEN}/${TOKEN})(?:\\s*;\\s*charset\\s*=\\s*"?(${TOKEN})"?)?$`)

/**
 * The type the file is served with: `type/subtype`, lower case, with its charset when it has one (the only
 * parameter a browser needs). It becomes a response header, so nothing else gets through.
 */
function normalMediaType(type: string): string {
  const match = MEDIA_TYPE.exec(type.trim().toLowerCase())
  if (!match) {
    throw new HttpError(400, `The <content> type "${type}" is not a media type. Send one such as image/png or application/pdf.`)
  }
  const [, essence, charset] = match
  return charset ? `${essence}; charset=${charset}` : essence!
}
