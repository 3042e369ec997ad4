import { expect, test } from 'vitest'
import { parseXml } from './index'
import { attributeList, escapeAttribute, escapeText } from './xml-writer'

test('text escaping keeps markup characters literal', () => {
  expect(escapeText('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d')
  expect(parseXml(`<t>${escapeText(']]> <!DOCTYPE x> &amp;')}</t>`).text).toBe(']]> <!DOCTYPE x> &amp;')
})

test('attribute escaping survives a reader’s whitespace normalisation', () => {
  const value = `quote " apostrophe ' tab \t newline \n return \r amp & lt <`
  expect(escapeAttribute(value)).not.toMatch(/["\t\n\r<]/)
  expect(parseXml(`<t a="${escapeAttribute(value)}"/>`).attributes.a).toBe(value)
})

test('attributeList leaves out absent values', () => {
  expect(attributeList({ rel: 'alternate', type: null, title: undefined, href: 'a&b' })).toBe(' rel="alternate" href="a&amp;b"')
})
