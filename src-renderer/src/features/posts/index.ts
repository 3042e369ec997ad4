// The posts feature. PostsList is the window's first screen (a weblog's posts, where the app lands), so it comes with
// the window's own code: loaded when first shown, its chunk and then its request for the posts would wait on each
// other after the window is up. The rest loads when first shown.
import { lazyNamed } from '../../lib/lazyNamed'

export { PostsList } from './PostsList'
export { usePostsStore } from './store'
export { prepareListDates } from './dates'

export const CategoriesPane = lazyNamed(() => import('./CategoriesPane'), 'CategoriesPane')
export const CategoryPicker = lazyNamed(() => import('./CategoryPicker'), 'CategoryPicker')
export const ConflictView = lazyNamed(() => import('./ConflictView'), 'ConflictView')
