// The files the service reads at run time: the ISBN catalogue and the demo photos. They sit in the repo's resources/,
// found from the source files' own location; a bundled service (the app's built-in sandbox) is told where its copy of
// that folder is, with --resources, because a bundle no longer sits where the sources did.
import { join } from 'node:path'
import { DEMO_PHOTOS_FOLDER } from './demo/photos'
import { DEFAULT_CATALOGUE_FILE } from './lookup'

export interface ServiceResources {
  /** The local ISBN catalogue (catalogue/books.json). */
  catalogueFile: string
  /** The demo album's JPEGs (demo-photos/). */
  demoPhotosFolder: string
}

/** The files inside `folder`, laid out as the repo's resources/ is; the repo's own files when no folder is given. */
export function serviceResources(folder?: string): ServiceResources {
  if (folder === undefined) return { catalogueFile: DEFAULT_CATALOGUE_FILE, demoPhotosFolder: DEMO_PHOTOS_FOLDER }
  return { catalogueFile: join(folder, 'catalogue', 'books.json'), demoPhotosFolder: join(folder, 'demo-photos') }
}
