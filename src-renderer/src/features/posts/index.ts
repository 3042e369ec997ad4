// Every part of this feature is drawn after the window's first screen: each loads when first shown.
import { lazyNamed } from '../../lib/lazyNamed'

export const CategoriesPane = lazyNamed(() => import('./CategoriesPane'), 'CategoriesPane')
export const CategoryPicker = lazyNamed(() => import('./CategoryPicker'), 'CategoryPicker')
export const ConflictView = lazyNamed(() => import('./ConflictView'), 'ConflictView')
export const PostsList = lazyNamed(() => import('./PostsList'), 'PostsList')
