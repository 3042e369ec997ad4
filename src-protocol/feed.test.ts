import { describe, expect, test } from 'vitest'
import { NS, XmlError, isWellFormedMarkup, parseXml, readFeed, writeFeed, type AtomEntry, type FeedToWrite } from './index'
import { readCapture, readFixture, readMessageBody } from './test-fixtures'

const MT = 'http://127.0.0.1:5080/cgi-bin/mt-atom.cgi'

describe('readFeed reads the feeds real peers served', () => {
  test('an Atom 0.3 feed as Movable Type 2.x wrote it: one xml entry, the rest escaped, some with CDATA', () => {
    const feed = readFeed(readFixture('atom03/written/feed-atom03.xml'))
    expect(feed.title).toBe('Notes from the seven hills')
    expect(feed.links).toEqual([{ rel: 'alternate', href: 'http://hills.example.org/notes/', type: 'text/html', title: null }])
    expect(feed.entries).toHaveLength(6)

    const [first, second, , fourth] = feed.entries as [AtomEntry, AtomEntry, AtomEntry, AtomEntry]
    expect(first).toMatchObject({
      title: 'Miradouro at dawn',
      summary: "The city's roofs turn orange before the trams start.",
      content: { mode: 'xml', type: 'text/html', value: '<p>Coffee from a thermos, and the whole river below.</p>' },
      issued: '2025-09-12T06:40:00-04:00',
      modified: '2025-09-12T18:05:00Z',
      created: '2025-09-12T10:40:00Z',
      id: 'tag:hills.example.org,2025:notes.311',
      // MT wrote an empty dc:subject for entries without a category.
      subjects: [],
      links: [{ rel: 'alternate', href: 'http://hills.example.org/notes/archives/000311.html', type: 'text/html', title: null }],
    })
    expect(second.content?.mode).toBe('escaped')
    expect(second.content?.value.trim()).toBe('Rain, all day.')
    expect(fourth.title).toBe('Two paragraphs, old style')
    expect(fourth.content?.value.trim()).toBe('<P><B>Markup </B>in capitals, as editors wrote it then.</P>\n<P>And a second paragraph.</P>')
    expect(feed.entries.map((entry) => entry.id)).toEqual(expect.arrayContaining(['tag:hills.example.org,2025:notes.306']))
  })

  test('a Vox-style Atom 1.0 feed: categories as subjects, relative edit links resolved, XHTML that stands alone', () => {
    const baseUrl = 'http://ana.example.net/library/posts/page/1/atom.xml'
    const feed = readFeed(readFixture('atom03/written/feed-atom10.xml'), { baseUrl })
    expect(feed.title).toBe("Ana's library")
    expect(feed.links.map((link) => [link.rel, link.href])).toEqual([
      ['self', 'http://ana.example.net/library/posts/page/1/atom.xml'],
      ['alternate', 'http://ana.example.net/library/posts/page/1/'],
      ['service.post', 'http://hub.example.net/atom/svc=post/collection_id=c0ffee01'],
      ['service.subscribe', 'http://ana.example.net/library/posts/atom.xml'],
      ['next', 'http://ana.example.net/library/posts/page/2/atom.xml'],
      ['last', 'http://ana.example.net/library/posts/page/5/atom.xml'],
    ])
    expect(feed.entries).toHaveLength(4)

    const fado = feed.entries[0]
    expect(fado).toMatchObject({
      title: 'Fado night in Alfama',
      issued: '2025-10-04T20:30:00Z',
      modified: '2025-10-04T22:10:00Z',
      id: 'tag:hub.example.net,2025-10-04:asset-a0001',
      content: { mode: 'xml', type: 'application/xhtml+xml' },
    })
    expect(fado?.links.find((link) => link.rel === 'service.edit')?.href).toBe(
      'http://ana.example.net/library/posts/page/1/atom/svc=post/asset_id=a0001',
    )
    expect(fado?.content?.value).toContain('<p>Last night a friend took me to a &quot;fado vadio&quot; evening')

    const pastries = feed.entries.find((entry) => entry.title === 'Pastry crawl')
    expect(pastries?.subjects).toEqual(['food', 'belém', 'pastéis de nata', 'bakeries'])
    expect(pastries?.links.find((link) => link.rel === 'enclosure')).toBeUndefined()

    const tiles = feed.entries.find((entry) => entry.title === 'Tiles of Lisbon')
    expect(tiles?.content?.value.startsWith('<p>blue and white, on every second house</p>')).toBe(true)
    expect(tiles?.links.find((link) => link.rel === 'enclosure')).toEqual({
      rel: 'enclosure',
      href: 'http://media.example.net/download/p0004-pi',
      type: 'image/jpeg',
      title: null,
    })
    // The enclosure markup uses at: attributes declared on the unwrapped div: the declaration moves with them.
    expect(tiles?.content?.value).toContain('<div xmlns:at="http://www.sixapart.com/ns/at" class="media" at:enclosure="asset"')
    for (const entry of feed.entries) expect(isWellFormedMarkup(entry.content?.value ?? ''), entry.title ?? '').toBe(true)
  })

  test('Movable Type 7’s feed of a weblog', () => {
    const feed = readFeed(readCapture('peers/mt/ok/02-feed-blog2.txt').responseBody)
    expect(feed.title).toBe('Peer Blog')
    expect(feed.links.map((link) => link.rel)).toEqual(['alternate', 'self', 'service.post'])
    expect(feed.entries).toHaveLength(1)
    expect(feed.entries[0]).toMatchObject({
      title: 'Hello again (edited)',
      summary: '',
      content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>Edited body.</p>' },
      author: { name: 'Melody', url: null, email: 'melody@example.com' },
      issued: '2026-11-22T19:06:32+09:00',
    })
    expect(feed.entries[0]?.links.map((link) => link.href)).toContain(`${MT}/weblog/blog_id=2/entry_id=1`)
  })

  test('Movable Type 7’s other feed pages', () => {
    expect(readFeed(readCapture('peers/mt/ok/12-feed-limit1-offset1.txt').responseBody).entries[0]?.title).toBe('Atom 1.0 body to legacy')
    expect(readFeed(readCapture('peers/mt/ok/25-feed-website-blog1.txt').responseBody)).toMatchObject({
      title: 'Peer Site',
      entries: [{ title: 'Plain ünïcödé title', content: { value: 'plain text body' } }],
    })
    expect(readFeed(readMessageBody('peers/mt/client-run/02-feed.res.txt')).entries).toHaveLength(1)
  })

  test('Movable Type 7’s AtomPub 1.0 feed: updated is modified, app:edited an extension', () => {
    const feed = readFeed(readCapture('peers/mt/ok/23-atompub-1.0-feed.txt').responseBody)
    const [entry] = feed.entries
    expect(entry).toMatchObject({
      title: 'Atom 1.0 body to legacy',
      issued: '2026-11-22T19:06:48+09:00',
      modified: '2026-11-22T19:06:48+09:00',
      content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>hi</p>' },
    })
    expect(entry?.links.map((link) => link.rel)).toEqual(['alternate', 'edit', 'replies'])
    expect(entry?.extensions.map((element) => [element.ns, element.name, element.text])).toEqual([
      ['http://www.w3.org/2007/app', 'edited', '2026-11-22T19:06:48+09:00'],
    ])
  })

  test('the canned server XML::Atom::Client was run against: an entry without content', () => {
    const feed = readFeed(readMessageBody('peers/xml-atom-client/client-side/01-root.res.txt'))
    expect(feed.title).toBe('Canned blog')
    expect(feed.entries).toEqual([
      expect.objectContaining({ title: 'Canned entry', content: null, id: 'tag:example.com,2024:/1', issued: '2024-01-01T00:00:00Z' }),
    ])
  })
})

