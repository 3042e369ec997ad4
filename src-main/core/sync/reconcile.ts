// Finding a post that an earlier attempt may have created, before sending it again. Our service replays a POST sent
// again under its Idempotency-Key; other servers (Movable Type) ignore the key, so when a create's outcome is unknown
// (the connection broke after sending, the app was killed mid-request) the weblog's feed is read first.
//
// The match rule: a post whose title is the one we sent (trimmed, as servers store it) and whose <issued> is exactly
// the one we sent — set when the person published, in UTC, to the second — and that no other draft already stands
// for (so two posts published with the same title in the same second are told apart). Feeds run newest first, so the
// search reads from the first page and stops at the first page that reaches posts issued before ours.
import type { AtomClient, RemotePost } from '../atom'

/** Past this many pages, the post is too far from the top of the feed to be one we just sent. */
export const RECONCILE_MAX_PAGES = 5

export async function findCreatedPost(
  client: AtomClient,
  feedUri: string,
  sent: { title: string; issued: string },
  isClaimed: (editUri: string) => boolean,
): Promise<RemotePost | null> {
  const title = sent.title.trim()
  let uri: string | null = feedUri
  for (let page = 0; uri !== null && page < RECONCILE_MAX_PAGES; page++) {
    const { posts, next }: { posts: RemotePost[]; next: string | null } = await client.feedPage(uri)
    const match = posts.find((post) => post.issued === sent.issued && post.title.trim() === title && !isClaimed(post.editUri))
    if (match) return match
    if (posts.length === 0 || posts.some((post) => post.issued !== null && post.issued < sent.issued)) return null
    uri = next
  }
  return null
}
