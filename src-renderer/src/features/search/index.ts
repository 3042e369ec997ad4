// Search across an account's drafts and posts: the dialog (mounted once by the app) and what the editor takes from
// it when a result opens.
export { SearchDialog, SEARCH_KEYS, searchableAccount } from './SearchDialog'
export { takeReveal, useSearchStore } from './store'
