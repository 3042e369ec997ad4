// Scheduled posts (docs/PROTOCOL.md, "Scheduled posts"): a post whose `issued` is in the future stays off the
// weblog's public pages and out of its author's events until that time. Its NewAsset event is recorded when the time
// has come, dated the post's own date: before every read (GET, HEAD: `prepareRead` in reads.ts) and on a timer (for
// open live streams: `releaseScheduledPosts`), so no reader ever sees a post whose event is missing.
import type { ServiceClock } from '../clock'
import { w3cNow } from '../clock'
import type { Store } from '../store'

/** Records the event of each scheduled post whose time has come; answers how many went public. */
export async function releaseScheduledPosts(store: Store, clock: ServiceClock): Promise<number> {
  const now = w3cNow(clock)
  if (!(await store.posts.hasScheduledDue(now))) return 0
  return releaseDuePosts(store, now)
}

/** Records the event of each scheduled post whose time (`now`) has come, in one transaction; answers how many. */
export function releaseDuePosts(store: Store, now: string): Promise<number> {
  return store.transaction(async () => {
    const due = await store.posts.scheduledDue(now)
    let released = 0
    for (const post of due) {
      if (!(await store.posts.markReleased(post.id))) continue
      await store.events.record({ actorId: post.authorId, verb: 'NewAsset', objectType: 'Post', objectId: post.id, published: post.issued })
      released++
    }
    return released
  })
}
