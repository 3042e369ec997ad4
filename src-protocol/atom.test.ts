import { describe, expect, test } from 'vitest'
import { NS, XmlError, parseXml, readLinkFeed, writeErrorDocument, writeLinkFeed, type AtomLink } from './index'
import { generatedShape, readCapture, readFixture } from './test-fixtures'

const BASE = 'http://127.0.0.1:5080/t/atom/weblog'

function weblog(root: string, title: string, alternate: string): AtomLink[] {
  const service = (rel: string, href: string): AtomLink => ({ rel, href, type: 'application/x.atom+xml', title })
  return [
    service('service.post', root),
    service('service.feed', root),
    service('service.upload', `${root}/svc=upload`),
    service('service.categories', `${root}/svc=categories`),
    { rel: 'alternate', href: alternate, type: 'text/html', title },
  ]
}

describe('readLinkFeed accepts every root listing seen in the wild', () => {
  test('Movable Type introspection, with xmlns repeated on every link', () => {
    const links = readLinkFeed(readFixture('atom03/mt-introspection-weblog-list.xml'), BASE)
    // URLs come back normalised, which lowercases the host.
    expect(links).toEqual(
      weblog('http://www.yourdomain.com/cgi-bin/mt/mt-atom.cgi/weblog/blog_id=8', "YOUR BLOG'S TITLE #8", 'http://www.yourdomain.com/blogs/main/'),
    )
  })

  test('the bloglist a homebrew server gave Nokia Lifeblog, all on one line', () => {
    const links = readLinkFeed(readFixture('atom03/lifeblog-style-bloglist-robertprice.xml'), BASE)
    expect(links.map((link) => [link.rel, link.href])).toEqual([
      ['service.post', 'http://www.robertprice.co.uk/cgi-bin/patom.pl'],
      ['service.feed', 'http://www.robertprice.co.uk/cgi-bin/fatom.pl'],
      ['service.upload', 'http://www.robertprice.co.uk/cgi-bin/uatom.pl'],
      ['service.categories', 'http://www.robertprice.co.uk/cgi-bin/catom.pl'],
      ['alternate', 'http://www.robertprice.co.uk/'],
    ])
    expect(new Set(links.map((link) => link.title))).toEqual(new Set(['robertprice']))
  })

  test('Movable Type 7 answering GET mt-atom.cgi/weblog, two weblogs and an <id>', () => {
    const { responseBody } = readCapture('peers/mt/ok/01-root-weblogs.txt')
    const root = 'http://127.0.0.1:5080/cgi-bin/mt-atom.cgi/weblog'
    expect(readLinkFeed(responseBody, `${root}`)).toEqual([
      ...weblog(`${root}/blog_id=1`, 'Peer Site #1', 'http://127.0.0.1:5080/site/'),
      ...weblog(`${root}/blog_id=2`, 'Peer Blog #2', 'http://127.0.0.1:5080/site/blog/'),
    ])
  })

  test('Movable Type 7 answering a user with one weblog', () => {
    const { responseBody } = readCapture('peers/mt/ok/13-root-as-non-superuser.txt')
    expect(readLinkFeed(responseBody, BASE).map((link) => link.title)).toEqual(Array(5).fill('Peer Blog #2'))
  })

  test('the shape XML::Atom builds for MT::AtomServer', () => {
    const links = readLinkFeed(generatedShape(1), BASE)
    expect(links).toEqual(weblog('http://example.com/mt/mt-atom.cgi/weblog/blog_id=1', 'My Blog #1', 'http://example.com/blog/'))
  })

  test('only the feed’s own links: links inside entries are not collections', () => {
    const response = readFixture('peers/xml-atom-client/client-side/01-root.res.txt')
    const body = response.slice(response.indexOf('\n\n') + 2)
    expect(body).toContain('Canned entry')
    const links = readLinkFeed(body, BASE)
    expect(links.map((link) => link.rel)).toEqual(['alternate', 'service.post'])
  })
})

