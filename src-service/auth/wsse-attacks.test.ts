// Attacks on WSSE by someone who knows only a username (they are public on profile pages) and can capture a request.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWsseHeader, parseXml, readFeed, WsseVerifier } from '../../src-protocol'
import { type Store } from '../store'
import { melody, signedGet, startTestService, type ServiceFixture } from '../testing/service-fixture'
import { openTestStore } from '../testing/postgres'

/** Lowered from the production bound so that a flood one past it takes seconds, not minutes. */
const NONCES_PER_USER = 1_000
const CONCURRENT_REQUESTS = 50

const ENTRY = `<entry xmlns="http://purl.org/atom/ns#"><title>Sent once</title>
<content mode="xml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Body</p></div></content></entry>`

describe('WSSE under attack', () => {
  let service: ServiceFixture
  let feed: string
  beforeAll(async () => {
    service = await startTestService([melody], undefined, undefined, { wsseNoncesPerUser: NONCES_PER_USER })
    feed = `${service.origin}/t/atom/weblog/blog_id=1`
  })
  afterAll(() => service.dispose())

  const postWith = (header: string) =>
    fetch(feed, { method: 'POST', headers: { 'X-WSSE': header, 'Content-Type': 'application/x.atom+xml' }, body: ENTRY })

  it('refuses a captured header replayed after a flood of wrong digests under the same username', async () => {
    const captured = createWsseHeader(melody)
    expect((await postWith(captured)).status).toBe(201)

    const wrongPassword = { username: melody.username, password: 'not the API password' }
    for (let sent = 0; sent <= NONCES_PER_USER; sent += CONCURRENT_REQUESTS) {
      const flood = Array.from({ length: CONCURRENT_REQUESTS }, () =>
        fetch(`${service.origin}/t/atom/weblog`, { headers: { 'X-WSSE': createWsseHeader(wrongPassword) } }),
      )
      for (const response of await Promise.all(flood)) expect(response.status).toBe(401)
    }

    const replay = await postWith(captured)
    expect(replay.status).toBe(401)
    expect(parseXml(await replay.text()).text).toMatch(/already used \(a replayed request\)/)
    const posts = readFeed(await (await signedGet(feed, melody)).text()).entries
    expect(posts.map((entry) => entry.title)).toEqual(['Sent once'])
  })
})

describe('WSSE for a user who sends more requests in the clock window than the service remembers nonces', () => {
  const bound = 20
  let service: ServiceFixture
  beforeAll(async () => {
    service = await startTestService([melody], undefined, undefined, { wsseNoncesPerUser: bound })
  })
  afterAll(() => service.dispose())

  it('refuses the next request (429 with Retry-After) rather than forget a nonce, and still refuses replays', async () => {
    const root = `${service.origin}/t/atom/weblog`
    const headers = Array.from({ length: bound }, () => createWsseHeader(melody))
    for (const header of headers) expect((await fetch(root, { headers: { 'X-WSSE': header } })).status).toBe(200)
    const over = await fetch(root, { headers: { 'X-WSSE': createWsseHeader(melody) } })
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(parseXml(await over.text()).text).toMatch(/more than 20 requests within 5 minutes/)
    const replay = await fetch(root, { headers: { 'X-WSSE': headers[0]! } })
    expect(replay.status).toBe(401)
    expect(parseXml(await replay.text()).text).toMatch(/replayed/)
  })
})

// Measured on the verifier as the service builds it, over the real store: over HTTP, loopback jitter (±10 % of a
// request) hides differences of a few microseconds that an attacker averaging many requests would still see.
describe('WSSE failures', () => {
  let dataDir: string
  let store: Store
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-wsse-timing-'))
    store = await openTestStore(dataDir)
    await store.users.add({ ...melody, apiPassword: melody.password })
  })
  afterAll(async () => {
    await store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('take as long for a username nobody has as for a real one, so timing does not tell which names exist', async () => {
    const verifier = new WsseVerifier({ accountOf: (username) => store.users.wsseAccountOf(username) })
    const timeRefusal = async (username: string) => {
      const header = createWsseHeader({ username, password: 'a guess' })
      const started = performance.now()
      expect((await verifier.verify(header)).ok).toBe(false)
      return performance.now() - started
    }
    // Interleaved one by one, so that both kinds see the same load on the machine.
    const times = { known: [] as number[], unknown: [] as number[] }
    for (let round = 0; round < 6000; round++) {
      times.known.push(await timeRefusal(melody.username))
      times.unknown.push(await timeRefusal('nobody-here'))
    }
    const median = (samples: number[]) => samples.slice(1000).sort((a, b) => a - b)[(samples.length - 1000) >> 1]!
    const [knownTime, unknownTime] = [median(times.known), median(times.unknown)]
    console.log(`WSSE refusal: known user ${(knownTime * 1000).toFixed(1)} µs, unknown ${(unknownTime * 1000).toFixed(1)} µs`)
    expect(unknownTime / knownTime).toBeGreaterThan(0.9)
  })
})
