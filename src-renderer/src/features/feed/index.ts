// The friends list and the activity feed, each loaded when first shown.
import { lazyNamed } from '../../lib/lazyNamed'
import { loadActivityFeed } from './load'

export const ActivityFeed = lazyNamed(loadActivityFeed, 'ActivityFeed')
export const FriendsList = lazyNamed(() => import('./FriendsList'), 'FriendsList')
