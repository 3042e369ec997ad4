// The codec against saxes, a conformant namespace-aware XML parser used here only as an oracle, over 10,000
// seeded mutations of valid Atom documents: whatever saxes refuses for a reason that matters to security (DOCTYPE
// and entities, undeclared prefixes, mismatched tags, two roots, characters outside XML) the codec refuses too, and
// where both accept a document they read the same elements, attributes and text.
import { SaxesParser, type SaxesTagNS } from 'saxes'
import { describe, expect, test } from 'vitest'
import { NS, XmlError, parseXml, readEntry, type XmlElement } from './index'
import { seededRandom } from './seeded-random'

/** What a reader of the document sees: elements by namespace URI and local name, attributes, own text. */
interface Node {
  element: string
  attributes: Record<string, string>
  text: string
  children: Node[]
}

const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

// saxes trims namespace URIs; XML reads `xmlns:a="urn:a&#10;"` as "urn:a " (the codec does). Compared trimmed.
const expandedName = (uri: string, local: string) => (uri.trim() ? `{${uri.trim()}}${local}` : local)

function byCodec(xml: string): Node | XmlError {
  const toNode = (element: XmlElement): Node => ({
    element: expandedName(element.ns, element.name),
    attributes: Object.fromEntries(
      Object.entries(element.attributes).map(([key, value]) => {
        const [, uri, local] = /^\{([^}]*)\}(.*)$/.exec(key) ?? ['', '', key]
        return [expandedName(uri ?? '', local ?? ''), value]
      }),
    ),
    text: element.text,
    children: element.children.map(toNode),
  })
  try {
    return toNode(parseXml(xml))
  } catch (error) {
    if (error instanceof XmlError) return error
    throw error
  }
}

/** saxes's reading, or its first error; `doctype` says whether it met a DOCTYPE (which the codec always refuses). */
function bySaxes(xml: string): { read: Node | Error; doctype: boolean } {
  const parser = new SaxesParser({ xmlns: true, position: true })
  const open: Node[] = []
  let root: Node | null = null
  let doctype = false
  let failure: Error | null = null
  parser.on('error', (error) => {
    failure ??= error
  })
  parser.on('doctype', () => {
    doctype = true
  })
  parser.on('opentag', (tag: SaxesTagNS) => {
    const attributes: Record<string, string> = {}
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.uri === XMLNS_NS || attribute.name === 'xmlns') continue
      attributes[expandedName(attribute.uri, attribute.local)] = attribute.value
    }
    const node: Node = { element: expandedName(tag.uri, tag.local), attributes, text: '', children: [] }
    open.at(-1)?.children.push(node)
    root ??= node
    open.push(node)
  })
  parser.on('closetag', () => {
    open.pop()
  })
  const addText = (text: string) => {
    const node = open.at(-1)
    if (node) node.text += text
  }
  parser.on('text', addText)
  parser.on('cdata', addText)
  try {
    parser.write(xml).close()
  } catch (error) {
    failure ??= error as Error
  }
  return { read: failure ?? root ?? new Error('no root'), doctype }
}

// saxes's words for the refusals that matter to security.
const SECURITY_RELEVANT = [
  /entity/i,
  /doctype/i,
  /unbound namespace prefix/,
  /unexpected close tag|unclosed tag|unmatched closing tag/,
  /documents may contain only one root|text data outside of root node/,
  /: disallowed character\.$/,
]

const XHTML_BODY =
  '<p>Fish &amp; chips &#8212; <a href="/x?a=1&amp;b=2" title=\'it&apos;s\'>café</a>, <em>日本語</em>.</p>' +
  '<p xml:lang="fr">Deux<br/>lignes <![CDATA[<raw> & ]]><!-- note --></p><ext:box ext:k="v"><ext:in/></ext:box>'

