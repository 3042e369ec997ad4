// Friends and their activity feed: whom an account follows, and each friend's events as the poller cached them. The
// renderer reads the cache in slices (it may hold a hundred thousand events), asks for a look now (feed:refresh) or
// for older events, and hears of news through 'friends:updated' after every look the poller takes.
import { activityEventOf, feedStateOf, friendSummaryOf, personOf } from './feed-shapes'
import { readNeighbours } from './feed-neighbours'
import type { HandlersOf, Services } from './services'

export function feedHandlers({ feed, accounts, emit, onClose }: Services): HandlersOf<'friends' | 'feed'> {
  onClose(feed.on('friend-updated', ({ friendId }) => emit('friends:updated', friendSummaryOf(feed.friend(friendId)))))

  return {
    'friends:list': async ({ accountId }) => {
      accounts.summary(accountId)
      return feed.friends(accountId).map(friendSummaryOf)
    },
    'friends:add': async ({ accountId, username }) => friendSummaryOf(await feed.addFriend(accountId, username)),
    'friends:remove': async ({ friendId }) => {
      feed.removeFriend(friendId)
      return null
    },
    'friends:setRemoteImages': async ({ friendId, load }) => friendSummaryOf(feed.setLoadRemoteImages(friendId, load)),
    'friends:neighbours': async ({ accountId }) => {
      // The client first: it says in words when the account has no JSON side.
      const client = accounts.jsonClient(accountId)
      const side = accounts.jsonSide(accountId)!
      return (await readNeighbours(client, side.userUrlId)).map(personOf)
    },

    'feed:open': async ({ friendId }) => feedStateOf(feed.status(friendId)),
    'feed:events': async ({ friendId, offset, limit }) => feed.events(friendId, offset, limit).map(activityEventOf),
    // A look that cannot reach the service answers with the cache, flagged offline, rather than an error.
    'feed:refresh': async ({ friendId }) => feedStateOf(await feed.read(friendId)),
    'feed:older': async ({ friendId }) => feedStateOf(await feed.loadOlder(friendId)),
    'feed:markSeen': async ({ friendId, upTo }) => friendSummaryOf(feed.markSeen(friendId, upTo)),
  }
}
