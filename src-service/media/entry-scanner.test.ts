import { describe, expect, it } from 'vitest'
import { XmlError } from '../../src-protocol'
import { EntryScanner, SkeletonTooLargeError } from './entry-scanner'

interface Scanned {
  skeleton: string
  content: string
  contentElements: number
}

/** Scans `xml` fed in pieces of `size` bytes. */
function scan(xml: string, size = Number.POSITIVE_INFINITY, maxSkeletonBytes = 1024 * 1024): Scanned {
  const pieces: Buffer[] = []
  const scanner = new EntryScanner({ maxSkeletonBytes, onContentText: (text) => pieces.push(Buffer.from(text)) })
  const bytes = Buffer.from(xml, 'utf8')
  const step = Math.min(size, bytes.length)
  for (let at = 0; at < bytes.length; at += step) scanner.push(bytes.subarray(at, at + step))
  return { skeleton: scanner.finish(), content: Buffer.concat(pieces).toString('latin1'), contentElements: scanner.contentElements }
}

const ENTRY = `<?xml version="1.0" encoding="utf-8"?>
<!-- a comment with <content> in it -->
<entry xmlns="http://purl.org/atom/ns#" xmlns:photo="http://sixapart.com/atom/photo#">
  <title type="text/plain" note="a > b">Tram 28 à Graça</title>
  <summary><![CDATA[<content>not this one</content>]]></summary>
  <photo:filename>tram.jpg</photo:filename>
  <content mode="base64" type='image/jpeg' note="x>y"><!-- base64 follows -->QUJD
REVG&#13;&#x0A;<![CDATA[R0hJ]]>SktM<?pi stays?>TU5P</content>
  <photo:taken/>
</entry>
`

describe('EntryScanner', () => {
  it("keeps everything but the content's text, and hands that text over, split at any byte", () => {
    const whole = scan(ENTRY)
    expect(whole.content.replace(/\s/g, '')).toBe('QUJDREVGR0hJSktMTU5P')
    expect(whole.contentElements).toBe(1)
    expect(whole.skeleton).toContain('<title type="text/plain" note="a > b">Tram 28 à Graça</title>')
    expect(whole.skeleton).toContain('<summary><![CDATA[<content>not this one</content>]]></summary>')
    expect(whole.skeleton).toContain(`<content mode="base64" type='image/jpeg' note="x>y"><!-- base64 follows --><?pi stays?></content>`)
    expect(whole.skeleton).not.toMatch(/QUJD|REVG|R0hJ|&#13;|CDATA\[R0hJ/)
    for (const size of [1, 2, 3, 5, 7, 13, 64]) expect(scan(ENTRY, size)).toEqual(whole)
  })

  it('finds the content by its local name among the root\'s children only, whatever its prefix', () => {
    const prefixed = scan('<a:entry xmlns:a="http://purl.org/atom/ns#"><a:content mode="base64">QUJD</a:content></a:entry>')
    expect(prefixed.content).toBe('QUJD')
    const nested = scan('<entry><author><content>kept</content></author></entry>')
    expect(nested).toMatchObject({ content: '', contentElements: 0, skeleton: '<entry><author><content>kept</content></author></entry>' })
    const empty = scan('<entry><content mode="base64" type="image/gif"/></entry>')
    expect(empty).toMatchObject({ content: '', contentElements: 0 })
  })

  it('refuses markup inside the content, a second content, and a body that ends inside the content', () => {
    expect(() => scan('<entry><content mode="xml"><div>x</div></content></entry>')).toThrow(/holds markup/)
    expect(() => scan('<entry><content>QQ==</content><content>QQ==</content></entry>')).toThrow(/more than one <content>/)
    expect(() => scan('<entry><content mode="base64">QUJD', 2)).toThrow(XmlError)
    expect(() => scan('<entry><content mode="base64">QUJD<![CDATA[QU', 2)).toThrow(/ends inside <content>/)
    expect(() => scan('<entry><content>QQ&bogus;</content></entry>')).toThrow(/unknown reference "&bogus;"/)
    expect(() => scan('<entry><content>QQ&#x41234567;</content></entry>')).toThrow(/malformed reference/)
  })

  it('keeps a declaration and all after it, for the parser to refuse', () => {
    const doctype = '<!DOCTYPE entry [<!ENTITY x "<content>">]><entry><content>&x;</content></entry>'
    expect(scan(doctype, 3)).toMatchObject({ skeleton: doctype, content: '', contentElements: 0 })
  })

  it('refuses a skeleton larger than its limit', () => {
    const huge = `<entry><title>${'x'.repeat(2000)}</title><content>QUJD</content></entry>`
    expect(() => scan(huge, 100, 1000)).toThrow(SkeletonTooLargeError)
    expect(scan(`<entry><title>t</title><content>${'QUJD'.repeat(1000)}</content></entry>`, 100, 1000).content).toHaveLength(4000)
  })
})
