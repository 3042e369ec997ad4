// A friend's feed over the main process: the FeedWindow reads through api.feed (its tests give it their own calls)
// and takes the friend's news from 'friends:updated'.
import { api } from '../../lib/api'
import { FeedWindow } from './feed-window'

export function feedWindowFor(friendId: string): FeedWindow {
  return new FeedWindow(friendId, api.feed)
}

/** Hands `feed` each news of the friends as it comes; returns the function that stops. */
export function followNews(feed: FeedWindow): () => void {
  return api.friends.onUpdated((summary) => feed.receive(summary))
}
