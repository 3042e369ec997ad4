import { describe, expect, test } from 'vitest'
import { NS, XmlError, parseXml, type XmlElement } from './index'
import { XML_NS } from './namespaces'
import { fixtureNames, readFixture } from './test-fixtures'

function child(element: XmlElement, ns: string, name: string): XmlElement {
  const found = element.children.find((candidate) => candidate.ns === ns && candidate.name === name)
  if (!found) throw new Error(`no {${ns}}${name} under <${element.name}>`)
  return found
}

function refusal(xml: string, limits?: { maxBytes?: number; maxDepth?: number }): XmlError {
  try {
    parseXml(xml, limits)
  } catch (error) {
    if (error instanceof XmlError) return error
    throw error
  }
  throw new Error(`parseXml accepted ${JSON.stringify(xml.slice(0, 80))}`)
}

describe('namespaces', () => {
  test('an element in the default namespace and one with a prefix resolve to URI and local name', () => {
    const entry = parseXml(readFixture('atom03/written/entry-full.xml'))
    expect([entry.ns, entry.name]).toEqual([NS.atom, 'entry'])
    const subjects = entry.children.filter((element) => element.ns === NS.dc && element.name === 'subject')
    expect(subjects.map((subject) => subject.text)).toEqual(['Travel', 'Lisbon'])
  })

  test('the prefix does not matter, only the URI it is bound to', () => {
    const viaDefault = parseXml(`<feed xmlns="${NS.atom}"><title>T</title></feed>`)
    const viaPrefix = parseXml(`<a:feed xmlns:a="${NS.atom}"><a:title>T</a:title></a:feed>`)
    const viaOddPrefix = parseXml(`<dc:feed xmlns:dc="${NS.atom}"><dc:title>T</dc:title></dc:feed>`)
    for (const feed of [viaDefault, viaPrefix, viaOddPrefix]) {
      expect([feed.ns, feed.name]).toEqual([NS.atom, 'feed'])
      expect(child(feed, NS.atom, 'title').text).toBe('T')
    }
  })

  test('a prefix bound to another URI is another namespace, even when it is the usual prefix', () => {
    const entry = parseXml(`<entry xmlns="${NS.atom}" xmlns:dc="urn:not-dublin-core"><dc:subject>x</dc:subject></entry>`)
    expect(entry.children[0]).toMatchObject({ ns: 'urn:not-dublin-core', name: 'subject' })
  })

  test('declarations are scoped to their element, and inner ones shadow outer ones', () => {
    const root = parseXml(
      `<root xmlns="urn:outer" xmlns:p="urn:p1">` +
        `<inner xmlns="urn:inner" xmlns:p="urn:p2"><leaf/><p:leaf/></inner>` +
        `<leaf/><p:leaf/><none xmlns=""><leaf/></none>` +
        `</root>`,
    )
    const [inner, outerLeaf, outerPrefixed, none] = root.children
    expect(inner?.ns).toBe('urn:inner')
    expect(inner?.children.map((element) => element.ns)).toEqual(['urn:inner', 'urn:p2'])
    expect(outerLeaf?.ns).toBe('urn:outer')
    expect(outerPrefixed?.ns).toBe('urn:p1')
    expect(none?.ns).toBe('')
    expect(none?.children[0]?.ns).toBe('')
  })

  test('unprefixed attributes have no namespace; prefixed ones are stored as {uri}local', () => {
    const link = parseXml(
      `<link xmlns="${NS.atom}" xmlns:x="urn:x" rel="alternate" x:rel="other" xml:lang="en" href="http://e/"/>`,
    )
    expect(link.attributes).toEqual({ rel: 'alternate', '{urn:x}rel': 'other', [`{${XML_NS}}lang`]: 'en', href: 'http://e/' })
  })

  test('namespace declarations are not reported as attributes', () => {
    expect(parseXml(`<a xmlns="urn:a" xmlns:b="urn:b" c="1"/>`).attributes).toEqual({ c: '1' })
  })

  test('an undeclared prefix is refused', () => {
    expect(refusal('<p:a/>').message).toMatch(/prefix "p:" without declaring it/)
    expect(refusal('<a p:b="1"/>').message).toMatch(/prefix "p:"/)
  })

  test('the same attribute reached through two prefixes is refused', () => {
    expect(refusal('<a xmlns:x="urn:u" xmlns:y="urn:u" x:b="1" y:b="2"/>').message).toMatch(/twice/)
  })

  test('rebinding the xml prefix or the xmlns prefix is refused', () => {
    expect(refusal('<a xmlns:xml="urn:other"/>')).toBeInstanceOf(XmlError)
    expect(refusal('<a xmlns:xmlns="urn:other"/>')).toBeInstanceOf(XmlError)
    expect(refusal(`<a xmlns:x="${XML_NS}"/>`)).toBeInstanceOf(XmlError)
  })
})

