import { describe, expect, test } from 'vitest'
import { NS, XmlError, isWellFormedMarkup, readEntry, type AtomEntry, type XmlElement } from './index'
import { generatedShape, readCapture, readFixture, readMessageBody } from './test-fixtures'

const TYPEPAD_NS = 'http://sixapart.com/atom/typepad#'
const MT = 'http://127.0.0.1:5080/cgi-bin/mt-atom.cgi/weblog'

/** The extension elements as `{ns}name` → text, which is what a user of them reads. */
function extensionTexts(entry: AtomEntry): Record<string, string> {
  return Object.fromEntries(entry.extensions.map((element) => [`{${element.ns}}${element.name}`, element.text]))
}

function refusal(xml: string): XmlError {
  try {
    readEntry(xml)
  } catch (error) {
    if (error instanceof XmlError) return error
    throw error
  }
  throw new Error(`readEntry accepted ${JSON.stringify(xml.slice(0, 80))}`)
}

describe('readEntry reads the Atom 0.3 entries real peers send', () => {
  test('a full TypePad-style entry: every field, dates with their offsets untouched', () => {
    const entry = readEntry(readFixture('atom03/written/entry-full.xml'))
    expect(entry).toEqual({
      title: 'Tram 28, end to end',
      summary: "From Martim Moniz to Campo de Ourique: it's slower than walking....",
      content: {
        mode: 'xml',
        type: 'text/html',
        value: "<p>From Martim Moniz to Campo de Ourique: it's slower than walking, and worth every minute.</p>",
      },
      issued: '2025-03-14T08:15:00-03:00',
      modified: '2025-03-15T21:40:12-03:00',
      created: '2025-03-14T08:15:00-03:00',
      id: 'tag:melody.example.org,2025:post-518',
      author: { name: 'Melody', url: 'http://melody.example.org/', email: null },
      links: [
        { rel: 'alternate', href: 'http://melody.example.org/2025/03/tram-28.html', type: 'text/html', title: null },
        {
          rel: 'service.edit',
          href: 'http://melody.example.org/atom/weblog/blog_id=3/entry_id=518',
          type: 'application/x.atom+xml',
          title: 'Tram 28, end to end',
        },
      ],
      subjects: ['Travel', 'Lisbon'],
      extensions: [],
    })
  })

  test('a UTF-8 entry in Japanese', () => {
    const entry = readEntry(readFixture('atom03/written/entry-utf8-japanese.xml'))
    expect(entry.title).toBe('路面電車の旅')
    expect(entry.summary).toBe('坂の街の黄色い電車')
    expect(entry.author?.name).toBe('メロディ')
    expect(entry.subjects).toEqual(['旅行', '電車'])
    expect(entry.content).toEqual({ mode: 'xml', type: 'text/html', value: '<p>リスボンの坂を路面電車で登りました。</p>' })
  })

  test('content mode="xml" with xmlns repeated on every element and the div indented inside content', () => {
    const entry = readEntry(readFixture('atom03/written/entry-content-mode-xml.xml'))
    expect(entry.title).toBe('Azulejos')
    expect(entry.content).toEqual({
      mode: 'xml',
      type: null,
      value: '<img src="azulejos.jpg" alt="blue tiles"/> Blue and white tiles on every second house.',
    })
  })

  test('Movable Type’s documented create request: one dc:subject, XHTML in a div', () => {
    const entry = readEntry(readFixture('atom03/mt-docs-create-entry-request.xml'))
    expect(entry.title).toBe('Trip to the Lake')
    expect(entry.subjects).toEqual(['Vacation'])
    expect(entry.content).toEqual({
      mode: 'xml',
      type: 'application/xhtml+xml',
      value: '<img src="http://example.typepad.com/photos/vacation/lake-thumb.jpg" /> Here is a picture of me at the lake.',
    })
  })

  test('content without mode or type is xml, plain text is its markup', () => {
    const entry = readEntry(readFixture('atom03/written/entry-plain-content.xml'))
    expect(entry.title).toBe('Pastéis de nata, a ranking')
    expect(entry.content).toEqual({
      mode: 'xml',
      type: null,
      value: 'Six bakeries, one custard tart at each, and a clear winner near the monastery',
    })
    expect(entry.issued).toBe('2025-06-01T16:20:05+01:00')
  })

  test('a Lifeblog-style photo: base64 content with its line breaks removed, typepad:standalone kept as an extension', () => {
    const xml = readFixture('atom03/written/photo-base64-standalone.xml')
    const entry = readEntry(xml)
    expect(entry.title).toBe('tram-0412.jpg')
    expect(entry.content?.mode).toBe('base64')
    expect(entry.content?.type).toBe('image/jpeg')
    const sent = /mode="base64" type="image\/jpeg">([^<]*)</.exec(xml)?.[1] ?? ''
    expect(sent).toContain('\n')
    expect(entry.content?.value).toBe(sent.replace(/\s/g, ''))
    expect(entry.content?.value).toMatch(/^\/9j\/4AAQSkZJRg[A-Za-z0-9+/]+=*$/)
    expect(Buffer.from(entry.content?.value ?? '', 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))
    expect(extensionTexts(entry)).toEqual({ [`{${TYPEPAD_NS}}standalone`]: '1' })
  })

  test('the entry and its variants as XML::Atom builds them for MT::AtomServer', () => {
    const full = readEntry(generatedShape(2))
    expect(full.title).toBe('Hello')
    expect(full.summary).toBe('Excerpt here')
    expect(full.content).toEqual({ mode: 'xml', type: 'application/xhtml+xml', value: '<p>Hello <b>world</b></p>' })
    expect(full.author).toEqual({ name: 'Melody', url: 'http://example.com/', email: 'melody@example.com' })
    expect(full.links.map((link) => link.rel)).toEqual(['alternate', 'service.edit'])

    const notWellFormed = readEntry(generatedShape(3))
    expect(notWellFormed.content).toEqual({ mode: 'escaped', type: 'application/xhtml+xml', value: '<p>line<br>next' })

    const gif = readEntry(generatedShape(4))
    expect(gif.content).toEqual({ mode: 'base64', type: 'image/gif', value: 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==' })

    const uploaded = readEntry(generatedShape(5))
    expect(uploaded.links).toEqual([{ rel: 'alternate', href: 'http://example.com/blog/dot.gif', type: 'image/gif', title: null }])
  })
})

describe('readEntry reads typed-list and photo entries shaped as TypePad clients send them', () => {
  test('a photo: title, caption, base64 content and the photo: elements', () => {
    const entry = readEntry(readFixture('atom03/written/gallery-photo-entry.xml'))
    expect(entry.title).toBe('Tram 28 on the hill')
    expect(entry.summary).toBe('The yellow tram on its way up to the castle')
    expect(entry.content).toMatchObject({ mode: 'base64', type: 'image/jpeg', value: expect.stringMatching(/^\/9j\/[A-Za-z0-9+/]+=*$/) })
    expect(entry.issued).toBe('2025-05-02T21:00:00')
    expect(extensionTexts(entry)).toEqual({
      [`{${NS.photo}}filename`]: 'tram-28.jpg',
      [`{${NS.photo}}location`]: 'Graça, Lisbon',
      [`{${NS.photo}}taken`]: '2025-05-02T20:41:00',
    })
  })

  test('a book, with its rating in the RVW namespace and no Atom title', () => {
    const entry = readEntry(readFixture('atom03/written/typelist-book-entry.xml'))
    expect(entry.title).toBeNull()
    expect(entry.content?.value).toBe('Read it slowly, one chapter per tram line.')
    expect(extensionTexts(entry)).toEqual({
      [`{${NS.book}}isbn`]: '9789720004185',
      [`{${NS.book}}author`]: 'Inês Carvalho',
      [`{${NS.rvw}}value`]: '4',
      [`{${NS.book}}title`]: 'Seven Hills, Seven Tram Lines',
    })
  })

  test('a song, whose namespace comes with the prefix "music:" rather than "song:"', () => {
    const entry = readEntry(readFixture('atom03/written/typelist-song-entry.xml'))
    expect(extensionTexts(entry)).toEqual({
      [`{${NS.song}}album`]: 'Linha 28',
      [`{${NS.song}}artist`]: 'Os Eléctricos',
      [`{${NS.song}}title`]: 'Rua da Saudade',
      [`{${NS.song}}thumbnail`]: 'http://music.example.net/covers/linha-28.jpg',
      [`{${NS.rvw}}value`]: '5',
    })
  })

  test('a person, with a one-line bio', () => {
    const entry = readEntry(readFixture('atom03/written/typelist-person-entry.xml'))
    expect(extensionTexts(entry)).toEqual({
      [`{${NS.person}}homepage`]: 'http://joana.example.net/',
      [`{${NS.person}}email`]: 'joana@example.net',
      [`{${NS.person}}foaf_url`]: 'http://joana.example.net/foaf.rdf',
      [`{${NS.person}}name`]: 'Joana Reis',
      [`{${NS.person}}homepage_name`]: 'Joana draws',
      [`{${NS.bio}}olb`]: 'Sketches the city one tram stop at a time.',
    })
  })

  test('a link item: link:url and link:title are extensions, not Atom links', () => {
    const entry = readEntry(readFixture('atom03/written/typelist-link-entry.xml'))
    expect(entry.links).toEqual([])
    expect(entry.content?.value).toBe('Timetables for every tram line, kept up to date.')
    expect(extensionTexts(entry)).toEqual({ [`{${NS.link}}url`]: 'http://transit.example.org/trams/', [`{${NS.link}}title`]: 'Lisbon tram timetables' })
  })

  test('an upload to the UploadURI', () => {
    const entry = readEntry(readFixture('atom03/written/upload-service-entry.xml'))
    expect(entry.title).toBe('menu-board.jpg')
    expect(entry.content).toMatchObject({ mode: 'base64', type: 'image/jpeg', value: expect.stringMatching(/^\/9j\/[A-Za-z0-9+/]+=*$/) })
  })
})

describe('readEntry reads what Movable Type 7 and XML::Atom::Client exchanged', () => {
  test('a create request with an escaped HTML body, and MT’s answer with <category term> and +09:00 dates', () => {
    const { requestBody, responseBody } = readCapture('peers/mt/ok/03-post-with-category-issued-summary.txt')
    const request = readEntry(requestBody)
    expect(request).toMatchObject({
      title: 'Entry with category',
      summary: 'An excerpt',
      content: { mode: 'escaped', type: 'text/html', value: '<p>escaped &amp; html</p>' },
      subjects: ['Peer Testing'],
      issued: '2024-05-06T07:08:09Z',
    })

    const created = readEntry(responseBody, { baseUrl: `${MT}/blog_id=2` })
    expect(created).toMatchObject({
      title: 'Entry with category',
      summary: 'An excerpt',
      content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>escaped &amp; html</p>' },
      author: { name: 'Melody', url: null, email: 'melody@example.com' },
      subjects: ['Peer Testing'],
      issued: '2024-05-06T16:08:09+09:00',
      modified: '2026-11-22T19:06:41+09:00',
      id: 'tag:127.0.0.1,2024:/site/blog//2.2',
      extensions: [],
    })
    expect(created.links).toEqual([
      { rel: 'alternate', href: 'http://127.0.0.1:5080/site/blog/2024/05/entry-with-category.html', type: 'text/html', title: null },
      { rel: 'service.edit', href: `${MT}/blog_id=2/entry_id=2`, type: 'application/atom+xml', title: 'Entry with category' },
    ])
  })

  test('GET of an entry, with a replies link', () => {
    const entry = readEntry(readCapture('peers/mt/ok/04-get-entry.txt').responseBody)
    expect(entry.links.map((link) => link.rel)).toEqual(['alternate', 'service.edit', 'replies'])
    expect(entry.subjects).toEqual(['Peer Testing'])
  })

  test('a text/plain escaped update, and MT turning it into a div without paragraphs', () => {
    const { requestBody, responseBody } = readCapture('peers/mt/ok/05-put-entry.txt')
    expect(readEntry(requestBody)).toMatchObject({
      title: 'Plain ünïcödé title',
      content: { mode: 'escaped', type: 'text/plain', value: 'plain text body' },
    })
    expect(readEntry(responseBody)).toMatchObject({
      title: 'Plain ünïcödé title',
      summary: '',
      content: { mode: 'xml', type: 'application/xhtml+xml', value: 'plain text body' },
    })
  })

  test('escaped content without type, and a future issued date', () => {
    const { requestBody, responseBody } = readCapture('peers/mt/ok/08-post-future-issued.txt')
    expect(readEntry(requestBody)).toMatchObject({ content: { mode: 'escaped', type: null, value: 'later' }, issued: '2030-01-01T00:00:00Z' })
    expect(readEntry(responseBody).issued).toBe('2030-01-01T09:00:00+09:00')
  })

  test('a body that is not well-formed HTML stays escaped, decoded once', () => {
    const { requestBody, responseBody } = readCapture('peers/mt/ok/10-post-non-wellformed-html.txt')
    const sent = readEntry(requestBody).content
    expect(sent).toEqual({ mode: 'escaped', type: 'text/html', value: 'line one<br>a < b &amp; c' })
    expect(isWellFormedMarkup(sent?.value ?? '')).toBe(false)
    expect(readEntry(responseBody).content).toEqual({ mode: 'escaped', type: 'application/xhtml+xml', value: 'line one<br>a < b &amp; c' })
  })

  test('an Atom 1.0 entry with type="html" content', () => {
    const { requestBody, responseBody } = readCapture('peers/mt/ok/11-post-atom10-ns-body.txt')
    expect(readEntry(requestBody)).toMatchObject({
      title: 'Atom 1.0 body to legacy',
      content: { mode: 'escaped', type: 'text/html', value: '<p>hi</p>' },
    })
    expect(readEntry(responseBody).content?.value).toBe('<p>hi</p>')
  })

  test('entries of other MT answers', () => {
    expect(readEntry(readCapture('peers/mt/ok/09-post-text-plain-unicode.txt').responseBody).title).toBe('Plain ünïcödé title')
    expect(readEntry(readCapture('peers/mt/ok/24-post-to-website-blog1-offset0.txt').responseBody).issued).toBe('2026-11-22T10:08:00+00:00')
    const crossBlog = readEntry(readCapture('peers/mt/ok/26-entry-of-blog2-via-blog1-url.txt').responseBody)
    expect(crossBlog.content?.value).toBe('<p>Edited body.</p>')
    expect(readEntry(readCapture('peers/mt/err/27-post-without-content.txt').requestBody)).toMatchObject({ title: 'title only', content: null })
    expect(readEntry(readCapture('peers/mt/err/25-post-unknown-category.txt').requestBody).subjects).toEqual(['No Such Category'])
  })

  test('XML::Atom::Client’s create: mode="xml" without type, markup with an escaped ampersand', () => {
    const entry = readEntry(readMessageBody('peers/xml-atom-client/03-POST-create-wire.txt'))
    expect(entry.title).toBe('Hello from XML::Atom::Client')
    expect(entry.content).toEqual({ mode: 'xml', type: null, value: '<p>First body, <b>bold</b> &amp; ampersand.</p>' })
  })

  test('XML::Atom::Client’s update: the server’s entry sent back with title and content appended at the end', () => {
    const entry = readEntry(readMessageBody('peers/xml-atom-client/05-PUT-update-wire.txt'), { baseUrl: 'http://127.0.0.1:18080/atom/weblog' })
    expect(entry).toMatchObject({
      title: 'Hello again (edited)',
      content: { mode: 'xml', type: null, value: '<p>Edited body.</p>' },
      id: 'tag:example.com,2024:/1',
      issued: '2024-01-01T00:00:00Z',
      created: '2024-01-01T00:00:00Z',
    })
    expect(entry.links.map((link) => link.href)).toEqual([
      'http://127.0.0.1:18080/archives/1.html',
      'http://127.0.0.1:18080/atom/weblog/blog_id=1/entry_id=1',
    ])
    const againstMt = readEntry(readMessageBody('peers/mt/client-run/05-put.req.txt'))
    expect(againstMt).toMatchObject({ title: 'Hello again (edited)', summary: '', author: { name: 'Melody' } })
  })

  test('the canned server’s answer: escaped content "hello"', () => {
    const entry = readEntry(readMessageBody('peers/xml-atom-client/client-side/03-post.res.txt'))
    expect(entry.content).toEqual({ mode: 'escaped', type: 'text/html', value: 'hello' })
  })

  test('every entry body the peers exchanged reads', () => {
    const messages = [
      'peers/mt/client-run/03-post.req.txt',
      'peers/mt/client-run/03-post.res.txt',
      'peers/mt/client-run/04-get.res.txt',
      'peers/mt/client-run/05-put.res.txt',
      'peers/mt/client-run/06-get2.res.txt',
      'peers/xml-atom-client/client-side/04-get.res.txt',
      'peers/xml-atom-client/client-side/05-put.req.txt',
      'peers/xml-atom-client/mode-noloc/listener-03-POST.txt',
      'peers/xml-atom-client/mode-post200/listener-03-POST.txt',
      'peers/xml-atom-client/mode-basic401/listener-04-POST.txt',
      'peers/xml-atom-client/mode-basic401/listener-06-PUT.txt',
    ]
    for (const message of messages) expect(readEntry(readMessageBody(message)).title, message).toMatch(/\S/)
  })

  test('the malformed body MT choked on is refused with the reason', () => {
    expect(refusal(readCapture('peers/mt/err/26-post-malformed-xml.txt').requestBody).message).toMatch(/ends before <entry>/)
  })
})

describe('readEntry, content', () => {
  const entryWith = (content: string, declarations = '') => `<entry xmlns="${NS.atom}"${declarations}><title>t</title>${content}</entry>`
  const valueOf = (xml: string) => readEntry(xml).content?.value

  test('the XHTML div is unwrapped whatever prefix binds the XHTML namespace', () => {
    expect(valueOf(entryWith(`<content mode="xml"><h:div xmlns:h="${NS.xhtml}"><h:p>x</h:p></h:div></content>`))).toBe(
      `<h:p xmlns:h="${NS.xhtml}">x</h:p>`,
    )
  })

  test('a div that is not XHTML, or one with text beside it, is not a wrapper', () => {
    expect(valueOf(entryWith('<content mode="xml"><div>x</div></content>'))).toBe('<div>x</div>')
    expect(valueOf(entryWith(`<content mode="xml">Note: <div xmlns="${NS.xhtml}">x</div></content>`))).toBe(
      `Note: <div xmlns="${NS.xhtml}">x</div>`,
    )
    expect(valueOf(entryWith(`<content mode="xml"><div xmlns="${NS.xhtml}">a</div><div xmlns="${NS.xhtml}">b</div></content>`))).toBe(
      `<div xmlns="${NS.xhtml}">a</div><div xmlns="${NS.xhtml}">b</div>`,
    )
  })

  test('prefixes declared outside the value are declared on its top-level elements, so it stands alone', () => {
    const xml = entryWith(
      `<content type="xhtml"><div xmlns="${NS.xhtml}" xmlns:at="urn:at"><p at:x="1">a</p> <p>b</p><at:box><at:in/></at:box></div></content>`,
      ` xmlns:ext="urn:ext"`,
    ).replace(NS.atom, 'http://www.w3.org/2005/Atom')
    const value = valueOf(xml) ?? ''
    expect(value).toBe('<p xmlns:at="urn:at" at:x="1">a</p> <p>b</p><at:box xmlns:at="urn:at"><at:in/></at:box>')
    expect(isWellFormedMarkup(value)).toBe(true)

    const fromEntry = valueOf(entryWith('<content mode="xml"><ext:note>n <ext:b ext:k="v">b</ext:b></ext:note> tail</content>', ' xmlns:ext="urn:ext"'))
    expect(fromEntry).toBe('<ext:note xmlns:ext="urn:ext">n <ext:b ext:k="v">b</ext:b></ext:note> tail')
  })

  test('a prefix the value declares itself is left alone', () => {
    const value = valueOf(entryWith(`<content><div xmlns="${NS.xhtml}"><m:math xmlns:m="urn:m"><m:mi>x</m:mi></m:math></div></content>`))
    expect(value).toBe('<m:math xmlns:m="urn:m"><m:mi>x</m:mi></m:math>')
  })

  test('markup keeps its references and CDATA as written; escaped content is decoded, CDATA included', () => {
    expect(valueOf(entryWith(`<content><div xmlns="${NS.xhtml}">a &amp; b &#233; <![CDATA[<x>]]></div></content>`))).toBe(
      'a &amp; b &#233; <![CDATA[<x>]]>',
    )
    expect(valueOf(entryWith('<content mode="escaped">&lt;b&gt;a &amp;amp; b&lt;/b&gt; <![CDATA[<i>&amp;</i>]]></content>'))).toBe(
      '<b>a &amp; b</b> <i>&amp;</i>',
    )
  })

  test('escaped content that holds unescaped HTML keeps that HTML', () => {
    expect(valueOf(entryWith(`<content mode="escaped"><p>hi <b>there</b></p></content>`))).toBe('<p>hi <b>there</b></p>')
  })

  test('base64 content loses its whitespace and is not decoded', () => {
    expect(valueOf(entryWith('<content mode="base64" type="image/gif">\n  R0lG\r\n  ODlh \t AQAB\n</content>'))).toBe('R0lGODlhAQAB')
  })

  test('an empty or self-closing content element is empty', () => {
    expect(readEntry(entryWith('<content mode="escaped"/>')).content).toEqual({ mode: 'escaped', type: null, value: '' })
    expect(readEntry(entryWith(`<content><div xmlns="${NS.xhtml}"/></content>`)).content).toEqual({ mode: 'xml', type: null, value: '' })
  })

  test('Atom 1.0 content types map to modes', () => {
    const atom10 = (content: string) => readEntry(`<entry xmlns="http://www.w3.org/2005/Atom">${content}</entry>`).content
    expect(atom10('<content>plain</content>')).toEqual({ mode: 'escaped', type: null, value: 'plain' })
    expect(atom10('<content type="text">a &lt; b</content>')).toEqual({ mode: 'escaped', type: 'text/plain', value: 'a < b' })
    expect(atom10(`<content type="xhtml"><div xmlns="${NS.xhtml}"><p>x</p></div></content>`)).toEqual({
      mode: 'xml',
      type: 'application/xhtml+xml',
      value: '<p>x</p>',
    })
    expect(atom10('<content type="image/png">iVBO Rw0K</content>')).toEqual({ mode: 'base64', type: 'image/png', value: 'iVBORw0K' })
    expect(atom10('<content type="application/rss+xml"><rss/></content>')?.mode).toBe('xml')
  })

  test('a mode that is not xml, escaped or base64 is refused, naming it', () => {
    expect(refusal(entryWith('<content mode="gzip">x</content>')).message).toMatch(/mode="gzip"/)
  })

  test('base64 content that holds elements is refused', () => {
    expect(refusal(entryWith('<content mode="base64"><b>QUJD</b></content>')).message).toMatch(/base64/)
  })

  test.each([
    ['an unclosed element', `<content><div xmlns="${NS.xhtml}"><p>x</div></content>`, /does not match <p>/],
    ['an undeclared prefix', `<content><div xmlns="${NS.xhtml}"><fb:like/></div></content>`, /prefix "fb:"/],
    ['an undeclared prefix in an attribute', `<content><div xmlns="${NS.xhtml}"><p v:x="1"/></div></content>`, /prefix "v:"/],
    ['an HTML entity', `<content><div xmlns="${NS.xhtml}">&nbsp;</div></content>`, /&nbsp;/],
    ['a bare ampersand in an attribute', `<content><div xmlns="${NS.xhtml}"><a href="?a=1&b=2">x</a></div></content>`, /&amp;/],
    ['a "<" in an attribute', `<content><div xmlns="${NS.xhtml}"><a title="<">x</a></div></content>`, /name="value"/],
    ['a repeated attribute', `<content><div xmlns="${NS.xhtml}"><a b="1" b="2">x</a></div></content>`, /"b" twice/],
    ['one attribute through two prefixes', `<content><div xmlns="${NS.xhtml}" xmlns:x="urn:u" xmlns:y="urn:u"><a x:b="1" y:b="2"/></div></content>`, /twice/],
    ['a DOCTYPE', `<content><!DOCTYPE x><div xmlns="${NS.xhtml}"/></content>`, /DOCTYPE/],
    ['"]]>" in text', `<content><div xmlns="${NS.xhtml}">a ]]> b</div></content>`, /"\]\]>"/],
    ['"--" in a comment', `<content><div xmlns="${NS.xhtml}"><!-- a -- b --></div></content>`, /"--"/],
    ['a reserved namespace binding', `<content><div xmlns="${NS.xhtml}"><p xmlns:xml="urn:x"/></div></content>`, /reserved/],
  ])('XHTML content with %s is refused like anywhere else in the document', (_case, content, message) => {
    expect(refusal(entryWith(content)).message).toMatch(message)
  })

  test('the depth limit counts the levels inside content', () => {
    const nested = (levels: number) => entryWith(`<content>${'<i>'.repeat(levels)}${'</i>'.repeat(levels)}</content>`)
    expect(() => readEntry(nested(62))).not.toThrow()
    expect(refusal(nested(63)).message).toMatch(/more than 64 levels/)
  })
})

describe('readEntry', () => {
  test('matches elements by namespace URI: prefixed Atom, and dc:subject under another prefix', () => {
    const entry = readEntry(
      `<a:entry xmlns:a="${NS.atom}" xmlns:subj="${NS.dc}" xmlns:dc="urn:not-dc">` +
        '<a:title>Prefixed</a:title><subj:subject>Real</subj:subject><dc:subject>Impostor</dc:subject>' +
        '<a:content a:mode="escaped" mode="escaped">x</a:content></a:entry>',
    )
    expect(entry.title).toBe('Prefixed')
    expect(entry.subjects).toEqual(['Real'])
    expect(entry.content?.value).toBe('x')
    expect(entry.extensions.map((element) => `{${element.ns}}${element.name}`)).toEqual(['{urn:not-dc}subject'])
  })

  test('dc:subject and <category term> both become subjects, trimmed, without empties or repeats', () => {
    const entry = readEntry(
      `<entry xmlns="${NS.atom}" xmlns:dc="${NS.dc}"><dc:subject> News </dc:subject><dc:subject></dc:subject>` +
        '<category term="Cats"/><category term="News"/><category scheme="s"/><dc:subject>Cats</dc:subject></entry>',
    )
    expect(entry.subjects).toEqual(['News', 'Cats'])
  })

  test('resolves relative links against baseUrl and xml:base, and keeps them as sent without a base', () => {
    const xml =
      `<entry xmlns="${NS.atom}" xml:base="/blog/"><link rel="alternate" href="2024/post.html"/>` +
      '<link rel="service.edit" href="entry_id=1" xml:base="/t/atom/weblog/blog_id=1/"/><link href="https://x.example/abs"/><link rel="nothing"/></entry>'
    expect(readEntry(xml, { baseUrl: 'http://127.0.0.1:9/t/atom/weblog' }).links).toEqual([
      { rel: 'alternate', href: 'http://127.0.0.1:9/blog/2024/post.html', type: null, title: null },
      { rel: 'service.edit', href: 'http://127.0.0.1:9/t/atom/weblog/blog_id=1/entry_id=1', type: null, title: null },
      { rel: 'alternate', href: 'https://x.example/abs', type: null, title: null },
    ])
    expect(readEntry(xml).links.map((link) => link.href)).toEqual(['2024/post.html', 'entry_id=1', 'https://x.example/abs'])
  })

  test('extension elements keep their attributes, namespace-resolved, and their own children', () => {
    const entry = readEntry(
      `<entry xmlns="${NS.atom}" xmlns:p="${NS.photo}"><p:thumbnail p:width="120" height="90">http://t/1.jpg</p:thumbnail>` +
        '<contributor><name>Ann</name></contributor></entry>',
    )
    const [thumbnail, contributor] = entry.extensions as [XmlElement, XmlElement]
    expect(thumbnail).toEqual({
      ns: NS.photo,
      name: 'thumbnail',
      attributes: { [`{${NS.photo}}width`]: '120', height: '90' },
      children: [],
      text: 'http://t/1.jpg',
    })
    expect([contributor.ns, contributor.name, contributor.children[0]?.text]).toEqual([NS.atom, 'contributor', 'Ann'])
  })

  test('a title with markup in it reads as its text, in order', () => {
    const entry = readEntry(
      `<entry xmlns="http://www.w3.org/2005/Atom"><title type="xhtml"><div xmlns="${NS.xhtml}">Less: <em>&lt;</em> <![CDATA[&]]>!</div></title></entry>`,
    )
    expect(entry.title).toBe('Less: < &!')
  })

  test('Atom 1.0 published and updated are issued and modified; author uri is the url', () => {
    const entry = readEntry(
      '<entry xmlns="http://www.w3.org/2005/Atom"><published>2006-07-18T03:00:19Z</published><updated>2006-07-18T07:02:12Z</updated>' +
        '<author><name>miyagawa</name><uri>http://bulknews.vox.com/</uri></author></entry>',
    )
    expect(entry).toMatchObject({
      issued: '2006-07-18T03:00:19Z',
      modified: '2006-07-18T07:02:12Z',
      author: { name: 'miyagawa', url: 'http://bulknews.vox.com/', email: null },
    })
  })

  test('refuses a document that is not an entry, saying what it is', () => {
    expect(refusal(`<feed xmlns="${NS.atom}"/>`).message).toMatch(/Expected an Atom entry.*<feed> in the namespace/)
    expect(refusal('<entry><title>no namespace</title></entry>').message).toMatch(/<entry> without a namespace/)
    expect(refusal('<error>Unauthorized</error>').message).toMatch(/<error>/)
  })

  test('refuses DOCTYPEs, entity bombs and oversized documents', () => {
    expect(refusal(`<!DOCTYPE entry [<!ENTITY x SYSTEM "file:///etc/passwd">]><entry xmlns="${NS.atom}"><title>&x;</title></entry>`).message).toMatch(/DOCTYPE/)
    const big = `<entry xmlns="${NS.atom}"><content mode="base64">${'A'.repeat(2000)}</content></entry>`
    expect(() => readEntry(big, { maxBytes: 1000 })).toThrow(/too large/)
  })
})
