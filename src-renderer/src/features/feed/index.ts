// The friends list and the activity feed. The feed itself is loaded on first use: import LazyActivityFeed here, or
// ActivityFeed from './ActivityFeed' with React.lazy.
export { FriendsList, type FriendsListProps } from './FriendsList'
export { LazyActivityFeed, preloadActivityFeed } from './LazyActivityFeed'
export type { ActivityFeedProps } from './ActivityFeed'
export { useFriendsStore } from './friends-store'
