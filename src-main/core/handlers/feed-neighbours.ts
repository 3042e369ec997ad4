// The people an account's own user added as neighbours. The JSON interface has no relationships endpoint, but every
// neighbour added is an AddedNeighbor event in the user's own stream, its actor the user and its object the person:
// reading that stream (newest first) gives them, each once, most recently added first.
import type { JsonClient, JsonUser } from '../json'

/** Pages read at most: a neighbour added longer ago than this many events is not offered (type the name instead). */
export const MAX_NEIGHBOUR_PAGES = 25
const PAGE_SIZE = 200

export async function readNeighbours(client: JsonClient, userUrlId: string): Promise<JsonUser[]> {
  const neighbours = new Map<string, JsonUser>()
  let startToken: string | null = null
  for (let page = 0; page < MAX_NEIGHBOUR_PAGES; page++) {
    const stream = await client.userEvents(userUrlId, { limit: PAGE_SIZE, startToken })
    for (const event of stream.entries) {
      const { actor, object } = event
      if (event.verb !== 'AddedNeighbor' || actor.urlId !== userUrlId || object.objectType !== 'User') continue
      if (object.urlId !== userUrlId && !neighbours.has(object.urlId)) neighbours.set(object.urlId, object)
    }
    startToken = stream.moreResultsToken
    if (startToken === null || stream.entries.length === 0) break
  }
  return [...neighbours.values()]
}
