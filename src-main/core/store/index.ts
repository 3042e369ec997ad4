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
  type RevisionReason,
  type SaveReason,
} from './drafts'
export { MediaCopies, type MediaCopy } from './media-copies'
export { migrations, type Migration } from './migrations'
export { DataInUseError } from './ownership'
export { DEFAULT_MAX_IMAGE_WIDTH, WeblogSettings } from './weblog-settings'
export { MATCH_END, MATCH_START, Search, matchQueryOf, type SearchDocument, type SearchResult } from './search'
