// The editor feature. DraftsList is light and imported at once; PostEditor (TipTap) is imported from
// ./PostEditor by a React.lazy in the shell, so it loads with the first draft opened.
export { DraftsList, type DraftsListProps } from './DraftsList'
export type { PostEditorProps } from './PostEditor'
export { startNewPost, useNewPostCommand } from './commands'
export { useDraftsStore } from './store'
