import { lazyNamed } from '../../lib/lazyNamed'

export { CollectionsNav } from './CollectionsNav'
export { useCollectionsStore } from './store'
export const AlbumPane = lazyNamed(() => import('./AlbumPane'), 'AlbumPane')
export const ListPane = lazyNamed(() => import('./ListPane'), 'ListPane')
