// The operations of the outbox: what each carries when it is queued (a snapshot, never a reference to text that may
// change afterwards) and what the server answered once it is done.
import type { ListItemToSend } from '../atom'

export type OperationKind = 'post.create' | 'post.update' | 'post.delete' | 'upload' | 'photo' | 'list-item'

/**
 * queued → sending → done | needs-attention | conflict. An operation that needs attention or is in conflict holds
 * its queue until the person retries or discards it; one in `sending` when the app stopped is queued again at start.
 */
export type OperationState = 'queued' | 'sending' | 'done' | 'needs-attention' | 'conflict'

/** A post's text as it was when the person published it. Each publish carries its own, so every edit goes out. */
export interface PostSnapshot {
  title: string
  /** HTML; images still on this computer are `<img src="blogdesk-media:<sha256>">` (inline-media.ts). */
  content: string
  categories: string[]
  /** The excerpt (Atom summary); absent from snapshots queued before excerpts were kept, null or empty for none. */
  summary?: string | null
}

export interface OperationPayloads {
  /**
   * `issued` is set when queued (UTC, to the second): the post's date, and half of what finds it again (reconcile.ts).
   * `holdUntil` (ms since the epoch): a post dated in the future for a server that would publish it at once waits in
   * the outbox until then (scheduling.ts).
   */
  'post.create': { post: PostSnapshot & { issued: string }; holdUntil?: number }
  /** `issued`: the date the person chose, sent with the update; the post keeps its own when absent. */
  'post.update': { post: PostSnapshot & { issued?: string | null } }
  /** The post to delete is the draft's; its EditURI is known only once the draft's create is done. */
  'post.delete': Record<string, never>
  /** A media copy (by its SHA-256) for the weblog's UploadURI, under `name`. */
  upload: { hash: string; name: string }
  photo: { hash: string; title: string; caption: string | null; filename: string | null; stripGps: boolean }
  'list-item': { item: ListItemToSend }
}

/** Where a post lives on the server. */
export interface PublishedPost {
  editUri: string
  id: string | null
  permalink: string | null
}

export interface OperationResults {
  /** `adopted`: an earlier attempt had created it; it was found in the weblog's feed instead of being sent again. */
  'post.create': PublishedPost & { adopted: boolean }
  /** `alreadyApplied`: the server already held this text (an earlier attempt's answer was lost). */
  'post.update': PublishedPost & { alreadyApplied: boolean }
  'post.delete': { outcome: 'deleted' | 'already-gone' | 'never-published' }
  upload: { url: string }
  /** `taken`: when the photo was taken, as the server read it; absent from results kept before it was recorded. */
  photo: { id: string | null; url: string | null; thumbnail: string | null; taken?: string | null }
  'list-item': { title: string; fields: Record<string, string> }
}

interface OperationOf<K extends OperationKind> {
  /** Increasing in the order operations were queued. */
  id: number
  accountId: string
  kind: K
  /** The collection it goes to (a weblog's, album's or list's PostURI); a queue's operations go out one at a time, in order. */
  queueKey: string
  /** The draft a post operation belongs to. */
  draftId: string | null
  payload: OperationPayloads[K]
  /** Sent as Idempotency-Key with every attempt of a POST, across retries and restarts. */
  idempotencyKey: string
  state: OperationState
  /** An earlier attempt may have reached the server: the next one checks what the server has before sending. */
  uncertain: boolean
  attempts: number
  /** When the next attempt may start (ms since the epoch); 0 for at once. */
  nextAttemptAt: number
  /** Why it is waiting or stopped, in words for the person. */
  lastError: string | null
  result: OperationResults[K] | null
  enqueuedAt: string
  updatedAt: string
}

export type Operation = { [K in OperationKind]: OperationOf<K> }[OperationKind]

/** What the outbox holds, for a badge: operations still to go, and operations waiting for the person. */
export interface OutboxCounts {
  /** Queued or being sent. */
  waiting: number
  /** Needing attention or in conflict. */
  needsAttention: number
}
