// The weblog Atom interface over real HTTP: create, read, replace, delete, feeds, categories, and every refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE, NS, readCategories, readEntry, readFeed, type AtomEntry, type WsseCredentials } from '../../src-protocol'
import { readFixture } from '../../src-protocol/test-fixtures'
import type { Store } from '../store'
import { ivy, melody, rawRequest, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const fixture = (name: string) => readFixture(`atom03/${name}`)

/** An entry document as clients write them; `title: null` leaves the title out. */
function entryXml({
  title = 'A post' as string | null,
  content = '<content mode="xml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Body</p></div></content>',
  extra = '',
} = {}): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
  ${title === null ? '' : `<title>${title}</title>`}
  ${content}
  ${extra}
</entry>`
}

async function expectError(response: Response, status: number, message: RegExp): Promise<void> {
  const body = await response.text()
  expect({ status: response.status, body }).toMatchObject({ status, body: expect.stringMatching(/<error>[^<]+<\/error>/) })
  expect(response.headers.get('content-type')).toMatch(/^text\/xml/)
  expect(body).toMatch(message)
}

/** Melody's weblogs are 1 (with categories) and 2 (without); Ivy's is 3. */
async function addCategories(store: Store): Promise<void> {
  for (const name of ['Music', 'Travel', 'Vacation', 'Food', 'Cats', 'Lisbon', '旅行', '電車']) await store.categories.add(1, name)
  await store.categories.add(3, 'Music')
}

describe('weblog posts over Atom', () => {
  let service: ServiceFixture
  let feed: string
  beforeAll(async () => {
    service = await startTestService([melody, ivy], addCategories)
    feed = `${service.origin}/t/atom/weblog/blog_id=1`
  })
  afterAll(() => service.dispose())

  const send = (method: string, url: string, body?: string, headers?: Record<string, string>, as: WsseCredentials = melody) =>
    signedRequest(url, as, { method, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) })
  const create = async (xml: string, url = feed): Promise<{ location: string; entry: AtomEntry }> => {
    const response = await send('POST', url, xml)
    const body = await response.text()
    expect({ status: response.status, body }).toMatchObject({ status: 201 })
    return { location: response.headers.get('location')!, entry: readEntry(body) }
  }
  const linkOf = (entry: AtomEntry, rel: string) => entry.links.find((link) => link.rel === rel)?.href

  describe('PostURI', () => {
    it('creates a post: 201, Location = EditURI, and the entry as stored', async () => {
      const before = Date.now()
      const response = await send('POST', feed, entryXml({ title: 'Trip &amp; lake', extra: '<dc:subject>Travel</dc:subject><summary>Short</summary>' }))
      expect(response.status).toBe(201)
      expect(response.headers.get('content-type')).toBe(`${ATOM_MEDIA_TYPE}; charset=utf-8`)
      const location = response.headers.get('location')!
      expect(location).toMatch(new RegExp(`^${feed}/entry_id=\\d+$`))
      const id = Number(location.split('=').at(-1))

      const entry = readEntry(await response.text())
      expect(entry).toMatchObject({
        title: 'Trip & lake',
        summary: 'Short',
        content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>Body</p>' },
        subjects: ['Travel'],
        id: `tag:127.0.0.1,${new Date().getUTCFullYear()}:post-${id}`,
        author: { name: melody.displayName },
      })
      expect(linkOf(entry, 'service.edit')).toBe(location)
      expect(linkOf(entry, 'alternate')).toBe(`${service.origin}/blogs/valse-de-melody/${id}`)
      const issued = Date.parse(entry.issued!)
      expect(issued).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
      expect(issued).toBeLessThanOrEqual(Date.now())
      expect(entry.modified).toBe(entry.issued)

      const read = await send('GET', location)
      expect(read.status).toBe(200)
      expect(readEntry(await read.text())).toEqual(entry)
    })

    it('takes content as XHTML, escaped text or HTML, and base64 text, and sends it back in the right mode', async () => {
      const cases: [string, { mode: string; type: string; value: string }][] = [
        ['<content>plain, no mode attribute</content>', { mode: 'xml', type: 'application/xhtml+xml', value: 'plain, no mode attribute' }],
        ['<content mode="escaped" type="text/html">&lt;p&gt;escaped &amp;amp; html&lt;/p&gt;</content>', { mode: 'xml', type: 'application/xhtml+xml', value: '<p>escaped &amp; html</p>' }],
        ['<content mode="escaped" type="text/html">&lt;p&gt;line&lt;br&gt;next</content>', { mode: 'escaped', type: 'text/html', value: '<p>line<br>next' }],
        ['<content mode="escaped" type="text/plain">1 &lt; 2 &amp; &lt;b&gt;</content>', { mode: 'escaped', type: 'text/plain', value: '1 < 2 & <b>' }],
        [
          `<content mode="base64" type="text/html">${Buffer.from('<p>Grüße aus Köln</p>').toString('base64')}</content>`,
          { mode: 'xml', type: 'application/xhtml+xml', value: '<p>Grüße aus Köln</p>' },
        ],
        [
          `<content mode="base64" type="text/plain; charset=utf-8">\n${Buffer.from('naïve\ntext').toString('base64')}\n</content>`,
          { mode: 'escaped', type: 'text/plain', value: 'naïve\ntext' },
        ],
      ]
      for (const [content, expected] of cases) {
        const { entry } = await create(entryXml({ content }))
        expect(entry.content, content).toEqual(expected)
      }
    })

    it('refuses base64 content that is not base64, not UTF-8 or not text', async () => {
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64')
      const latin1 = Buffer.from('café', 'latin1').toString('base64')
      for (const [content, message] of [
        ['<content mode="base64" type="text/plain">not*base64!</content>', /not valid base64/],
        [`<content mode="base64" type="text/plain">${latin1}</content>`, /UTF-8/],
        [`<content mode="base64" type="text/plain">${Buffer.from('\u0000\u0001 bytes').toString('base64')}</content>`, /binary/],
        [`<content mode="base64" type="image/png">${png}</content>`, /not image\/png.*UploadURI/],
      ] as const) {
        await expectError(await send('POST', feed, entryXml({ content })), 400, message)
      }
    })

    it('needs a title', async () => {
      await expectError(await send('POST', feed, entryXml({ title: null })), 400, /no &lt;title&gt;/)
      await expectError(await send('POST', feed, entryXml({ title: '  ' })), 400, /&lt;title&gt; is empty/)
    })

    it('honours the issued date it is given, offsets included, and keeps it in UTC', async () => {
      const { entry } = await create(entryXml({ extra: '<issued>2004-08-06T00:43:34+01:00</issued>' }))
      expect(entry.issued).toBe('2004-08-05T23:43:34Z')
      await expectError(await send('POST', feed, entryXml({ extra: '<issued>yesterday</issued>' })), 400, /issued.*yesterday.*W3CDTF/)
      await expectError(await send('POST', feed, entryXml({ extra: '<issued>9999-12-31T23:30:00-01:00</issued>' })), 400, /W3CDTF/)
    })

    it('files a post under several of the weblog’s categories, matched without regard to case', async () => {
      const { entry } = await create(
        entryXml({ extra: '<dc:subject>travel</dc:subject><dc:subject>Music</dc:subject><category term="Food"/>' }),
      )
      expect(entry.subjects).toEqual(['Food', 'Music', 'Travel'])
    })

    it('refuses a category the weblog does not have, naming the ones it has', async () => {
      const response = await send('POST', feed, entryXml({ extra: '<dc:subject>Music</dc:subject><dc:subject>Knitting</dc:subject>' }))
      await expectError(response, 400, /no category "Knitting".*Cats, Food, Lisbon, Music, Travel, Vacation, 旅行, 電車/)
      const bare = await send('POST', `${service.origin}/t/atom/weblog/blog_id=2`, entryXml({ extra: '<dc:subject>Music</dc:subject>' }))
      await expectError(bare, 400, /has no categories.*Leave dc:subject out/)
    })

    it('refuses bodies that are not an Atom entry', async () => {
      const deep = `<entry xmlns="${NS.atom}"><title>t</title>${'<x>'.repeat(500)}${'</x>'.repeat(500)}</entry>`
      for (const [body, message] of [
        ['<entry xmlns="http://purl.org/atom/ns#"><title>broken</title>', /not well-formed|never closed|not a usable/],
        [`<!DOCTYPE entry [<!ENTITY x "y">]><entry xmlns="${NS.atom}"><title>&x;</title></entry>`, /DOCTYPE/],
        [deep, /deep|nest/i],
        [`<feed xmlns="${NS.atom}"><title>t</title></feed>`, /entry/],
        [`<entry xmlns="urn:not-atom"><title>t</title></entry>`, /entry/],
        ['', /not a usable|empty/],
      ] as const) {
        await expectError(await send('POST', feed, body), 400, message)
      }
    })

    it('answers 415 to a body that is not sent as Atom or XML, and 413 to one over the cap', async () => {
      await expectError(await send('POST', feed, entryXml(), { 'Content-Type': 'application/json' }), 415, /application\/x\.atom\+xml/)
      const huge = await rawRequest(feed, {
        method: 'POST',
        headers: { 'Content-Type': ATOM_MEDIA_TYPE, 'Content-Length': String(65 * 1024 * 1024), 'X-WSSE': 'unused' },
      })
      expect(huge.status).toBe(413)
      expect(huge.body).toMatch(/<error>.*MiB/)
    })
  })

  describe('EditURI', () => {
    it('replaces a post with PUT and answers 200 with the entry; an absent issued keeps the date', async () => {
      const { location, entry: created } = await create(entryXml({ extra: '<issued>2020-01-02T03:04:05Z</issued><dc:subject>Music</dc:subject><summary>s</summary>' }))
      await new Promise((resolve) => setTimeout(resolve, 1100)) // modified has whole seconds

      const response = await send('PUT', location, entryXml({ title: 'Edited', content: '<content mode="escaped" type="text/plain">Now plain</content>', extra: '<dc:subject>Cats</dc:subject>' }))
      expect(response.status).toBe(200)
      const updated = readEntry(await response.text())
      expect(updated).toMatchObject({
        title: 'Edited',
        summary: null,
        content: { mode: 'escaped', type: 'text/plain', value: 'Now plain' },
        subjects: ['Cats'],
        issued: '2020-01-02T03:04:05Z',
        id: created.id,
      })
      expect(Date.parse(updated.modified!)).toBeGreaterThan(Date.parse(created.modified!))
      expect(readEntry(await (await send('GET', location)).text())).toEqual(updated)

      const redated = readEntry(await (await send('PUT', location, entryXml({ title: 'Edited', extra: '<issued>2021-05-06T07:08:09-02:00</issued>' }))).text())
      expect(redated).toMatchObject({ issued: '2021-05-06T09:08:09Z', subjects: [] })
    })

    it('leaves the post as it was when a PUT is refused', async () => {
      const { location, entry } = await create(entryXml({ title: 'Keep me', extra: '<dc:subject>Music</dc:subject>' }))
      await expectError(await send('PUT', location, entryXml({ title: null })), 400, /title/)
      await expectError(await send('PUT', location, entryXml({ extra: '<dc:subject>Nope</dc:subject>' })), 400, /Nope/)
      await expectError(await send('PUT', location, '<entry'), 400, /usable Atom entry/)
      await expectError(await send('PUT', location, entryXml(), { 'Content-Type': 'text/plain' }), 415, /Atom/)
      expect(readEntry(await (await send('GET', location)).text())).toEqual(entry)
    })

    it('deletes a post: 200, an empty body with a Content-Type, and the post is gone', async () => {
      const { location } = await create(entryXml({ title: 'Short-lived' }))
      const response = await send('DELETE', location)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(`${ATOM_MEDIA_TYPE}; charset=utf-8`)
      expect(await response.text()).toBe('')
      await expectError(await send('GET', location), 404, /no entry/)
      await expectError(await send('DELETE', location), 404, /no entry/)
      await expectError(await send('PUT', location, entryXml()), 404, /no entry/)
    })

    it('answers 404 for an entry of another weblog reached through this one, and for ids that name nothing', async () => {
      const { location } = await create(entryXml())
      const entryId = location.split('entry_id=')[1]
      await expectError(await send('GET', `${service.origin}/t/atom/weblog/blog_id=2/entry_id=${entryId}`), 404, /no entry/)
      for (const id of ['999999', '0', 'abc', '1e3', '-1', '12345678901234567890']) {
        await expectError(await send('GET', `${feed}/entry_id=${id}`), 404, /no entry/)
      }
      for (const id of ['999', 'abc', '0']) {
        await expectError(await send('GET', `${service.origin}/t/atom/weblog/blog_id=${id}`), 404, /no weblog/)
        await expectError(await send('POST', `${service.origin}/t/atom/weblog/blog_id=${id}`, entryXml()), 404, /no weblog/)
      }
    })

    it('answers 403 when the weblog or the entry is another user’s', async () => {
      const { location } = await create(entryXml({ title: 'Melody only' }))
      const entryId = location.split('entry_id=')[1]
      const throughIvysWeblog = `${service.origin}/t/atom/weblog/blog_id=3/entry_id=${entryId}`
      for (const [method, url, body] of [
        ['GET', feed],
        ['GET', `${feed}/offset=20`],
        ['GET', `${feed}/svc=categories`],
        ['POST', feed, entryXml()],
        ['GET', location],
        ['PUT', location, entryXml({ title: 'Hijacked' })],
        ['DELETE', location],
        ['GET', throughIvysWeblog],
        ['PUT', throughIvysWeblog, entryXml({ title: 'Hijacked' })],
        ['DELETE', throughIvysWeblog],
      ] as const) {
        await expectError(await send(method, url, body, undefined, ivy), 403, /belongs to another user/)
      }
      expect(readEntry(await (await send('GET', location)).text()).title).toBe('Melody only')
    })

    it('answers 405 with Allow to a method the address does not take, and 401 without WSSE', async () => {
      const { location } = await create(entryXml())
      const patch = await send('PATCH', location, entryXml())
      expect(patch.status).toBe(405)
      expect(patch.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE')
      expect((await send('POST', `${feed}/svc=categories`, entryXml())).headers.get('allow')).toBe('GET, HEAD')
      for (const url of [feed, location, `${feed}/svc=categories`, `${feed}/offset=20`]) {
        const response = await fetch(url)
        expect(response.status).toBe(401)
        expect(response.headers.get('www-authenticate')).toBe('WSSE profile="UsernameToken"')
      }
    })
  })

  describe('CategoryURI', () => {
    it('lists the weblog’s categories as a categories document of dc:subject', async () => {
      const response = await send('GET', `${feed}/svc=categories`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(`${ATOM_MEDIA_TYPE}; charset=utf-8`)
      const xml = await response.text()
      expect(xml).toContain(NS.category)
      expect(readCategories(xml)).toEqual(['Cats', 'Food', 'Lisbon', 'Music', 'Travel', 'Vacation', '旅行', '電車'])
      const empty = await send('GET', `${service.origin}/t/atom/weblog/blog_id=2/svc=categories`)
      expect(readCategories(await empty.text())).toEqual([])
    })
  })

  describe('Idempotency-Key', () => {
    it('answers a repeated POST with the first response and creates nothing new', async () => {
      const headers = { 'Idempotency-Key': '"2b9e6c1e-0f7a-4c59-9d0b-6f7f0e0b1a11"' }
      const body = entryXml({ title: 'Only once' })
      const first = await send('POST', feed, body, headers)
      const firstBody = await first.text()
      const again = await send('POST', feed, body, headers)
      expect(again.status).toBe(201)
      expect(again.headers.get('location')).toBe(first.headers.get('location'))
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(await again.text()).toBe(firstBody)

      const feedXml = await (await send('GET', feed)).text()
      expect(readFeed(feedXml).entries.filter((entry) => entry.title === 'Only once')).toHaveLength(1)
      // Keys are per user: Ivy's request with the same key is hers alone.
      const ivys = await send('POST', `${service.origin}/t/atom/weblog/blog_id=3`, body, headers, ivy)
      expect(ivys.status).toBe(201)
      expect(ivys.headers.get('idempotent-replayed')).toBeNull()
    })

    it('refuses with 422 a key used for another request, and a key it cannot use with 400', async () => {
      const headers = { 'Idempotency-Key': 'key-for-one-request' }
      expect((await send('POST', feed, entryXml({ title: 'First' }), headers)).status).toBe(201)
      await expectError(await send('POST', feed, entryXml({ title: 'Second' }), headers), 422, /already used.*different body/)
      const elsewhere = await send('POST', `${service.origin}/t/atom/weblog/blog_id=2`, entryXml({ title: 'First' }), headers)
      await expectError(elsewhere, 422, /already used.*for POST \/t\/atom\/weblog\/blog_id=1/)
      for (const key of ['', 'x'.repeat(256), 'has space', 'a, b']) {
        await expectError(await send('POST', feed, entryXml(), { 'Idempotency-Key': key }), 400, /Idempotency-Key/)
      }
    })

    it('makes one post of requests with one key that arrive together, and answers the others with its replay', async () => {
      const headers = { 'Idempotency-Key': 'sent-eight-times-at-once' }
      const body = entryXml({ title: 'Sent together' })
      const answers = await Promise.all(Array.from({ length: 8 }, () => send('POST', feed, body, headers)))
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201))
      expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1)
      expect(new Set(answers.map((answer) => answer.headers.get('location'))).size).toBe(1)
      await Promise.all(answers.map((answer) => answer.arrayBuffer()))
      const feedXml = await (await send('GET', feed)).text()
      expect(readFeed(feedXml).entries.filter((entry) => entry.title === 'Sent together')).toHaveLength(1)
    })
  })

  describe('golden requests from real clients', () => {
    it('accepts the MT docs create-entry request and TypePad-style entries, Japanese included', async () => {
      const expectations: [string, Partial<AtomEntry>][] = [
        ['mt-docs-create-entry-request.xml', { title: 'Trip to the Lake', subjects: ['Vacation'] }],
        ['written/entry-plain-content.xml', { title: 'Pastéis de nata, a ranking', issued: '2025-06-01T15:20:05Z' }],
        ['written/entry-content-mode-xml.xml', { title: 'Azulejos' }],
        [
          'written/entry-full.xml',
          { title: 'Tram 28, end to end', subjects: ['Lisbon', 'Travel'], issued: '2025-03-14T11:15:00Z', summary: expect.stringContaining("it's slower") as never },
        ],
        ['written/entry-utf8-japanese.xml', { title: '路面電車の旅', subjects: ['旅行', '電車'], summary: '坂の街の黄色い電車' }],
      ]
      for (const [name, expected] of expectations) {
        const { location, entry } = await create(fixture(name))
        expect(entry, name).toMatchObject(expected)
        expect(entry.content?.mode, name).toBe('xml')
        expect(entry.id, name).toMatch(/^tag:127\.0\.0\.1,\d{4}:post-\d+$/)
        expect(linkOf(entry, 'service.edit')).toBe(location)
        // The service's own links, never the ones the client sent.
        expect(entry.links.map((link) => link.href).every((href) => href.startsWith(service.origin))).toBe(true)
      }
      const { entry } = await create(fixture('written/entry-utf8-japanese.xml'))
      expect(entry.content?.value).toContain('リスボンの坂を路面電車で登りました。')
    })
  })
})

describe('a service keeping only the first category of an entry (--categories-per-post 1, as Movable Type)', () => {
  let service: ServiceFixture
  let feed: string
  beforeAll(async () => {
    service = await startTestService([melody, ivy], addCategories, undefined, { categoriesPerPost: 1 })
    feed = `${service.origin}/t/atom/weblog/blog_id=1`
  })
  afterAll(() => service.dispose())

  const subjectsOf = async (response: Response) => readEntry(await response.text()).subjects
  const three = '<dc:subject>Travel</dc:subject><dc:subject>Music</dc:subject><category term="Food"/>'

  it('files a new post under the first category named, drops the rest without an error, and says so in its entry', async () => {
    const created = await signedRequest(feed, melody, { method: 'POST', body: entryXml({ extra: three }) })
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    expect(await subjectsOf(created)).toEqual(['Travel'])
    expect(await subjectsOf(await signedRequest(location, melody))).toEqual(['Travel'])
  })

  it('keeps the first of a replacement’s categories too, and still refuses one the weblog does not have', async () => {
    const created = await signedRequest(feed, melody, { method: 'POST', body: entryXml() })
    const location = created.headers.get('location')!
    const replaced = await signedRequest(location, melody, {
      method: 'PUT',
      body: entryXml({ extra: '<dc:subject>Music</dc:subject><dc:subject>Travel</dc:subject>' }),
    })
    expect(replaced.status).toBe(200)
    expect(await subjectsOf(replaced)).toEqual(['Music'])
    const unknown = await signedRequest(feed, melody, { method: 'POST', body: entryXml({ extra: '<dc:subject>Music</dc:subject><dc:subject>Knitting</dc:subject>' }) })
    await expectError(unknown, 400, /no category "Knitting"/)
  })
})

describe('weblog feed pages', () => {
  const POSTS = 45
  let service: ServiceFixture
  let feed: string
  beforeAll(async () => {
    service = await startTestService([melody, ivy], async (store) => {
      const music = await store.categories.add(1, 'Music')
      for (let n = 1; n <= POSTS; n++) {
        // Pairs share an issued time, so the order among equals (newest stored first) is exercised too.
        const issued = new Date(Date.UTC(2025, 0, 1) + Math.ceil(n / 2) * 86_400_000).toISOString().replace('.000', '')
        await store.posts.create(1, 1, { title: `Post ${n}`, content: `<p>Body ${n}</p>`, contentKind: 'xhtml', summary: null, issued, categories: n % 3 ? [] : [music] }, issued)
      }
    })
    feed = `${service.origin}/t/atom/weblog/blog_id=1`
  })
  afterAll(() => service.dispose())

  const getFeed = async (url: string) => {
    const response = await signedRequest(url, melody)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(`${ATOM_MEDIA_TYPE}; charset=utf-8`)
    return readFeed(await response.text())
  }
  const link = (links: { rel: string; href: string }[], rel: string) => links.find((candidate) => candidate.rel === rel)?.href

  it('pages 20 entries at a time, newest first, and prev/next walk every post exactly once', async () => {
    const pages = [await getFeed(feed)]
    for (let next = link(pages[0]!.links, 'next'); next; next = link(pages.at(-1)!.links, 'next')) pages.push(await getFeed(next))

    expect(pages.map((page) => page.entries.length)).toEqual([20, 20, 5])
    const titles = pages.flatMap((page) => page.entries.map((entry) => entry.title))
    expect(titles).toEqual(Array.from({ length: POSTS }, (_, index) => `Post ${POSTS - index}`))
    expect(link(pages[0]!.links, 'prev')).toBeUndefined()
    expect(link(pages[1]!.links, 'next')).toBe(`${feed}/offset=40`)
    expect(link(pages[2]!.links, 'prev')).toBe(`${feed}/offset=20`)

    const back = [pages.at(-1)!]
    for (let prev = link(back[0]!.links, 'prev'); prev; prev = link(back[0]!.links, 'prev')) back.unshift(await getFeed(prev))
    expect(back.flatMap((page) => page.entries.map((entry) => entry.title))).toEqual(titles)
    expect(link(back[1]!.links, 'prev')).toBe(feed)
  })

  it('describes the weblog and each entry as the spec lists', async () => {
    const page = await getFeed(feed)
    expect(page.title).toBe(melody.weblogs[0]!.title)
    expect(page.links).toEqual(
      expect.arrayContaining([
        { rel: 'alternate', href: `${service.origin}/blogs/valse-de-melody/`, type: 'text/html', title: 'Valse de Melody' },
        { rel: 'service.post', href: feed, type: ATOM_MEDIA_TYPE, title: 'Valse de Melody' },
        { rel: 'next', href: `${feed}/offset=20`, type: ATOM_MEDIA_TYPE, title: 'Valse de Melody' },
      ]),
    )
    const [newest] = page.entries
    expect(newest).toMatchObject({
      title: 'Post 45',
      content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>Body 45</p>' },
      issued: '2025-01-24T00:00:00Z',
      id: expect.stringMatching(/^tag:127\.0\.0\.1,\d{4}:post-45$/) as never,
      subjects: ['Music'],
    })
    expect(newest!.modified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(newest!.links.map((entryLink) => entryLink.rel).sort()).toEqual(['alternate', 'service.edit'])
    expect(link(newest!.links, 'service.edit')).toBe(`${feed}/entry_id=45`)
  })

  it('answers an empty page past the end and 400 to an offset that is not a small whole number', async () => {
    const past = await getFeed(`${feed}/offset=60`)
    expect(past.entries).toEqual([])
    expect(link(past.links, 'prev')).toBe(`${feed}/offset=40`)
    expect((await getFeed(`${feed}/offset=7`)).entries[0]!.title).toBe('Post 38')
    for (const offset of ['-1', 'abc', '1e3', '2.5', '99999999999', '%20']) {
      await expectError(await signedRequest(`${feed}/offset=${offset}`, melody), 400, /offset/)
    }
  })

  it('lists a weblog without posts as an empty feed', async () => {
    const empty = await getFeed(`${service.origin}/t/atom/weblog/blog_id=2`)
    expect(empty.entries).toEqual([])
    expect(empty.links.map((feedLink) => feedLink.rel)).toEqual(['alternate', 'service.post'])
  })
})

describe('what refused and failed requests leave behind', () => {
  let service: ServiceFixture
  beforeAll(async () => {
    service = await startTestService([melody, ivy], addCategories)
  })
  afterAll(() => service.dispose())

  it('keeps exactly one post and one NewAsset event per acknowledged create, nothing for refusals, and forgets deleted posts', async () => {
    const feed = `${service.origin}/t/atom/weblog/blog_id=1`
    const post = (body: string, headers: Record<string, string> = {}) => signedRequest(feed, melody, { method: 'POST', body, headers })
    const kept = await post(entryXml({ title: 'Kept' }), { 'Idempotency-Key': 'k1' })
    expect(kept.status).toBe(201)
    expect((await post(entryXml({ title: 'Kept' }), { 'Idempotency-Key': 'k1' })).status).toBe(201)
    const deleted = await post(entryXml({ title: 'Deleted' }))
    expect((await signedRequest(deleted.headers.get('location')!, melody, { method: 'DELETE' })).status).toBe(200)

    const refusals = [
      await post(entryXml({ extra: '<dc:subject>Unknown</dc:subject>' })),
      await post(entryXml({ title: null })),
      await post(entryXml({ content: '<content mode="base64">%%%</content>' })),
      await post(entryXml({ extra: '<issued>2004-13-45</issued>' })),
      await post('<entry xmlns="http://purl.org/atom/ns#"><title>x</title>'),
      await post(entryXml({ title: 'Other' }), { 'Idempotency-Key': 'k1' }),
      await signedRequest(`${service.origin}/t/atom/weblog/blog_id=1`, ivy, { method: 'POST', body: entryXml() }),
    ]
    expect(refusals.map((response) => response.status)).toEqual([400, 400, 400, 400, 400, 422, 403])

    const keptId = Number(kept.headers.get('location')!.split('entry_id=')[1])
    await service.withStore(async (store) => {
      expect((await store.posts.page(1, 0, 100)).map((stored) => stored.id)).toEqual([keptId])
      expect(await store.posts.countIn(2) + await store.posts.countIn(3)).toBe(0)
      const userId = (await store.users.find(melody.username))!.id
      expect((await store.events.streamPage(userId, null, 100)).map(({ verb, objectType, objectId }) => ({ verb, objectType, objectId }))).toEqual([
        { verb: 'NewAsset', objectType: 'Post', objectId: keptId },
      ])
    })
  })
})
