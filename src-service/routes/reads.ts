// What every read (GET, HEAD) does before it is routed: one look at the store (the count of writes, and whether a
// scheduled post's time has come; one round trip on PostgreSQL), then, when one has, its release (scheduled-posts.ts).
// Otherwise the count is kept for the read's renderings (render-cache.ts), which then need not ask for it again.
import type { IncomingMessage } from 'node:http'
import type { ServiceClock } from '../clock'
import { w3cNow } from '../clock'
import type { Store } from '../store'
import { releaseDuePosts } from './scheduled-posts'

/** The count of writes each read found when it began, where no post was due then. */
const writesAtStart = new WeakMap<IncomingMessage, number>()

export async function prepareRead(store: Store, clock: ServiceClock, request: IncomingMessage): Promise<void> {
  const now = w3cNow(clock)
  const { writes, scheduledDue } = await store.readState(now)
  if (scheduledDue) await releaseDuePosts(store, now)
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
