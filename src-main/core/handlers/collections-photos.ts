// What a photo dropped on an album shows before it is sent: its headers (when, where, with what camera) read by
// core's media previews, and a small upright thumbnail made with sharp. Nothing leaves this computer.
import { basename } from 'node:path'
import sharp from 'sharp'
import type { PhotoPreview } from '../../../src-shared/contract'
import { readPhotoPreview } from '../media'

/** Wide enough for the drop zone's rows on a sharp screen, small enough that a hundred dropped photos stay light. */
const THUMBNAIL_PIXELS = 240

export async function photoPreviewOf(path: string): Promise<PhotoPreview> {
  // Refuses, in words, what is not a photo or is larger than Blogdesk takes, before anything is decoded.
  const preview = await readPhotoPreview(path)
  // Orientations 5 to 8 turn the picture a quarter: it shows with its stored width and height swapped.
  const turned = preview.orientation >= 5
  return {
    path,
    name: basename(path),
    type: preview.type,
    size: preview.size,
    width: turned ? preview.height : preview.width,
    height: turned ? preview.width : preview.height,
    takenAt: preview.takenAt,
    camera: cameraName(preview.camera),
    location: preview.location,
    thumbnailUrl: await thumbnailOf(path),
  }
}

/** "Apple" and "iPhone 12" make "Apple iPhone 12"; the model alone when it names the maker ("NIKON CORPORATION", "NIKON D750"). */
export function cameraName(camera: { make: string | null; model: string | null } | null): string | null {
  if (camera === null) return null
  const { make, model } = camera
  if (make === null || model === null) return model ?? make
  const maker = make.split(/\s+/)[0]!.toLowerCase()
  return model.toLowerCase().startsWith(maker) ? model : `${make} ${model}`
}

/** A JPEG data: URL turned upright by the photo's EXIF orientation; null for a format this computer cannot decode (HEIC). */
async function thumbnailOf(path: string): Promise<string | null> {
  try {
    const bytes = await sharp(path)
      .rotate()
      .resize({ width: THUMBNAIL_PIXELS, height: THUMBNAIL_PIXELS, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 78 })
      .toBuffer()
    return `data:image/jpeg;base64,${bytes.toString('base64')}`
  } catch {
    // The photo is still sent as it is: the server reads formats this computer cannot show.
    return null
  }
}
