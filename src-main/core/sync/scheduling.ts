// Scheduled posts (docs/PROTOCOL.md, "Scheduled posts"). A post dated in the future is sent at once to a server that
// advertises scheduling (Blogdesk's service: it keeps the post off its public pages until then). Any other server
// (Movable Type, a peer without the extension) would publish it at once, so the outbox holds it on this computer until
// its time: it goes out only while Blogdesk runs, and says so.
import type { Weblog } from '../../../src-shared/contract'
import type { Operation } from './operations'

/** Until when (ms) a new post dated `issued` must wait in the outbox for `weblog`; null when it may go now. */
export function holdUntilFor(issued: string, weblog: Weblog | null, now: number): number | null {
  const at = Date.parse(issued)
  if (!(at > now)) return null
  // An unknown weblog (never listed here) is treated as one that would publish at once: holding is the safe side.
  return weblog?.schedulesPosts === true ? null : at
}

/** The time until which an operation is held on this computer (ms), or 0. */
export function heldUntil(operation: Operation): number {
  return operation.kind === 'post.create' ? (operation.payload.holdUntil ?? 0) : 0
}

/** When an operation may go: its retry time or its hold, whichever is later. */
export function dueAt(operation: Operation): number {
  return Math.max(operation.nextAttemptAt, heldUntil(operation))
}

/** What a held post says, in the outbox and in its list: when it goes, and that it needs the app to go. */
export function heldMessage(until: number): string {
  const when = new Date(until).toISOString().replace(/:\d\d\.\d{3}Z$/, ' UTC').replace('T', ' ')
  return `Scheduled for ${when} — Blogdesk must be running to publish it then, since this weblog’s server would publish it at once.`
}
