import { describe, expect, test } from 'vitest'
import { NS, XmlError, isWellFormedMarkup, parseXml, readEntry } from './index'
import { seededRandom } from './seeded-random'
import { readFixture } from './test-fixtures'

// Entry content is checked without being built (a quick loop for the common constructs, the general scanner for
// the rest), while parseXml builds every element. Both must accept and refuse exactly the same documents.

function accepts(read: () => unknown): boolean {
  try {
    read()
    return true
  } catch (error) {
    if (error instanceof XmlError) return false
    throw error
  }
}

const INSERTIONS = [
  '<', '>', '&', '"', "'", '/', '=', ' ', ':', ']]>', '--', '-->', '<!--', '<![CDATA[', '?>', '<?pi x?>', '</p>',
  '<p>', '<br/>', '&amp;', '&#0;', '&#x1F600;', '&#xD800;', '&nbsp;', '&#65', '\u0001', '\uFFFE', '\uD800', 'é',
  '<é/>', 'x:', '<x:y/>', 'xmlns="urn:u"', ' xmlns:p="urn:p"', ' a="1"', ' a="1" a="2"', '<!DOCTYPE x>', '\r\n',
]

function mutate(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1))
  switch (Math.floor(random() * 4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 3))
    case 1:
      return text.slice(0, at) + (INSERTIONS[Math.floor(random() * INSERTIONS.length)] ?? '') + text.slice(at)
    case 2: {
      const length = Math.floor(random() * 12)
      return text.slice(0, at) + text.slice(at, at + length) + text.slice(at)
    }
    default:
      return text.slice(0, at) + text.slice(at + 1, at + 2) + text.slice(at, at + 1) + text.slice(at + 2)
  }
}

const FRAGMENTS = [
  '<p>Fish &amp; chips &#8212; <a href="/x?a=1&amp;b=2" title=\'it&apos;s\'>link</a>, <em>é</em>.</p>\n<p>Two<br/>lines</p>',
  '<ul><li>One</li><li><code>a &lt; b</code></li></ul><!-- note --><![CDATA[<raw>]]><img src="a.jpg" alt="x > y" />',
  '<blockquote xml:lang="fr"><p>Citation</p></blockquote><pre>  spaced\n  text  </pre>',
  readFixture('atom03/written/feed-atom10.xml').split('<div xmlns="http://www.w3.org/1999/xhtml" xmlns:at="http://www.sixapart.com/ns/at">')[2]?.split('</content>')[0]?.replace(/<\/div>\s*$/, '') ?? '',
]

const inDiv = (fragment: string) =>
  `<entry xmlns="${NS.atom}" xmlns:at="http://www.sixapart.com/ns/at"><content mode="xml"><div xmlns="${NS.xhtml}">${fragment}</div></content></entry>`
const direct = (fragment: string) => `<entry xmlns="${NS.atom}"><content mode="xml">${fragment}</content></entry>`

describe('raw content is checked exactly like built content', () => {
  test('the unmutated fragments are accepted and come back as written', () => {
    for (const fragment of FRAGMENTS.slice(0, 3)) {
      expect(readEntry(inDiv(fragment)).content?.value).toBe(fragment.trim())
      expect(readEntry(direct(fragment)).content?.value).toBe(fragment.trim())
    }
    expect(FRAGMENTS[3]).toContain('at:enclosure')
    expect(accepts(() => readEntry(inDiv(FRAGMENTS[3] ?? '')))).toBe(true)
  })

  test('2,400 mutated documents: readEntry, parseXml and isWellFormedMarkup agree on every one', () => {
    const random = seededRandom(20_260_101)
    let refused = 0
    for (let round = 0; round < 300; round++) {
      for (const fragment of FRAGMENTS) {
        let mutated = mutate(fragment, random)
        if (random() < 0.5) mutated = mutate(mutated, random)
        for (const wrap of [inDiv, direct]) {
          const xml = wrap(mutated)
          const built = accepts(() => parseXml(xml))
          expect(accepts(() => readEntry(xml)), xml).toBe(built)
          if (!built) refused++
        }
        // The wrapper of isWellFormedMarkup declares no prefixes, so compare it with a document that declares none.
        const bare = `<div xmlns="${NS.xhtml}">${mutated}</div>`
        expect(isWellFormedMarkup(mutated), mutated).toBe(accepts(() => parseXml(bare)))
      }
    }
    // The mutations must exercise both verdicts for the agreement to mean something.
    expect(refused).toBeGreaterThan(500)
    expect(refused).toBeLessThan(2000)
  })
})

describe('raw content beyond the common constructs', () => {
  const valueOf = (content: string) => readEntry(direct(content)).content?.value

  test('names beyond ASCII, processing instructions and prefixed elements are read through the general path', () => {
    expect(valueOf('<café>x</café>')).toBe('<café>x</café>')
    expect(valueOf('<p>a<?php echo 1 ?>b</p>')).toBe('<p>a<?php echo 1 ?>b</p>')
    expect(valueOf('<m:x xmlns:m="urn:m">1</m:x>')).toBe('<m:x xmlns:m="urn:m">1</m:x>')
  })

  test('a default namespace declared on a top-level element is that element’s namespace', () => {
    expect(valueOf(`<div xmlns="${NS.xhtml}"><p>in XHTML</p></div>`)).toBe('<p>in XHTML</p>')
    expect(valueOf('<div xmlns="urn:other"><p>not XHTML</p></div>')).toBe('<div xmlns="urn:other"><p>not XHTML</p></div>')
  })

  test('a reserved namespace declared as the default is refused', () => {
    expect(() => readEntry(direct('<div xmlns="http://www.w3.org/2000/xmlns/"/>'))).toThrow(/reserved/)
  })
})
