// One stored post must not stall the service: its markup is sanitised on every anonymous read of its page and of the
// author's events, so sanitising has to take time in proportion to the markup, whatever the markup is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ivy, melody, signedRequest, startTestService, type ServiceFixture, type TestAccount } from '../testing/service-fixture'

const HOSTILE_UNIT = '<script></script>'
const HOSTILE_COUNTS = [4_000, 8_000, 16_000]
/** Ordinary markup of the same size as the largest hostile post, so both cost the same bytes to send and parse. */
const ORDINARY_POST = '<p>A <em>fine</em> day by the lake &amp; a <a href="https://example.com/">link</a>.</p>\n'.repeat(
  Math.ceil((HOSTILE_UNIT.length * HOSTILE_COUNTS.at(-1)!) / 80),
)

/** Publishes `html` as clients do, escaped in an Atom entry, so that its events are made too. */
async function publish(service: ServiceFixture, weblogId: number, author: TestAccount, title: string, html: string): Promise<void> {
  const entry = `<entry xmlns="http://purl.org/atom/ns#"><title>${title}</title>
<content type="text/html" mode="escaped">${escapeXml(html)}</content></entry>`
  const response = await signedRequest(`${service.origin}/t/atom/weblog/blog_id=${weblogId}`, author, { method: 'POST', body: entry })
  expect(response.status).toBe(201)
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;')
}

/**
 * The fastest of a few reads: what the work costs, without the noise of a machine shared with other tests. The JSON
 * interface keeps what it rendered until the next write, so each read there asks for another page size.
 */
async function readTime(url: string): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY
  for (let read = 0; read < 3; read++) {
    const started = performance.now()
    const response = await fetch(url.endsWith('.json') ? `${url}?max-results=${10 + read}` : url)
    await response.text()
    fastest = Math.min(fastest, performance.now() - started)
    expect(response.status).toBe(200)
  }
  return fastest
}

describe('a post written to stall the sanitiser', () => {
  let service: ServiceFixture
  beforeAll(async () => {
    // Melody's weblog 1 holds the ordinary post (1), Ivy's weblog 3 the hostile ones (2, 3, 4).
    service = await startTestService([melody, ivy])
    await publish(service, 1, melody, 'An ordinary long post', ORDINARY_POST)
    for (const count of HOSTILE_COUNTS) await publish(service, 3, ivy, `Hostile ×${count}`, HOSTILE_UNIT.repeat(count))
  })
  afterAll(() => service.dispose())

  it('is read within a small multiple of an ordinary post of the same size, on its page and in the events', async () => {
    const page = (weblog: string, post: number) => `${service.origin}/blogs/${weblog}/${post}`
    const ordinaryPage = await readTime(page('valse-de-melody', 1))
    const hostilePage = await readTime(page('cargo-culte', 4))
    const ordinaryEvents = await readTime(`${service.origin}/users/melody/events.json`)
    const hostileEvents = await readTime(`${service.origin}/users/ivy/events.json`)
    console.log(
      `page: ordinary ${ordinaryPage.toFixed(1)} ms, hostile ${hostilePage.toFixed(1)} ms; ` +
        `events.json: ordinary ${ordinaryEvents.toFixed(1)} ms, hostile (3 posts) ${hostileEvents.toFixed(1)} ms`,
    )

    const [once = 0, twice = 0, fourTimes = 0] = [
      await readTime(page('cargo-culte', 2)),
      await readTime(page('cargo-culte', 3)),
      await readTime(page('cargo-culte', 4)),
    ]
    console.log(`hostile page ×1/×2/×4: ${[once, twice, fourTimes].map((time) => time.toFixed(1)).join(' / ')} ms`)
    expect(hostilePage).toBeLessThan(ordinaryPage * 3)
    // Ivy's events hold all three hostile posts, 1.75 times the ordinary post's bytes.
    expect(hostileEvents).toBeLessThan(ordinaryEvents * 5)
    // Linear growth makes ×4 take 4 times as long; quadratic, 16 times.
    expect(fourTimes / once).toBeLessThan(8)
  }, 180_000)
})
