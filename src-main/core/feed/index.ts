export {
  DEFAULT_INITIAL_BACKOFF_MS,
  DEFAULT_INTERVAL_MS,
  DEFAULT_MAX_BACKOFF_MS,
  FeedPoller,
  type FeedEvents,
  type FeedPollerOptions,
  type FeedStatus,
  type Friend,
  type FriendFeed,
  type FriendUpdate,
} from './poller'
