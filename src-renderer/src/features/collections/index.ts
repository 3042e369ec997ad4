export { AlbumPane } from './AlbumPane'
export { CollectionsNav } from './CollectionsNav'
export { ListPane } from './ListPane'
