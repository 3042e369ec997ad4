// UploadURI (docs/PROTOCOL.md): POST /t/atom/weblog/blog_id=<id>/svc=upload with an entry whose title names the file
// and whose content is the file in base64. The answer, as Movable Type's: 201 and an entry whose `alternate` link is
// the file's public URL (typed with the file's media type); Location is that URL too. No weblog entry is created.
import { writeEntry, type EntryToWrite } from '../../src-protocol'
import type { AuthenticatedHandler } from '../auth/wsse'
import type { MediaLibrary } from '../media/library'
import { addUpload } from '../media/upload-intake'
import { uploadUrl } from '../public/media'
import type { Store, Upload, Weblog } from '../store'
import { receiveFileEntry } from './file-entry'
import { ownedWeblog } from './ownership'
import { remember } from './posts-idempotency'
import { atomReply, type Handler } from './reply'
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
    const weblog = await ownedWeblog(store, user, params['blogId'])
    const incoming = await receiveFileEntry(request, store.idempotency, library, user.id)
    if (incoming.earlier) return incoming.earlier
    const { received, idempotent } = incoming
    return addUpload(store, library, { ...received, weblog }, async (upload) => {
      const location = uploadUrl(origin, weblog.slug, upload.filename)
      const body = writeEntry(uploadEntry(origin, weblog, upload))
      const reply = { ...atomReply(201, body, { Location: location }), body }
      if (idempotent) await remember(store.idempotency, user.id, idempotent, reply)
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
