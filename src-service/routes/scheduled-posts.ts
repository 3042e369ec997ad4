// Scheduled posts (docs/PROTOCOL.md, "Scheduled posts"): a post whose `issued` is in the future stays off the
// weblog's public pages and out of its author's events until that time. Its NewAsset event is recorded when the time
// has come, dated the post's own date: before every read (GET, HEAD: `prepareRead`) and on a timer (for open live
// streams: `releaseScheduledPosts`), so no reader ever sees a post whose event is missing.
import type { IncomingMessage } from 'node:http'
import type { ServiceClock } from '../clock'
import { w3cNow } from '../clock'
import type { Store } from '../store'

/** The count of writes each read found when it began, where no post was due then: see `writesAtReadStart`. */
const writesAtStart = new WeakMap<IncomingMessage, number>()

/**
 * What a read does first: one look at the store (the count of writes, and whether a scheduled post's time has come;
 * one round trip on PostgreSQL), then, when one has, its release. Otherwise the count is kept for the read's
 * renderings, which then need not ask for it again.
 */
export async function prepareRead(store: Store, clock: ServiceClock, request: IncomingMessage): Promise<void> {
  const now = w3cNow(clock)
  const { writes, scheduledDue } = await store.readState(now)
  if (scheduledDue) await release(store, now)
  else writesAtStart.set(request, writes)
}

/**
 * The count of writes when `request`, a read, began (`prepareRead`), for a rendering filed under it: what the read
 * renders includes every write counted then, and a later write only makes it count as older. Undefined for a read
 * that released a post, and for anything else: ask the store.
 */
export function writesAtReadStart(request: IncomingMessage): number | undefined {
  return writesAtStart.get(request)
}

/** Records the event of each scheduled post whose time has come; answers how many went public. */
export async function releaseScheduledPosts(store: Store, clock: ServiceClock): Promise<number> {
  const now = w3cNow(clock)
  if (!(await store.posts.hasScheduledDue(now))) return 0
  return release(store, now)
}

function release(store: Store, now: string): Promise<number> {
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
