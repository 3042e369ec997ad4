// The events stream with 100,000 events stored for one user: GET /users/<id>/events.json?max-results=50 under load
// (requests/s, p50, p99) — polled (the same page again, as a feed client does) and a new page each time — and deep
// paging: pages from 1,000 on, reached by following moreResultsToken, against the first pages. Cursors keep a deep
// page as cheap as the first (target ≤ 1.5×); offsets would make it skip 50,000 rows first.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatW3cDate } from '../src-protocol'
import { openStore, type ObjectType, type Post, type Verb } from '../src-service/store'
import { startServiceProcess } from '../src-service/testing/service-process'
import { drive, type LoadResult } from './load'
import type { BenchRow } from './table'
import { median } from './stats'

const EVENTS = 100_000
const PAGE_SIZE = 50
const DEEP_PAGE = 1000
const CONCURRENCY = 16
const LOAD_REQUESTS = 3000
/** Pages timed at each end: the first ones, and as many from page DEEP_PAGE on. */
const TIMED_PAGES = 50
/** More pages than the service keeps rendered (routes/render-cache.ts). */
const PAST_THE_CACHE = 200

export async function runEventsBench(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-events-'))
  const dataDir = join(dir, 'service')
  try {
    // The first start seeds the sandbox: the demo user, friends, posts and comments the events can be about.
    await (await startServiceProcess(dataDir)).stop()
    const seedSeconds = await seedEvents(dataDir)
    const service = await startServiceProcess(dataDir)
    try {
      const user = (await (await fetch(`${service.url}/users/${service.sandbox.username}.json`)).json()) as { urlId: string }
      const firstPage = `${service.url}/users/${user.urlId}/events.json?max-results=${PAGE_SIZE}`

      // Every page from the first on, by token; past the deep ones by more than the service's page cache holds, so
      // timing them again below renders each afresh. The walk also warms the service up.
      const pages: string[] = []
      let url = firstPage
      while (pages.length < DEEP_PAGE + TIMED_PAGES + PAST_THE_CACHE) {
        pages.push(url)
        const { moreResultsToken } = (await (await fetch(url)).json()) as { moreResultsToken: string | null }
        if (moreResultsToken === null) throw new Error(`The stream ended at page ${pages.length}`)
        url = `${firstPage}&start-token=${encodeURIComponent(moreResultsToken)}`
      }
      // Page n and page 1,000 + n in turn, so both see the same machine.
      const early: number[] = []
      const deep: number[] = []
      for (let n = 0; n < TIMED_PAGES; n++) {
        early.push(await timedFetch(pages[n]!))
        deep.push(await timedFetch(pages[DEEP_PAGE - 1 + n]!))
      }

      // Polling the newest page: rendered once, then reused until the store changes.
      const polled = await drive(() => ({ method: 'GET', url: firstPage }), {
        requests: LOAD_REQUESTS,
        concurrency: CONCURRENCY,
        expectStatus: 200,
      })
      // A different page each time: more pages than the cache holds, so each is rendered.
      let next = 0
      const rendered = await drive(() => ({ method: 'GET', url: pages[next++ % pages.length]! }), {
        requests: LOAD_REQUESTS,
        concurrency: CONCURRENCY,
        expectStatus: 200,
      })

      const name = `events stream GET (${PAGE_SIZE} of ${EVENTS.toLocaleString('en')})`
      return [
        { name: `seed ${EVENTS.toLocaleString('en')} events (one transaction)`, value: seedSeconds, unit: 's' },
        ...loadRows(`${name}, polled`, polled),
        ...loadRows(`${name}, a new page each`, rendered),
        { name: `events stream pages 1–${TIMED_PAGES}: median`, value: median(early), unit: 'ms' },
        {
          name: `events stream pages ${DEEP_PAGE.toLocaleString('en')}–${(DEEP_PAGE + TIMED_PAGES - 1).toLocaleString('en')} (by token): median`,
          value: median(deep),
          unit: 'ms',
          ratio: median(deep) / median(early),
          target: '≤ 1.5× page 1',
        },
      ]
    } finally {
      await service.stop()
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

function loadRows(name: string, result: LoadResult): BenchRow[] {
  return [
    { name: `${name}: requests/s`, value: result.perSecond, unit: 'req/s' },
    { name: `${name}: p50`, value: result.p50Ms, unit: 'ms' },
    { name: `${name}: p99`, value: result.p99Ms, unit: 'ms' },
  ]
}

async function timedFetch(url: string): Promise<number> {
  const begin = performance.now()
  const response = await fetch(url)
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`expected HTTP 200, got ${response.status}`)
  return performance.now() - begin
}


/**
 * Stores EVENTS events for the demo user, about the sandbox's own objects, one every ten seconds back from now;
 * returns how long that took, in seconds.
 */
async function seedEvents(dataDir: string): Promise<number> {
  const store = await openStore(dataDir)
  try {
    const begin = performance.now()
    const userId = (await store.users.find('melody'))!.id
    const postsOf = async (userIds: number[]) => {
      const posts: Post[] = []
      for (const id of userIds) {
        for (const weblog of await store.weblogs.ownedBy(id)) posts.push(...(await store.posts.page(weblog.id, 0, 100)))
      }
      return posts
    }
    const own = await postsOf([userId])
    const friends = await store.relationships.targetsOf(userId, 'neighbor')
    const othersPosts = await postsOf(friends)
    const kinds: [Verb, ObjectType, number[]][] = [
      ['NewAsset', 'Post', own.map((post) => post.id)],
      ['AddedFavorite', 'Post', othersPosts.map((post) => post.id)],
      ['AddedNeighbor', 'User', friends],
    ]
    const now = Date.now()
    await store.transaction(async () => {
      for (let n = 0; n < EVENTS; n++) {
        const [verb, objectType, ids] = kinds[n % kinds.length]!
        const published = formatW3cDate(new Date(now - 86_400_000 - n * 10_000))
        await store.events.record({ actorId: userId, verb, objectType, objectId: ids[n % ids.length]!, published })
      }
    })
    return (performance.now() - begin) / 1000
  } finally {
    await store.close()
  }
}