describe('text', () => {
  test('the five predefined entities and numeric references decode', () => {
    const element = parseXml('<t a="&quot;&apos;&#x263A;">&lt;b&gt; &amp; &#169; &#x1F600; &#65;</t>')
    expect(element.text).toBe('<b> & © 😀 A')
    expect(element.attributes.a).toBe(`"'☺`)
  })

  test('CDATA is kept literally and joins the text in document order', () => {
    expect(parseXml('<t>a &amp; <![CDATA[<b>&amp;</b>]]> c</t>').text).toBe('a & <b>&amp;</b> c')
  })

  test('text is not trimmed, and line breaks are normalised to \\n', () => {
    expect(parseXml('<t>  two\r\nlines\r </t>').text).toBe('  two\nlines\n ')
  })

  test('attribute values turn literal tabs and newlines into spaces but keep them when written as references', () => {
    expect(parseXml('<t a="x\ty\nz" b="x&#9;y&#10;z"/>').attributes).toEqual({ a: 'x y z', b: 'x\ty\nz' })
    expect(parseXml('<t a="one\r\ntwo" b="&#13;&#10;"/>').attributes).toEqual({ a: 'one two', b: '\r\n' })
  })

  test('every form of character reference decodes, leading zeros included', () => {
    expect(parseXml('<t>&#65;&#0065;&#x41;&#x0041;&#x1f600;&#1114111;</t>').text).toBe('AAAA😀\u{10FFFF}')
  })

  test('attribute values may hold ">", "/" and the other quote, across lines', () => {
    const element = parseXml(`<a\n  href="http://e/?a>b/"\n  title='say "hi"'\n/>`)
    expect(element.attributes).toEqual({ href: 'http://e/?a>b/', title: 'say "hi"' })
  })

  test("an element's own text excludes its children's, which stay on the children", () => {
    const element = parseXml('<p>Hello <b>bold</b> world</p>')
    expect(element.text).toBe('Hello  world')
    expect(element.children[0]?.text).toBe('bold')
  })

  test('comments and processing instructions are skipped; a byte order mark is allowed', () => {
    const element = parseXml('\uFEFF<?xml version="1.0" encoding="utf-8"?><!-- c --><a><?pi data?>x<!-- y -->z</a>')
    expect(element).toEqual({ ns: '', name: 'a', attributes: {}, children: [], text: 'xz' })
  })

  test('element names that are also JavaScript property names come through unchanged', () => {
    const root = parseXml('<toString><valueOf hasOwnProperty="1" __proto__="2"/><__proto__/><constructor/><prototype/></toString>')
    expect(root.name).toBe('toString')
    expect(root.children.map((element) => element.name)).toEqual(['valueOf', '__proto__', 'constructor', 'prototype'])
    expect(root.children[0]?.attributes.hasOwnProperty).toBe('1')
    expect(Object.keys(root.children[0]?.attributes ?? {})).toEqual(['hasOwnProperty', '__proto__'])
  })

  test('an undefined entity, a bare ampersand and a reference to a forbidden character are refused', () => {
    expect(refusal('<t>&nbsp;</t>').message).toMatch(/&nbsp;/)
    expect(refusal('<t>fish & chips</t>').message).toMatch(/&amp;/)
    expect(refusal('<t a="fish & chips"/>').message).toMatch(/&amp;/)
    expect(refusal('<t>&#0;</t>').message).toMatch(/&#0;/)
    expect(refusal('<t>&#xD800;</t>')).toBeInstanceOf(XmlError)
  })
})

describe('refused documents', () => {
  test('a DOCTYPE is refused before anything is read, so no external entity can be fetched', () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]><e>&x;</e>'
    expect(refusal(xxe).message).toMatch(/DOCTYPE/)
  })

  test('an entity expansion bomb is refused without being expanded', () => {
    const laughs = ['<!ENTITY lol "lol">']
    for (let level = 1; level <= 9; level++) {
      laughs.push(`<!ENTITY lol${level} "${`&lol${level === 1 ? '' : level - 1};`.repeat(10)}">`)
    }
    expect(refusal(`<!DOCTYPE lolz [${laughs.join('')}]><lolz>&lol9;</lolz>`).message).toMatch(/DOCTYPE/)
  })

  test('a bare DOCTYPE without an internal subset is refused too, and so is a stray ENTITY declaration', () => {
    expect(refusal('<!DOCTYPE html><html/>').message).toMatch(/DOCTYPE/)
    expect(refusal('<!doctype html><html/>').message).toMatch(/DOCTYPE/)
    expect(refusal('<a><!ENTITY x "y"></a>').message).toMatch(/entity/)
  })

  test('a DOCTYPE-like string inside a comment or CDATA is only text', () => {
    expect(parseXml('<a><!-- <!DOCTYPE x> --><![CDATA[<!DOCTYPE y>]]></a>').text).toBe('<!DOCTYPE y>')
  })

  test('"]]>" may end CDATA and appear in attribute values and comments', () => {
    const element = parseXml('<a b="]]>"><!-- ]]> --><![CDATA[x]]]]><![CDATA[>]]> ]]&gt;</a>')
    expect(element.attributes.b).toBe(']]>')
    expect(element.text).toBe('x]]> ]]>')
  })

  test('a document over the size limit is refused, counting UTF-8 bytes', () => {
    expect(refusal('<a>0123456789</a>', { maxBytes: 10 }).message).toMatch(/too large/)
    const accented = `<a>${'é'.repeat(10)}</a>` // 17 characters, 27 bytes
    expect(parseXml(accented, { maxBytes: 27 }).text).toBe('é'.repeat(10))
    expect(refusal(accented, { maxBytes: 26 }).message).toMatch(/26 bytes/)
  })

  test('the default size limit is 16 MiB', () => {
    const filler = 'x'.repeat(16 * 1024 * 1024)
    expect(refusal(`<a>${filler}</a>`).message).toMatch(/16 MiB/)
  })

  test('nesting deeper than the limit is refused; the limit itself is fine', () => {
    const nested = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth)
    expect(() => parseXml(nested(64))).not.toThrow()
    expect(refusal(nested(65)).message).toMatch(/more than 64 levels/)
    expect(refusal(nested(4), { maxDepth: 3 }).message).toMatch(/more than 3 levels/)
    expect(refusal('<a><a><a><a/></a></a></a>', { maxDepth: 3 })).toBeInstanceOf(XmlError)
    expect(refusal(nested(100_000)).message).toMatch(/too deeply/)
  })

  test.each([
    ['mismatched tags', '<a><b></a></b>', /<\/a> does not match <b>/],
    ['an unclosed element', '<feed><entry></entry>', /ends before <feed>/],
    ['a closing tag without opening tag', '<a/></b>', /no opening tag/],
    ['two root elements', '<a/><b/>', /second root/],
    ['text outside the root', '<a/>trailing', /outside the root/],
    ['an empty document', '   ', /empty/],
    ['an unquoted attribute', '<a b=c/>', /name="value"/],
    ['a valueless attribute', '<a checked/>', /name="value"/],
    ['a repeated attribute', '<a b="1" b="2"/>', /"b" twice/],
    ['attributes without space between', '<a b="1"c="2"/>', /name="value"/],
    ['a "<" in an attribute value', '<a b="<"/>', /name="value"/],
    ['a "<" in text', '<a>1 < 2</a>', /&lt;/],
    ['an unclosed comment', '<a/><!-- never closed', /comment/],
    ['an unclosed CDATA section', '<a><![CDATA[ x </a>', /CDATA/],
    ['an XML declaration not at the start', '<a/><?xml version="1.0"?>', /very first/],
    ['a forbidden control character', '<a>\u0001</a>', /U\+0001/],
    ['a lone surrogate', '<a>\uD800</a>', /U\+D800/],
    ['an element name that is not a name', '<1a/>', /does not start a tag/],
    ['"]]>" in text', '<a>x ]]> y</a>', /"\]\]>"/],
    ['"--" inside a comment', '<a><!-- a -- b --></a>', /"--"/],
    ['an uppercase X in a hexadecimal reference', '<a>&#X41;</a>', /&amp;/],
    ['a reference beyond Unicode', '<a>&#x110000;</a>', /&#x110000;/],
  ])('%s is refused with a message saying what is wrong', (_case, xml, message) => {
    const error = refusal(xml)
    expect(error.message).toMatch(message)
  })

  test('messages say where the problem is', () => {
    expect(refusal('<a>\n  <b>\n</a>').message).toMatch(/line 3, column 1.*opened at line 2, column 3/)
  })
})

