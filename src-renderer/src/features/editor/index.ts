// The editor feature. DraftsList is light and part of the first screen; PostEditor (TipTap) loads with the first
// draft opened.
import { lazyNamed } from '../../lib/lazyNamed'

export { DraftsList } from './DraftsList'
export { startNewPost, useAppCommand, useNewPostCommand } from './commands'
export { followDrafts, useDraftsStore } from './store'
export { UndoTrashToast } from './TrashView'
export const PostEditor = lazyNamed(() => import('./PostEditor'), 'PostEditor')
