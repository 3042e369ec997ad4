// The live feed's extensions over real HTTP (docs/PROTOCOL.md, "Live events"): events.json's ETag and 304, the Link
// that offers the stream, and /users/<id>/events/live: new events as they are recorded, resuming by Last-Event-ID,
// heartbeats, the bound per client, the same signature rules as events.json, and a shutdown that never waits for it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signedFetch } from '../testing/oauth-client'
import { ivy, melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const ENTRY = (title: string) => `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#"><title>${title}</title><content mode="escaped">Body</content></entry>`

interface Message {
  id: string | null
  data: string
}

/** Reads a text/event-stream as it arrives: messages and comment lines, each when its blank line comes. */
class EventStreamReader {
  readonly messages: Message[] = []
  readonly comments: string[] = []
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>
  readonly #decoder = new TextDecoder()
  #buffer = ''
  ended = false

  constructor(response: Response) {
    this.#reader = response.body!.getReader()
  }

  /** Reads until `done` holds of what was read, or the stream ends. */
  async until(done: (reader: this) => boolean): Promise<void> {
    while (!done(this) && !this.ended) {
      const { value, done: ended } = await this.#reader.read()
      if (ended) this.ended = true
      else this.#take(this.#decoder.decode(value, { stream: true }))
    }
  }

  cancel(): Promise<void> {
    return this.#reader.cancel()
  }

  #take(text: string): void {
    this.#buffer += text
    let end: number
    while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
      const lines = this.#buffer.slice(0, end).split('\n')
      this.#buffer = this.#buffer.slice(end + 2)
      for (const line of lines) if (line.startsWith(':')) this.comments.push(line.slice(1).trim())
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6))
      const id = lines.find((line) => line.startsWith('id: '))?.slice(4) ?? null
      if (data.length > 0) this.messages.push({ id, data: data.join('\n') })
    }
  }
}