describe('real documents', () => {
  test('an Atom 0.3 feed as Movable Type 2.x wrote it, with escaped and xml content', () => {
    const feed = parseXml(readFixture('atom03/written/feed-atom03.xml'))
    expect([feed.ns, feed.name]).toEqual([NS.atom, 'feed'])
    const entries = feed.children.filter((element) => element.ns === NS.atom && element.name === 'entry')
    expect(entries.length).toBeGreaterThan(0)
    for (const entry of entries) expect(child(entry, NS.atom, 'title').text.length).toBeGreaterThan(0)
  })

  test('XHTML content keeps its own namespace', () => {
    const entry = parseXml(readFixture('atom03/written/entry-content-mode-xml.xml'))
    const content = child(entry, NS.atom, 'content')
    expect(content.attributes.mode).toBe('xml')
    expect(content.children[0]).toMatchObject({ ns: NS.xhtml, name: 'div' })
  })

  test('every XML fixture of the Atom 0.3 set parses', () => {
    const files = [...fixtureNames('atom03'), ...fixtureNames('atom03/written').map((name) => `written/${name}`)]
      .filter((name) => name.endsWith('.xml'))
      .map((name) => `atom03/${name}`)
    expect(files.length).toBeGreaterThan(15)
    for (const file of files) expect(() => parseXml(readFixture(file)), file).not.toThrow()
  })
})