describe('readLinkFeed', () => {
  test('resolves relative hrefs against the address the listing came from', () => {
    const xml =
      `<feed xmlns="${NS.atom}">` +
      '<link rel="service.post" href="/t/atom/weblog/blog_id=1" type="application/x.atom+xml" title="One"/>' +
      '<link rel="service.feed" href="weblog/blog_id=2" title="Two"/>' +
      '<link rel="alternate" href="//blogs.example/two/" type="text/html" title="Two"/>' +
      '</feed>'
    expect(readLinkFeed(xml, 'https://service.example:8443/t/atom/weblog').map((link) => link.href)).toEqual([
      'https://service.example:8443/t/atom/weblog/blog_id=1',
      'https://service.example:8443/t/atom/weblog/blog_id=2',
      'https://blogs.example/two/',
    ])
  })

  test('honours xml:base on the feed and on a link', () => {
    const xml =
      `<feed xmlns="${NS.atom}" xml:base="http://other.example/api/">` +
      '<link rel="service.post" href="blog_id=1"/>' +
      '<link rel="service.feed" href="blog_id=1" xml:base="/v2/"/>' +
      '</feed>'
    expect(readLinkFeed(xml, BASE).map((link) => link.href)).toEqual([
      'http://other.example/api/blog_id=1',
      'http://other.example/v2/blog_id=1',
    ])
  })

  test('reads the Atom 0.3 namespace under any prefix, and ignores same-named elements of other namespaces', () => {
    const xml =
      `<a:feed xmlns:a="${NS.atom}" xmlns="urn:elsewhere">` +
      '<a:link rel="service.post" href="/p" title="Mine"/>' +
      '<link rel="service.post" href="/not-atom" title="Theirs"/>' +
      '</a:feed>'
    expect(readLinkFeed(xml, BASE)).toEqual([{ rel: 'service.post', href: 'http://127.0.0.1:5080/p', type: null, title: 'Mine' }])
  })

  test('a link without rel is an alternate link; one without href is left out', () => {
    const xml = `<feed xmlns="${NS.atom}"><link href="/home" type="text/html"/><link rel="service.post" title="No href"/></feed>`
    expect(readLinkFeed(xml, BASE)).toEqual([{ rel: 'alternate', href: 'http://127.0.0.1:5080/home', type: 'text/html', title: null }])
  })

  test('refuses a document that is not an Atom 0.3 feed, saying what it got instead', () => {
    expect(() => readLinkFeed('<html><body>Log in</body></html>', BASE)).toThrow(XmlError)
    const atom10 = '<feed xmlns="http://www.w3.org/2005/Atom"><link rel="service.post" href="/p"/></feed>'
    expect(() => readLinkFeed(atom10, BASE)).toThrow(/http:\/\/www\.w3\.org\/2005\/Atom/)
    expect(() => readLinkFeed('<error>Unauthorized</error>', BASE)).toThrow(/<error> without a namespace/)
  })

  test('refuses what the XML reader refuses', () => {
    expect(() => readLinkFeed(`<!DOCTYPE feed><feed xmlns="${NS.atom}"/>`, BASE)).toThrow(/DOCTYPE/)
  })
})

describe('writeLinkFeed', () => {
  test('writes an Atom 0.3 feed that reads back to the same links', () => {
    const links: AtomLink[] = [
      { rel: 'service.post', href: 'http://127.0.0.1:1/t/atom/weblog/blog_id=1', type: 'application/x.atom+xml', title: 'Tom & Jerry\'s "<best>" blog' },
      { rel: 'alternate', href: 'http://127.0.0.1:1/blogs/1/?a=1&b=2', type: 'text/html', title: 'Line one\nline\ttwo' },
      { rel: 'service.feed', href: 'http://127.0.0.1:1/t/atom/weblog/blog_id=1', type: null, title: null },
    ]
    const xml = writeLinkFeed(links)
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n')).toBe(true)
    expect(readLinkFeed(xml, 'http://127.0.0.1:1/')).toEqual(links)
    const feed = parseXml(xml)
    expect([feed.ns, feed.name]).toEqual([NS.atom, 'feed'])
    expect(feed.children[2]?.attributes).toEqual({ rel: 'service.feed', href: 'http://127.0.0.1:1/t/atom/weblog/blog_id=1' })
  })

  test('an empty listing is an empty feed', () => {
    expect(readLinkFeed(writeLinkFeed([]), BASE)).toEqual([])
  })
})

describe('writeErrorDocument', () => {
  test('writes <error> with the message escaped, after the XML declaration', () => {
    const message = 'Category "Food & <Drink>" does not exist; choose one of: News, Cats.'
    const xml = writeErrorDocument(message)
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<error>')).toBe(true)
    expect(parseXml(xml)).toEqual({ ns: '', name: 'error', attributes: {}, children: [], text: message })
  })

  test('characters XML cannot carry become U+FFFD instead of breaking the document', () => {
    expect(parseXml(writeErrorDocument('bell\u0007 and lone \uD800 surrogate')).text).toBe('bell\uFFFD and lone \uFFFD surrogate')
  })

  test('carriage returns survive the trip', () => {
    expect(parseXml(writeErrorDocument('one\r\ntwo')).text).toBe('one\r\ntwo')
  })
})