const DOCUMENTS = [
  `<?xml version="1.0" encoding="utf-8"?>\n<entry xmlns="${NS.atom}" xmlns:dc="${NS.dc}" xmlns:ext="urn:ext">\n` +
    '  <title>Zürich &amp; the lake</title>\n  <dc:subject>Travel</dc:subject>\n' +
    `  <content mode="xml" type="application/xhtml+xml"><div xmlns="${NS.xhtml}">${XHTML_BODY}</div></content>\n` +
    '  <link rel="alternate" type="text/html" href="http://example.com/1"/>\n</entry>\n',
  `<a:entry xmlns:a="${NS.atom}" xmlns:d="${NS.dc}"><a:title>Prefixed — ünïcödé</a:title>` +
    '<a:content mode="escaped" type="text/html">&lt;p&gt;escaped &amp;amp; html&lt;/p&gt;</a:content>' +
    '<d:subject>Food</d:subject><a:author><a:name>Melody</a:name></a:author></a:entry>',
  `<feed xmlns="${NS.atom}" version="0.3"><title>Feed</title><entry><title>One</title>` +
    `<content mode="xml"><div xmlns="${NS.xhtml}"><p>1 &lt; 2</p></div></content></entry>` +
    '<entry xmlns:p="http://sixapart.com/atom/photo#"><title>Two</title><p:thumbnail p:width="120">t.jpg</p:thumbnail></entry></feed>',
]

const INSERTIONS = [
  '<', '>', '&', '"', "'", '/', '=', ' ', ':', ']]>', '--', '<!--', '-->', '<![CDATA[', '?>', '<?pi x?>', '</p>', '<p>',
  '<b/>', '&amp;', '&#0;', '&#x1F600;', '&#xD800;', '&nbsp;', '&e;', '\u0000', '\u0007', '\uFFFE', '\uD800', 'é', 'x:',
  '<x:y/>', '<q:r></q:r>', ' q:a="1"', ' xmlns:q="urn:q"', ' xmlns=""', ' a="1"', ' a="1" a="2"', '<!DOCTYPE entry>',
  '<!DOCTYPE x [<!ENTITY e "v">]>', '<root2/>', '</entry>', '\r\n', '\t',
]

function mutate(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1))
  switch (Math.floor(random() * 5)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 3))
    case 1:
    case 2:
      return text.slice(0, at) + (INSERTIONS[Math.floor(random() * INSERTIONS.length)] ?? '') + text.slice(at)
    case 3:
      return text.slice(0, at) + text.slice(at, at + Math.floor(random() * 12)) + text.slice(at)
    default:
      return text.slice(0, at) + text.slice(at + 1, at + 2) + text.slice(at, at + 1) + text.slice(at + 2)
  }
}

describe('the codec against saxes', () => {
  test('the unmutated documents read the same', () => {
    for (const xml of DOCUMENTS) expect(byCodec(xml)).toEqual(bySaxes(xml).read)
  })

  test('10,000 mutated documents: security refusals shared, accepted documents read alike', () => {
    const random = seededRandom(20_261_127)
    const tally = { bothAccepted: 0, securityRefusals: 0, otherSaxesRefusals: 0, codecOnlyRefusals: 0 }
    for (let round = 0; round < 10_000; round++) {
      let xml = mutate(DOCUMENTS[round % DOCUMENTS.length] ?? '', random)
      if (random() < 0.4) xml = mutate(xml, random)
      const codec = byCodec(xml)
      const { read: saxes, doctype } = bySaxes(xml)
      if (doctype) {
        expect(codec, xml).toBeInstanceOf(XmlError)
        tally.securityRefusals++
      } else if (saxes instanceof Error) {
        if (SECURITY_RELEVANT.some((reason) => reason.test(saxes.message))) {
          expect(codec, `${saxes.message}\n${xml}`).toBeInstanceOf(XmlError)
          expect(() => readEntry(xml), xml).toThrow(XmlError)
          tally.securityRefusals++
        } else {
          tally.otherSaxesRefusals++
        }
      } else if (codec instanceof XmlError) {
        tally.codecOnlyRefusals++
      } else {
        expect(codec, xml).toEqual(saxes)
        tally.bothAccepted++
      }
    }
    // Both verdicts must be common for the comparison to mean something.
    expect(tally.bothAccepted).toBeGreaterThan(1500)
    expect(tally.securityRefusals).toBeGreaterThan(3000)
  }, 120_000) // a few seconds alone; the margin is for a machine shared with other work
})
