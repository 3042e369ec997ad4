// Paging a stream while it grows: 1,000 events read page by page with moreResultsToken while new posts (each with
// its NewAsset event) arrive between the fetches. Every one of the 1,000 is seen exactly once, in order, and none
// is skipped — what offsets could not promise, since each new event would push the rest one place down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventRecord } from '../store'
import { melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const EVENTS = 1000
const PAGE_SIZE = 37

interface StreamPage {
  entries: { urlId: string; published: string }[]
  moreResultsToken: string | null
  totalResults: number
}

describe('paging the events stream while events arrive', () => {
  let service: ServiceFixture
  let userUrlId: string
  let weblogId: number
  /** The seeded events' url ids, newest first. */
  let seeded: string[]

  beforeAll(async () => {
    service = await startTestService([melody], async (store) => {
      const user = (await store.users.find(melody.username))!
      userUrlId = await store.directory.urlIdOf('User', user.id)
      const [weblog] = await store.weblogs.ownedBy(user.id)
      weblogId = weblog!.id
      const issued = '2026-01-01T00:00:00Z'
      const post = await store.posts.create(weblog!.id, user.id, { title: 'Old', content: 'old', contentKind: 'text', summary: null, issued, categories: [] }, issued)
      const recorded: EventRecord[] = []
      for (let n = 0; n < EVENTS; n++) {
        // Seven events share each second, so the order within a second (by id) is paged too.
        const published = new Date(Date.parse(issued) + Math.floor(n / 7) * 1000).toISOString().replace('.000Z', 'Z')
        recorded.push(await store.events.record({ actorId: user.id, verb: 'AddedFavorite', objectType: 'Post', objectId: post.id, published }))
      }
      // The seeded post's own NewAsset event is not recorded, so the stream holds exactly the 1,000.
      seeded = recorded.reverse().map((event) => event.urlId)
    })
  })
  afterAll(() => service.dispose())

  const page = async (token: string | null): Promise<StreamPage> => {
    const query = `max-results=${PAGE_SIZE}${token === null ? '' : `&start-token=${encodeURIComponent(token)}`}`
    const response = await fetch(`${service.origin}/users/${userUrlId}/events.json?${query}`)
    expect(response.status).toBe(200)
    return (await response.json()) as StreamPage
  }

  const publish = async (n: number) => {
    const entry = `<entry xmlns="http://purl.org/atom/ns#"><title>New ${n}</title><content mode="escaped" type="text/plain">n</content></entry>`
    const credentials = { username: melody.username, password: melody.password }
    const response = await signedRequest(`${service.origin}/t/atom/weblog/blog_id=${weblogId}`, credentials, { method: 'POST', body: entry })
    expect(response.status).toBe(201)
  }

  it('sees each of 1,000 events exactly once, in order, while new ones are added between the pages', async () => {
    const seen: string[] = []
    const totals: number[] = []
    let token: string | null = null
    let published = 0
    do {
      const current: StreamPage = await page(token)
      seen.push(...current.entries.map((event) => event.urlId))
      totals.push(current.totalResults)
      token = current.moreResultsToken
      // One to three new events before the next page.
      for (let n = 0; n <= published % 3; n++) await publish(++published)
    } while (token !== null)

    expect(seen).toEqual(seeded)
    expect(totals[0]).toBe(EVENTS)
    expect(totals.at(-1)).toBeGreaterThan(EVENTS)

    // The newcomers wait at the top for a fresh start.
    const fresh = await page(null)
    expect(fresh.totalResults).toBe(EVENTS + published)
    expect(fresh.entries.slice(0, Math.min(PAGE_SIZE, published)).every((event) => !seeded.includes(event.urlId))).toBe(true)
  })
})
