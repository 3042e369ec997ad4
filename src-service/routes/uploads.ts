// UploadURI (PROTOCOL.md): POST /t/atom/weblog/blog_id=<id>/svc=upload with an entry whose title names the file and
// whose content is the file in base64. The answer, as Movable Type's: 201 and an entry whose `alternate` link is
// the file's public URL (typed with the file's media type); Location is that URL too. No weblog entry is created.
import { writeEntry, type EntryToWrite } from '../../src-protocol'
import type { AuthenticatedHandler } from '../auth/wsse'
import type { MediaLibrary } from '../media/library'
import { MAX_FILE_BYTES, receiveEntryWithFile } from '../media/receive-entry'
import { addUpload } from '../media/upload-intake'
import { uploadUrl } from '../public/media'
import type { Store, Upload, User, Weblog } from '../store'
import { requireAtomMediaType } from './body'
import { idOf } from './posts-entry'
import { idempotentRequest, remember, replay } from './posts-idempotency'
import { atomReply, HttpError, type Handler } from './reply'
import type { Router } from './router'
import { tagUri } from './tag-uri'

export function registerUploadRoutes(
  router: Router,
  store: Store,
  library: MediaLibrary,
  withWsse: (handler: AuthenticatedHandler) => Handler,
): void {
  router.post('/t/atom/weblog/blog_id=:blogId/svc=upload', withWsse(uploadFile(store, library)))
}

function uploadFile(store: Store, library: MediaLibrary): AuthenticatedHandler {
  return async ({ request, origin, params }, user) => {
    const weblog = ownWeblog(store, user, params['blogId'])
    requireAtomMediaType(request)
    const received = await receiveEntryWithFile(request, library, { maxFileBytes: MAX_FILE_BYTES })
    const idempotent = idempotentRequest(request, received.fingerprint)
    const earlier = idempotent && replay(store.idempotency, user.id, idempotent)
    if (earlier) {
      await received.file?.discard()
      return earlier
    }
    return addUpload(store, library, { ...received, weblog }, (upload) => {
      const location = uploadUrl(origin, weblog.slug, upload.filename)
      const body = writeEntry(uploadEntry(origin, weblog, upload))
      const reply = { ...atomReply(201, body, { Location: location }), body }
      if (idempotent) remember(store.idempotency, user.id, idempotent, reply)
      return reply
    })
  }
}

function uploadEntry(origin: string, weblog: Weblog, upload: Upload): EntryToWrite {
  return {
    title: upload.filename,
    issued: upload.created,
    id: tagUri(origin, upload.created, 'upload', upload.id),
    links: [{ rel: 'alternate', href: uploadUrl(origin, weblog.slug, upload.filename), type: upload.mediaType, title: upload.filename }],
  }
}

/** The weblog the address names, when it is the user's: 404 for none, 403 for another user's. */
function ownWeblog(store: Store, user: User, blogId: string | undefined): Weblog {
  const id = idOf(blogId)
  const weblog = id === null ? null : store.weblogs.find(id)
  if (!weblog) throw new HttpError(404, `There is no weblog ${blogId}. Check the address in your weblog list.`)
  if (weblog.ownerId !== user.id) {
    throw new HttpError(403, `The weblog ${blogId} belongs to another user; ${user.username} may not upload to it.`)
  }
  return weblog
}
