// A JSON-interface peer for the feed benchmark, on loopback: friends whose streams hold as many events as the bench
// asks for (made from numbers, feed-data.ts), paged by moreResultsToken, and news added on demand. It answers what
// Blogdesk reads: the API key and the identification URL (to connect the account), users, their event streams and
// avatars. It checks no signature: it stands in for a service at a size the sandbox would take hours to fill.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Core } from '../src-main/core'
import { eventOf, userOf, type BenchFriend } from './feed-data'

export interface FeedPeer {
  origin: string
  /** The credentials to attach an account's JSON side with. */
  credentials: { jsonBase: string; apiKey: string; apiSecret: string; authToken: string; authTokenSecret: string }
  /** Gives `friend` a stream of `count` events, the newest now. */
  addFriend(friend: BenchFriend, count: number): void
  /** `count` new events at the top of the friend's stream. */
  addNews(username: string, count: number): void
  close(): Promise<void>
}

const READER: BenchFriend = { username: 'reader', displayName: 'Bench Reader' }
const API_KEY = 'bench-key'
const MAX_PAGE = 200

export async function startFeedPeer(): Promise<FeedPeer> {
  const streams = new Map<string, { friend: BenchFriend; count: number; now: number }>()
  let origin = ''

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin)
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
    }
    let match: RegExpExecArray | null
    if (url.pathname === `/api-keys/${API_KEY}.json`) {
      return json(200, {
        apiKey: API_KEY,
        owner: {
          id: 'tag:127.0.0.1,2009:6abench',
          name: 'Blogdesk bench',
          oauthRequestTokenUrl: `${origin}/oauth/request_token`,
          oauthAuthorizationUrl: `${origin}/oauth/authorize`,
          oauthAccessTokenUrl: `${origin}/oauth/access_token`,
          oauthIdentificationUrl: `${origin}/oauth/identify.json`,
        },
      })
    }
    if (url.pathname === '/oauth/identify.json') return json(200, userOf(origin, READER))
    if ((match = /^\/avatars\/([^/]+)\/[^/]+\.svg$/.exec(url.pathname))) {
      const initial = (match[1] ?? '?').charAt(0).toUpperCase()
      response.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'max-age=3600' })
      return response.end(
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 50 50"><rect width="50" height="50" fill="#2d6f9e"/>` +
          `<text x="25" y="33" font-size="24" text-anchor="middle" fill="#fff">${initial}</text></svg>`,
      )
    }
    if ((match = /^\/users\/([^/]+)\.json$/.exec(url.pathname))) {
      const stream = streamOf(match[1]!)
      return stream ? json(200, userOf(origin, stream.friend)) : json(404, { error: { status: 404, message: 'No such user.' } })
    }
    if ((match = /^\/users\/([^/]+)\/events\.json$/.exec(url.pathname))) {
      const stream = streamOf(match[1]!)
      if (!stream) return json(404, { error: { status: 404, message: 'No such user.' } })
      const limit = Math.min(Number(url.searchParams.get('max-results') ?? 50), MAX_PAGE)
      // A token names the event below which the page starts, so pages never repeat or skip when news arrives.
      const token = url.searchParams.get('start-token')
      const below = token === null ? stream.count : Number(token.slice(1))
      const newest = stream.count - 1
      const entries = []
      for (let number = below - 1; number >= Math.max(0, below - limit); number--) entries.push(eventOf(origin, stream.friend, number, newest, stream.now))
      const lowest = below - entries.length
      return json(200, {
        entries,
        moreResultsToken: lowest > 0 ? `n${lowest}` : null,
        totalResults: stream.count,
        estimatedTotalResults: null,
      })
    }
    json(404, { error: { status: 404, message: `Nothing at ${url.pathname}.` } })
  })

  function streamOf(userId: string) {
    return streams.get(userId.replace(/^6p/, '')) ?? null
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    credentials: { jsonBase: origin, apiKey: API_KEY, apiSecret: 'bench-secret', authToken: 'bench-token', authTokenSecret: 'bench-token-secret' },
    addFriend(friend, count) {
      streams.set(friend.username, { friend, count, now: Date.now() })
    },
    addNews(username, count) {
      const stream = streams.get(username)!
      // Each new event a minute after the last, so the stream's order is its numbering's.
      stream.count += count
      stream.now += count * 60_000
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}

/**
 * Follows the friend on the account (whose JSON side is the peer) and reads their whole stream into the cache through
 * the core's poller, as scrolling to its end would; returns the friend's id in Blogdesk.
 */
export async function fillFeedCache(core: Core, accountId: string, friend: BenchFriend): Promise<string> {
  const { id } = await core.feed.addFriend(accountId, friend.username)
  let state = await core.feed.refresh(id)
  while (state.hasOlder) state = await core.feed.loadOlder(id)
  if (state.total !== state.friend.totalResults) {
    throw new Error(`The cache holds ${state.total} of ${friend.username}'s ${state.friend.totalResults} events.`)
  }
  return id
}
