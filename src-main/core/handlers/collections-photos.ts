// What a photo dropped on an album shows before it is sent: its headers (when, where, with what camera) read by
// core's media previews, and a small upright thumbnail (an image job). Nothing leaves this computer.
import { basename } from 'node:path'
import type { PhotoPreview } from '../../../src-shared/contract'
import { readPhotoPreview, type ImageWorker } from '../media'

export async function photoPreviewOf(images: ImageWorker, path: string): Promise<PhotoPreview> {
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
    thumbnailUrl: await thumbnailOf(images, path),
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
async function thumbnailOf(images: ImageWorker, path: string): Promise<string | null> {
  try {
    return await images.run({ kind: 'thumbnail', path })
  } catch {
    // The photo is still sent as it is: the server reads formats this computer cannot show.
    return null
  }
}
