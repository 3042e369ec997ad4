// Core's picture work with sharp (libvips): the album's thumbnails and the editor's previews. It is kept apart from
// everything else because, inside Electron on Linux, sharp's own GLib meets Electron's (electron/electron#46323): in
// the app these jobs run in a helper process (src-main/image-worker.ts), where a crash or an assertion flood ends a
// job, not Blogdesk. Jobs and answers are plain data, so they cross a process boundary as they are.
import { readFile } from 'node:fs/promises'
import sharp from 'sharp'

/** Wide enough for the drop zone's rows on a sharp screen, small enough that a hundred dropped photos stay light. */
const THUMBNAIL_PIXELS = 240
/** The editor column is at most this wide, twice over for sharp screens; larger images are scaled down to it. */
const PREVIEW_MAX_PIXELS = 1600
/** An image this small, already a size that fits and in a format every browser shows, is shown as it is. */
const SHOWN_AS_IS_MAX_BYTES = 512 * 1024
const SHOWN_AS_IS_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

export type ImageJob =
  /** A JPEG data: URL of the photo turned upright by its EXIF orientation. */
  | { kind: 'thumbnail'; path: string }
  /** What the editor shows of an image of a post: `type` and `size` are its copy's. */
  | { kind: 'editor-preview'; path: string; type: string; size: number }
  /**
   * The image as a post shows it, at most `width` pixels wide: written to `target` when it must be scaled down or
   * turned upright; `null` when the file as it is already fits (it is then sent untouched, its bytes as added).
   */
  | { kind: 'web-size'; path: string; type: string; width: number; target: string }

export interface EditorPreview {
  previewUrl: string
  width: number | null
  height: number | null
}

/** The scaled copy `web-size` wrote: what to upload in place of the original. */
export interface WebSized {
  type: string
  width: number
  height: number
}

export interface ImageResults {
  thumbnail: string
  'editor-preview': EditorPreview
  'web-size': WebSized | null
}

/** Runs image jobs; in the app, in a helper process that may die without taking Blogdesk with it. */
export interface ImageWorker {
  run<J extends ImageJob>(job: J): Promise<ImageResults[J['kind']]>
}

/** The jobs run here, in this process: what core uses under Node, and what the helper process runs. */
export const inProcessImages: ImageWorker = {
  run: (job) => runImageJob(job) as never,
}

export async function runImageJob(job: ImageJob): Promise<ImageResults[ImageJob['kind']]> {
  switch (job.kind) {
    case 'thumbnail':
      return thumbnail(job.path)
    case 'editor-preview':
      return editorPreview(job.path, job.type, job.size)
    case 'web-size':
      return webSize(job.path, job.type, job.width, job.target)
  }
}

async function thumbnail(path: string): Promise<string> {
  const bytes = await sharp(path)
    .rotate()
    .resize({ width: THUMBNAIL_PIXELS, height: THUMBNAIL_PIXELS, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 78 })
    .toBuffer()
  return dataUrl('image/jpeg', bytes)
}

async function editorPreview(path: string, type: string, size: number): Promise<EditorPreview> {
  // rotate() turns the image upright by its EXIF orientation, as browsers show it on the weblog.
  const image = sharp(path).rotate()
  const metadata = await image.metadata()
  const turned = (metadata.orientation ?? 1) >= 5
  const width = (turned ? metadata.height : metadata.width) ?? null
  const height = (turned ? metadata.width : metadata.height) ?? null
  const fits = width !== null && height !== null && Math.max(width, height) <= PREVIEW_MAX_PIXELS && !turned
  if (fits && size <= SHOWN_AS_IS_MAX_BYTES && SHOWN_AS_IS_TYPES.has(type)) {
    // Kept as it is: an animated GIF stays animated.
    return { previewUrl: dataUrl(type, await readFile(path)), width, height }
  }
  const scaled = await image
    .resize({ width: PREVIEW_MAX_PIXELS, height: PREVIEW_MAX_PIXELS, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer()
  return { previewUrl: dataUrl('image/webp', scaled), width, height }
}

/** Browsers show these on the weblog; HEIC and AVIF copies are sent as JPEG. */
const WEB_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

async function webSize(path: string, type: string, width: number, target: string): Promise<WebSized | null> {
  const metadata = await sharp(path).metadata()
  const turned = (metadata.orientation ?? 1) > 1
  const shownWidth = ((metadata.orientation ?? 1) >= 5 ? metadata.height : metadata.width) ?? 0
  if (shownWidth <= width && !turned && WEB_TYPES.has(type)) return null
  const outputType = WEB_TYPES.has(type) ? type : 'image/jpeg'
  // An animated GIF or WebP keeps its frames; EXIF (the place a photo was taken included) is not copied over.
  const scaled = sharp(path, { animated: outputType === 'image/gif' || outputType === 'image/webp' })
    .rotate()
    .resize({ width, withoutEnlargement: true })
  const formatted =
    outputType === 'image/png' ? scaled.png() : outputType === 'image/gif' ? scaled.gif() : outputType === 'image/webp' ? scaled.webp({ quality: 85 }) : scaled.jpeg({ quality: 85, mozjpeg: true })
  const info = await formatted.toFile(target)
  return { type: outputType, width: info.width, height: info.height }
}

function dataUrl(type: string, bytes: Uint8Array): string {
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`
}
