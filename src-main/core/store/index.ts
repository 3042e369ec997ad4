export { Caches, type Cached } from './caches'
export { LocalStore, type Params, type Row } from './database'
export {
  Drafts,
  REVISION_PAUSE_MS,
  REVISION_SPAN_MS,
  type Draft,
  type DraftChanges,
  type DraftConflict,
  type DraftInTrash,
  type DraftRemote,
  type DraftState,
  type NewDraft,
  type Revision,
} from './drafts'
export { MediaCopies, type MediaCopy } from './media-copies'
export { migrations, type Migration } from './migrations'
export { DataInUseError } from './ownership'
export { DEFAULT_MAX_IMAGE_WIDTH, WeblogSettings } from './weblog-settings'
