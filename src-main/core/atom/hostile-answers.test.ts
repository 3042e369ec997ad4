// A hostile server (or anyone on a plain-HTTP path) answering the core's reads with XML built to be slow to parse
// (issue 13: 20,000 attributes on one element froze the core's readFeed for 11.5 s; 10,000 dc:subjects took 0.9 s).
// Over real HTTP from a loopback server, the core refuses each with a clear client error, in a small multiple of the
// time it takes to read an ordinary answer of the same size: timings compared with each other, never with figures.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NS } from '../../../src-protocol'
import { AtomClient, RequestFailure } from './index'

const repeat = (count: number, make: (index: number) => string) => Array.from({ length: count }, (_, index) => make(index)).join('')
const feed = (inside: string) =>
  `<feed xmlns="${NS.atom}" xmlns:dc="${NS.dc}" xmlns:ext="urn:ext" version="0.3"><title>F</title><entry>${inside}</entry></feed>`
const categories = (inside: string) => `<categories xmlns="${NS.category}" xmlns:dc="${NS.dc}">${inside}</categories>`

const ATTRIBUTES = repeat(20_000, (index) => ` a${index}="v"`)
const ANSWERS = new Map([
  ['/hostile-feed', feed(`<title${ATTRIBUTES}>t</title>`)],
  // The same bytes as text: what an ordinary feed of that size costs to read.
  ['/ordinary-feed', feed(`<title>${ATTRIBUTES.replaceAll('"', '')}</title>`)],
  ['/hostile-subjects', feed(`<title>t</title>${repeat(10_000, (index) => `<dc:subject>s${index}</dc:subject>`)}`)],
  ['/ordinary-subjects', feed(`<title>t</title>${repeat(10_000, (index) => `<ext:subject>s${index}</ext:subject>`)}`)],
  // A weblog's own list of categories is not capped (an entry's are), but it is read in time linear in its size.
  ['/categories-5000', categories(repeat(5_000, (index) => `<dc:subject>s${index}</dc:subject>`))],
  ['/categories-20000', categories(repeat(20_000, (index) => `<dc:subject>s${index}</dc:subject>`))],
])

// Generous limits: the machine may be shared with other work, and the measurements take the fastest of several reads.
describe('a server answering with XML built to stall the parser', { timeout: 90_000 }, () => {
  let server: Server
  let origin: string
  const client = new AtomClient({ fetch, credentials: async () => ({ username: 'melody', password: 'secret' }) })

  beforeAll(async () => {
    server = createServer((request, response) => {
      const body = ANSWERS.get(request.url ?? '')
      response.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'application/x.atom+xml' })
      response.end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** The failure `read` ends with, and the fastest of several tries: the least disturbed by a busy machine. */
  async function timed(read: () => Promise<unknown>): Promise<{ failure: unknown; ms: number }> {
    let failure: unknown = null
    let fastest = Number.POSITIVE_INFINITY
    for (let attempt = 0; attempt < 7; attempt++) {
      const started = performance.now()
      failure = await read().then(
        () => null,
        (error: unknown) => error,
      )
      fastest = Math.min(fastest, performance.now() - started)
    }
    return { failure, ms: fastest }
  }

  it('refuses 20,000 attributes on one element in a feed, saying why, about as fast as an ordinary feed is read', async () => {
    const ordinary = await timed(() => client.entriesPage(`${origin}/ordinary-feed`))
    expect(ordinary.failure).toBeNull()
    const hostile = await timed(() => client.entriesPage(`${origin}/hostile-feed`))
    console.log(`core feed read: 20,000 attributes refused in ${hostile.ms.toFixed(1)} ms, ordinary feed of the same size ${ordinary.ms.toFixed(1)} ms`)
    expect(hostile.failure).toBeInstanceOf(RequestFailure)
    expect(hostile.failure).toMatchObject({ kind: 'refused', message: expect.stringMatching(/more than 256 attributes/) })
    expect(hostile.ms).toBeLessThan(ordinary.ms * 3)
  })

  it('refuses an entry with 10,000 categories, saying why, about as fast as an ordinary feed is read', async () => {
    const ordinary = await timed(() => client.entriesPage(`${origin}/ordinary-subjects`))
    expect(ordinary.failure).toBeNull()
    const hostile = await timed(() => client.entriesPage(`${origin}/hostile-subjects`))
    console.log(`core feed read: 10,000 dc:subjects refused in ${hostile.ms.toFixed(1)} ms, ordinary feed of the same size ${ordinary.ms.toFixed(1)} ms`)
    expect(hostile.failure).toBeInstanceOf(RequestFailure)
    expect(hostile.failure).toMatchObject({ kind: 'refused', message: expect.stringMatching(/more than 500 categories/) })
    expect(hostile.ms).toBeLessThan(ordinary.ms * 3)
  })

  it('reads a weblog’s list of 20,000 categories in about 4 times the time of 5,000, not 16', async () => {
    const small = await timed(() => client.categories(`${origin}/categories-5000`))
    const large = await timed(() => client.categories(`${origin}/categories-20000`))
    console.log(`core categories read: 5,000 in ${small.ms.toFixed(1)} ms, 20,000 in ${large.ms.toFixed(1)} ms`)
    expect([small.failure, large.failure]).toEqual([null, null])
    expect(await client.categories(`${origin}/categories-20000`)).toHaveLength(20_000)
    expect(large.ms / small.ms).toBeLessThan(8)
  })
})
