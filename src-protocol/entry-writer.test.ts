import { describe, expect, test } from 'vitest'
import { XML_NS } from './namespaces'
import { NS, parseXml, readEntry, writeEntry, type AtomEntry, type EntryToWrite } from './index'

/** What readEntry gives back for an entry written from `entry`. */
function asRead(entry: EntryToWrite): AtomEntry {
  return {
    title: entry.title,
    summary: entry.summary ?? null,
    content: entry.content ?? null,
    issued: entry.issued ?? null,
    modified: entry.modified ?? null,
    created: null,
    id: entry.id ?? null,
    author: entry.author ?? null,
    links: entry.links ?? [],
    subjects: entry.subjects ?? [],
    extensions: (entry.extensions ?? []).map((extension) => ({
      ns: extension.ns,
      name: extension.name,
      attributes: extension.attributes ?? {},
      children: [],
      text: extension.text ?? '',
    })),
  }
}

const fullEntry: EntryToWrite = {
  title: 'Tom & Jerry’s <best> “day” — 日本語',
  summary: 'A < B && C > D',
  content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>Café &amp; crème <a href="/x?a=1&amp;b=2">brûlée</a></p>\n<p>Ünïcödé 😀</p>' },
  issued: '2026-03-04T05:06:07Z',
  modified: '2026-03-04T05:07:00Z',
  id: 'tag:blogdesk.local,2026:post-42',
  author: { name: 'Zoë <admin>', url: 'http://127.0.0.1:1/~zoe?a=1&b=2', email: 'zoe@example.com' },
  links: [
    { rel: 'alternate', href: 'http://127.0.0.1:1/blogs/zoe/42', type: 'text/html', title: 'Tom & Jerry’s "day"' },
    { rel: 'service.edit', href: 'http://127.0.0.1:1/t/atom/weblog/blog_id=1/entry_id=42', type: 'application/x.atom+xml', title: null },
  ],
  subjects: ['Food & Drink', 'Café'],
}

describe('writeEntry writes what readEntry reads back unchanged', () => {
  test('every field, with markup characters and non-ASCII text in titles and content', () => {
    expect(readEntry(writeEntry(fullEntry))).toEqual(asRead(fullEntry))
  })

  test.each([
    ['xml', { mode: 'xml', type: 'application/xhtml+xml', value: '<p>a &lt; b &amp; c</p><ul><li>é</li></ul>' }],
    ['xml with a prefix the markup declares itself', { mode: 'xml', type: 'application/xhtml+xml', value: '<at:box xmlns:at="urn:at" at:k="v">x</at:box>' }],
    ['escaped HTML', { mode: 'escaped', type: 'text/html', value: '<p>line<br>a < b &amp; c ]]> "q"</p>' }],
    ['escaped text with line breaks', { mode: 'escaped', type: 'text/plain', value: 'one\r\ntwo\nthree\ttabbed' }],
    ['base64', { mode: 'base64', type: 'image/gif', value: 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==' }],
  ] as const)('content in mode %s', (_case, content) => {
    const entry: EntryToWrite = { title: 'Content', content: { ...content } }
    expect(readEntry(writeEntry(entry)).content).toEqual(content)
  })

  test('extension elements, with their namespaces declared under conventional prefixes', () => {
    const entry: EntryToWrite = {
      title: 'Artist - Song',
      extensions: [
        { ns: NS.song, name: 'artist', text: 'Sigur Rós' },
        { ns: NS.song, name: 'title', text: 'Hoppípolla & <friends>' },
        { ns: NS.rvw, name: 'value', text: '5' },
        { ns: NS.photo, name: 'thumbnail', text: 'http://127.0.0.1:1/t.jpg', attributes: { width: '120', [`{${NS.photo}}height`]: '90' } },
        { ns: NS.bio, name: 'olb', text: 'Lang', attributes: { [`{${XML_NS}}lang`]: 'is' } },
        { ns: 'urn:example:other', name: 'flag' },
        { ns: NS.atom, name: 'contributor', text: 'Ann' },
      ],
    }
    const xml = writeEntry(entry)
    expect(xml).toContain(
      `<entry xmlns="${NS.atom}" xmlns:song="${NS.song}" xmlns:rvw="${NS.rvw}" xmlns:photo="${NS.photo}" ` +
        `xmlns:bio="${NS.bio}" xmlns:ns1="urn:example:other">`,
    )
    expect(xml).toContain('<song:title>Hoppípolla &amp; &lt;friends&gt;</song:title>')
    expect(xml).toContain('<photo:thumbnail width="120" photo:height="90">')
    expect(xml).toContain('<bio:olb xml:lang="is">Lang</bio:olb>')
    expect(xml).toContain('<ns1:flag/>')
    expect(readEntry(xml)).toEqual(asRead(entry))
  })

  test('dc is declared only when there are subjects', () => {
    expect(writeEntry({ title: 'No subjects' })).not.toContain('xmlns:dc')
    expect(writeEntry({ title: 'Subjects', subjects: ['A'] })).toContain(`xmlns:dc="${NS.dc}"`)
  })

  test('an entry with only a title, and one with an empty summary and an author without fields', () => {
    expect(readEntry(writeEntry({ title: '' }))).toEqual(asRead({ title: '' }))
    const sparse: EntryToWrite = { title: 'x', summary: '', author: { name: null, url: null, email: null } }
    expect(readEntry(writeEntry(sparse))).toEqual(asRead(sparse))
  })
})

describe('writeEntry', () => {
  test('writes an Atom 0.3 entry document in the form the service sends', () => {
    const xml = writeEntry({
      title: 'Hello',
      content: { mode: 'xml', type: 'application/xhtml+xml', value: '<p>Hi</p>' },
      issued: '2026-01-01T00:00:00Z',
      subjects: ['News'],
    })
    expect(xml).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n' +
        `<entry xmlns="${NS.atom}" xmlns:dc="${NS.dc}">\n` +
        '  <title>Hello</title>\n' +
        `  <content mode="xml" type="application/xhtml+xml"><div xmlns="${NS.xhtml}"><p>Hi</p></div></content>\n` +
        '  <issued>2026-01-01T00:00:00Z</issued>\n' +
        '  <dc:subject>News</dc:subject>\n' +
        '</entry>\n',
    )
  })

  test('characters XML cannot carry become U+FFFD instead of breaking the document', () => {
    const entry = readEntry(writeEntry({ title: 'bell\u0007', content: { mode: 'escaped', type: null, value: 'nul\u0000' } }))
    expect([entry.title, entry.content?.value]).toEqual(['bell\uFFFD', 'nul\uFFFD'])
  })

  test('base64 content that is not base64 is still escaped', () => {
    expect(parseXml(writeEntry({ title: 'x', content: { mode: 'base64', type: null, value: '<&>' } })).children[1]?.text).toBe('<&>')
  })

  test('refuses an extension name that XML cannot carry', () => {
    expect(() => writeEntry({ title: 'x', extensions: [{ ns: NS.photo, name: 'has space' }] })).toThrow(RangeError)
    expect(() => writeEntry({ title: 'x', extensions: [{ ns: NS.photo, name: 'ok', attributes: { 'a:b': '1' } }] })).toThrow(/"a:b"/)
  })
})