describe('the live feed extensions', () => {
  let service: ServiceFixture
  let melodyUrlId: string
  let eventsUrl: string
  let liveUrl: string
  const opened: EventStreamReader[] = []

  const post = async (title: string) => {
    const response = await signedRequest(`${service.origin}/t/atom/weblog/blog_id=1`, melody, { method: 'POST', body: ENTRY(title) })
    expect(response.status).toBe(201)
  }
  const open = async (headers: Record<string, string> = {}) => {
    const response = await fetch(liveUrl, { headers })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const reader = new EventStreamReader(response)
    opened.push(reader)
    return reader
  }
  const newestEvents = async (count: number) => {
    const page = (await (await fetch(`${eventsUrl}?max-results=${count}`)).json()) as { entries: { urlId: string }[] }
    return page.entries
  }

  beforeEach(async () => {
    service = await startTestService([melody, ivy], async () => {}, { offline: true }, { liveStreams: { heartbeatMs: 100, perClient: 2 } })
    melodyUrlId = await service.withStore(async (store) => (await store.profiles.findByUsername('melody'))!.urlId)
    eventsUrl = `${service.origin}/users/${melodyUrlId}/events.json`
    liveUrl = `${service.origin}/users/${melodyUrlId}/events/live`
  })
  afterEach(async () => {
    for (const reader of opened.splice(0)) await reader.cancel().catch(() => {})
    await service.dispose()
  })

  it('tags events.json, answers a matching If-None-Match with an empty 304, and changes the tag when a post is made', async () => {
    const first = await fetch(eventsUrl)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/".+"$/)
    expect(first.headers.get('link')).toBe(`<${liveUrl}>; rel="live"`)
    await first.text()

    const unchanged = await fetch(eventsUrl, { headers: { 'If-None-Match': etag } })
    expect(unchanged.status).toBe(304)
    expect(await unchanged.text()).toBe('')
    expect(unchanged.headers.get('etag')).toBe(etag)
    expect(unchanged.headers.get('link')).toBe(`<${liveUrl}>; rel="live"`)
    // Another page of the same stream is another document, so the tag does not stand for it.
    expect((await fetch(`${eventsUrl}?max-results=1`, { headers: { 'If-None-Match': etag } })).status).toBe(200)

    await post('News')
    const changed = await fetch(eventsUrl, { headers: { 'If-None-Match': etag } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(((await changed.json()) as { entries: unknown[] }).entries).toHaveLength(1)
  })

  it('never answers 304 to a tag from before a restart', async () => {
    const etag = (await fetch(eventsUrl)).headers.get('etag')!
    await service.withStore(async () => {})
    expect((await fetch(eventsUrl, { headers: { 'If-None-Match': etag } })).status).toBe(200)
  })

  it('streams each new event with its urlId and the JSON events.json gives for it', async () => {
    const stream = await open()
    await post('First')
    await post('Second')
    await stream.until((reader) => reader.messages.length >= 2)
    const [second, first] = await newestEvents(2)
    expect(stream.messages.map((message) => message.id)).toEqual([first!.urlId, second!.urlId])
    expect(stream.messages.map((message) => JSON.parse(message.data) as unknown)).toEqual([first, second])
  })

  it("carries only that user's events", async () => {
    const stream = await open()
    const ivyPost = await signedRequest(`${service.origin}/t/atom/weblog/blog_id=3`, ivy, { method: 'POST', body: ENTRY('Ivy') })
    expect(ivyPost.status).toBe(201)
    await post('Melody')
    await stream.until((reader) => reader.messages.length >= 1)
    expect(JSON.parse(stream.messages[0]!.data)).toMatchObject({ object: { title: 'Melody' } })
  })

  it('resumes after Last-Event-ID with every event recorded since, and refuses an id that is not the user’s', async () => {
    for (const title of ['One', 'Two', 'Three']) await post(title)
    const [three, two, one] = await newestEvents(3)
    const stream = await open({ 'Last-Event-ID': one!.urlId })
    await stream.until((reader) => reader.messages.length >= 2)
    expect(stream.messages.map((message) => message.id)).toEqual([two!.urlId, three!.urlId])

    const refused = await fetch(liveUrl, { headers: { 'Last-Event-ID': '6e0000' } })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Last-Event-ID 6e0000 .*events\.json/)
  })

  it('resumes in the order events.json has, so an event recorded later but dated earlier is not sent as new', async () => {
    const datedNow = await service.withStore(async (store) => {
      const [melodyId, ivyId] = [(await store.users.find('melody'))!.id, (await store.users.find('ivy'))!.id]
      const neighbour = (published: string) =>
        store.events.record({ actorId: melodyId, verb: 'AddedNeighbor', objectType: 'User', objectId: ivyId, published })
      const recorded = await neighbour(new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'))
      await neighbour('2001-01-01T00:00:00Z')
      return recorded
    })
    const stream = await open({ 'Last-Event-ID': datedNow.urlId })
    await post('Later')
    await stream.until((reader) => reader.messages.length >= 1)
    expect(JSON.parse(stream.messages[0]!.data)).toMatchObject({ verb: 'NewAsset', object: { title: 'Later' } })
  })

  it('sends heartbeat comments while nothing happens', async () => {
    const stream = await open()
    await stream.until((reader) => reader.comments.filter((comment) => comment === 'heartbeat').length >= 2)
    expect(stream.messages).toEqual([])
  })

  it('holds at most the bound per client, refusing more with 429 and words, and frees a place when one closes', async () => {
    const first = await open()
    await open()
    const refused = await fetch(liveUrl)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/already holds 2 live streams/)
    await first.cancel()
    await expect.poll(async () => (await fetch(liveUrl, { method: 'HEAD' })).status).toBe(200)
    await open()
  })

  it('follows the rules of events.json for signatures: a bad one is refused', async () => {
    const response = await signedFetch({ key: 'no-such-key', secret: 'x' }, liveUrl)
    expect(response.status).toBe(401)
  })

  it('ends open streams when the service stops, without waiting for them', async () => {
    const stream = await open()
    // Requests in flight get 10 s of grace when the service stops; this test's 8 s limit fails one that waits for it.
    await service.withStore(async () => {})
    await stream.until(() => false)
    expect(stream.ended).toBe(true)
  }, 8_000)
})

describe('a service without live streams', () => {
  let service: ServiceFixture
  beforeEach(async () => {
    service = await startTestService([melody], async () => {}, { offline: true }, { liveStreams: false })
  })
  afterEach(() => service.dispose())

  it('offers none on events.json, and has none to open', async () => {
    const urlId = await service.withStore(async (store) => (await store.profiles.findByUsername('melody'))!.urlId)
    const events = await fetch(`${service.origin}/users/${urlId}/events.json`)
    expect(events.headers.get('link')).toBeNull()
    expect(events.headers.get('etag')).not.toBeNull()
    expect((await fetch(`${service.origin}/users/${urlId}/events/live`)).status).toBe(404)
  })
})
