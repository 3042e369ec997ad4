// A post dated in the future, over real HTTP: off the public page, its own page and the author's events until the
// service's clock (injected here) passes its date; then there, once. The author's own FeedURI lists it all along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatW3cDate, readFeed } from '../../src-protocol'
import { melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const HOUR = 3_600_000

describe('scheduled posts', () => {
  let service: ServiceFixture
  // WSSE is checked against the real time, so the injected clock starts there and only moves on.
  let ahead = 0
  const clock = () => Date.now() + ahead
  beforeAll(async () => {
    service = await startTestService([melody], async () => {}, { offline: true }, { clock })
  })
  afterAll(() => service.dispose())

  const feed = () => `${service.origin}/t/atom/weblog/blog_id=1`
  const publish = async (title: string, issued: Date) => {
    const body = `<entry xmlns="http://purl.org/atom/ns#"><title>${title}</title><content mode="escaped">&lt;p&gt;${title}&lt;/p&gt;</content><issued>${formatW3cDate(issued)}</issued></entry>`
    const response = await signedRequest(feed(), melody, { method: 'POST', body })
    expect(response.status).toBe(201)
    return response.headers.get('location')!.replace(/.*entry_id=/, '')
  }
  const publicPage = async () => (await fetch(`${service.origin}/blogs/valse-de-melody/`)).text()
  const postPage = (id: string) => fetch(`${service.origin}/blogs/valse-de-melody/${id}`)
  const eventTitles = async () => {
    const events = (await (await fetch(`${service.origin}/users/melody/events.json`)).json()) as { entries: { object: { title?: string } }[] }
    return events.entries.map((event) => event.object.title)
  }

  it('keeps a future post off the public page, its page and the events until its time, then shows it', async () => {
    await publish('Published now', new Date(clock()))
    const scheduledId = await publish('Tomorrow’s news', new Date(clock() + HOUR))

    expect(await publicPage()).toContain('Published now')
    expect(await publicPage()).not.toContain('Tomorrow’s news')
    expect((await postPage(scheduledId)).status).toBe(404)
    expect(await eventTitles()).toEqual(['Published now'])
    // The author's own feed lists it, so the app sees what it scheduled.
    const authorFeed = readFeed(await (await signedRequest(feed(), melody)).text())
    expect(authorFeed.entries.map((entry) => entry.title)).toContain('Tomorrow’s news')

    ahead = HOUR + 60_000
    expect(await publicPage()).toContain('Tomorrow’s news')
    expect((await postPage(scheduledId)).status).toBe(200)
    expect(await eventTitles()).toEqual(['Tomorrow’s news', 'Published now'])
    // Released once: another request records nothing more.
    expect(await eventTitles()).toEqual(['Tomorrow’s news', 'Published now'])
  })

  it('publishes a back-dated post at once, under its own date', async () => {
    const id = await publish('From the archive', new Date('2020-02-02T10:00:00Z'))
    const page = await postPage(id)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<time datetime="2020-02-02T10:00:00Z">')
    expect(await eventTitles()).toContain('From the archive')
  })
})
