// The media namespace: images a person pastes, drops or picks into a post. Each is copied into Blogdesk's media
// folder (MediaCopies) and referred to in the draft as `blogdesk-media:<sha256>`; the sync engine uploads it through
// the weblog's UploadURI when the post is published. The editor shows a scaled-down copy (an image job).
import { randomUUID } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { LocalImage } from '../../../src-shared/contract'
import { CoreError } from '../errors'
import { IMAGE_EXTENSIONS, IMAGE_FORMATS_IN_WORDS, SNIFF_BYTES, sniffImageType, type ImageWorker } from '../media'
import type { MediaCopy } from '../store'
import type { HandlersOf, Services } from './services'

/** Previews of the images of the posts open lately, so reopening a post does not scale its photos again. */
const KEPT_PREVIEWS = 64

export function mediaHandlers(services: Services): HandlersOf<'media'> {
  const { media } = services
  const pastedDir = join(services.store.dataDir, 'pasted')
  // Pasted images left half-written by an app that stopped mid-paste; only this app uses the data dir.
  rmSync(pastedDir, { recursive: true, force: true })
  mkdirSync(pastedDir, { recursive: true })
  const previews = new Map<string, Promise<LocalImage>>()

  /** `what` names the image in an error: “photo.jpg”, or “An image of this post”. */
  function previewOf(copy: MediaCopy, what: string): Promise<LocalImage> {
    let preview = previews.get(copy.hash)
    if (preview) {
      // Most recently used last, so the oldest is the first to go.
      previews.delete(copy.hash)
    } else {
      preview = makePreview(services.images, copy, what)
      preview.catch(() => previews.delete(copy.hash))
    }
    previews.set(copy.hash, preview)
    for (const hash of previews.keys()) {
      if (previews.size <= KEPT_PREVIEWS) break
      previews.delete(hash)
    }
    return preview
  }

  return {
    async 'media:importFile'({ path }) {
      const copy = await media.add(path, { imageOnly: true })
      return previewOf(copy, `“${basename(path)}”`)
    },

    async 'media:importBytes'({ name, bytes }) {
      const type = sniffImageType(bytes.subarray(0, SNIFF_BYTES))
      if (type === null) {
        throw new CoreError('invalid-argument', `“${name}” is not an image Blogdesk can put in a post: it takes ${IMAGE_FORMATS_IN_WORDS} images.`)
      }
      // MediaCopies takes files: the pasted bytes go through one, in the data dir, removed once copied in.
      const pasted = join(pastedDir, `${randomUUID()}.${IMAGE_EXTENSIONS[type]}`)
      try {
        await writeFile(pasted, bytes, { mode: 0o600 })
        return await previewOf(await media.add(pasted, { imageOnly: true }), `“${name}”`)
      } finally {
        await rm(pasted, { force: true })
      }
    },

    async 'media:preview'({ hash }) {
      const copy = media.get(hash)
      if (copy === null) {
        throw new CoreError(
          'not-found',
          'An image of this post is no longer in Blogdesk’s media folder, so it cannot be shown or published. Remove it from the post and add the file again.',
        )
      }
      return previewOf(copy, 'An image of this post')
    },
  }
}

async function makePreview(images: ImageWorker, copy: MediaCopy, what: string): Promise<LocalImage> {
  try {
    return { hash: copy.hash, ...(await images.run({ kind: 'editor-preview', path: copy.path, type: copy.type, size: copy.size })) }
  } catch (error) {
    throw new CoreError(
      'invalid-argument',
      `${what} cannot be shown in the editor: Blogdesk could not read its ${formatOf(copy.type)} data (${(error as Error).message}). Save it as a JPEG or PNG and add it again.`,
      { cause: error },
    )
  }
}

function formatOf(type: MediaCopy['type']): string {
  return type === 'application/octet-stream' ? 'image' : type.slice('image/'.length).toUpperCase()
}