describe('readFeed', () => {
  test('a feed’s xml:base applies to its entries’ links', () => {
    const feed = readFeed(
      `<feed xmlns="${NS.atom}" xml:base="/t/atom/weblog/blog_id=1/"><link rel="next" href="offset=20"/>` +
        '<entry><link rel="service.edit" href="entry_id=7"/></entry></feed>',
      { baseUrl: 'http://127.0.0.1:8/t/atom/weblog' },
    )
    expect(feed.links[0]?.href).toBe('http://127.0.0.1:8/t/atom/weblog/blog_id=1/offset=20')
    expect(feed.entries[0]?.links[0]?.href).toBe('http://127.0.0.1:8/t/atom/weblog/blog_id=1/entry_id=7')
  })

  test('refuses what is not a feed', () => {
    expect(() => readFeed(`<entry xmlns="${NS.atom}"/>`)).toThrow(XmlError)
    expect(() => readFeed('<feed/>')).toThrow(/<feed> without a namespace/)
  })
})

describe('writeFeed', () => {
  const feed: FeedToWrite = {
    title: 'Café & <Bar>',
    links: [
      { rel: 'alternate', href: 'http://127.0.0.1:1/blogs/cafe/', type: 'text/html', title: 'Café & <Bar>' },
      { rel: 'next', href: 'http://127.0.0.1:1/t/atom/weblog/blog_id=1/offset=20', type: 'application/x.atom+xml', title: null },
    ],
    modified: '2026-01-02T03:04:05Z',
    entries: [
      {
        title: 'First',
        content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>One &amp; only</p>' },
        issued: '2026-01-02T03:04:05Z',
        id: 'tag:blogdesk.local,2026:post-1',
        subjects: ['News'],
        links: [{ rel: 'service.edit', href: 'http://127.0.0.1:1/t/atom/weblog/blog_id=1/entry_id=1', type: 'application/x.atom+xml', title: 'First' }],
      },
      {
        title: 'Second',
        content: { mode: 'escaped', type: 'text/html', value: 'a < b' },
        extensions: [{ ns: NS.photo, name: 'thumbnail', text: 'http://127.0.0.1:1/media/t.jpg' }],
      },
    ],
  }

  test('writes an Atom 0.3 feed that reads back to the same title, links and entries', () => {
    const read = readFeed(writeFeed(feed))
    expect(read.title).toBe(feed.title)
    expect(read.links).toEqual(feed.links)
    expect(read.entries.map((entry) => [entry.title, entry.content, entry.subjects])).toEqual([
      ['First', feed.entries[0]?.content, ['News']],
      ['Second', feed.entries[1]?.content, []],
    ])
    expect(read.entries[1]?.extensions[0]).toMatchObject({ ns: NS.photo, name: 'thumbnail', text: 'http://127.0.0.1:1/media/t.jpg' })
  })

  test('declares each namespace once, on the feed, with its conventional prefix', () => {
    const xml = writeFeed(feed)
    expect(xml.startsWith(`<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="${NS.atom}" xmlns:dc="${NS.dc}" xmlns:photo="${NS.photo}">`)).toBe(true)
    expect(xml.match(/xmlns:/g)).toHaveLength(2)
    expect(xml).toContain('<dc:subject>News</dc:subject>')
    expect(xml).toContain('<photo:thumbnail>')
    const root = parseXml(xml)
    expect(root.children.find((child) => child.name === 'modified')?.text).toBe('2026-01-02T03:04:05Z')
  })

  test('an empty feed', () => {
    expect(readFeed(writeFeed({ title: 'Nothing yet', links: [], entries: [] }))).toEqual({ title: 'Nothing yet', links: [], entries: [] })
  })
})
