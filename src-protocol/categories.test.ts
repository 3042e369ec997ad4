import { describe, expect, test } from 'vitest'
import { NS, XmlError, parseXml, readCategories, writeCategories } from './index'
import { readCapture, readFixture, readMessageBody } from './test-fixtures'

describe('readCategories', () => {
  test('Movable Type’s documented answer, with the dc: prefix', () => {
    expect(readCategories(readFixture('atom03/mt-docs-categories-response.xml'))).toEqual(['Books', 'Travel', 'Movies'])
  })

  test('Movable Type 7’s answer, declaring Dublin Core as the default namespace of each subject', () => {
    expect(readCategories(readCapture('peers/mt/ok/07-categories.txt').responseBody)).toEqual(['News', 'Peer Testing'])
    expect(readCategories(readMessageBody('peers/mt/client-run/08-categories.res.txt'))).toEqual(['News', 'Peer Testing'])
  })

  test('<category term> children and AtomPub’s app:categories are read too', () => {
    const atomPub =
      '<app:categories xmlns:app="http://www.w3.org/2007/app" xmlns:atom="http://www.w3.org/2005/Atom">' +
      '<atom:category term="News"/><atom:category term=" Cats "/><atom:category scheme="x"/></app:categories>'
    expect(readCategories(atomPub)).toEqual(['News', 'Cats'])
    const mixed = `<categories xmlns="${NS.category}" xmlns:dc="${NS.dc}"><dc:subject>A</dc:subject><category term="B"/><dc:subject>A</dc:subject><dc:subject> </dc:subject></categories>`
    expect(readCategories(mixed)).toEqual(['A', 'B'])
  })

  test('a subject in another namespace is not a category', () => {
    expect(readCategories(`<categories xmlns="${NS.category}"><subject>Not Dublin Core</subject></categories>`)).toEqual([])
  })

  test('refuses a document that is not a categories document', () => {
    expect(() => readCategories('<categories><dc:subject xmlns:dc="x">A</dc:subject></categories>')).toThrow(XmlError)
    expect(() => readCategories(`<feed xmlns="${NS.atom}"/>`)).toThrow(/Expected a categories document/)
  })
})

describe('writeCategories', () => {
  test('writes one dc:subject per name, which reads back to the same names', () => {
    const names = ['News', 'Food & <Drink>', 'Café “Noir”', '猫']
    const xml = writeCategories(names)
    expect(xml).toBe(
      `<?xml version="1.0" encoding="utf-8"?>\n<categories xmlns="${NS.category}" xmlns:dc="${NS.dc}">\n` +
        '  <dc:subject>News</dc:subject>\n  <dc:subject>Food &amp; &lt;Drink&gt;</dc:subject>\n' +
        '  <dc:subject>Café “Noir”</dc:subject>\n  <dc:subject>猫</dc:subject>\n</categories>\n',
    )
    expect(readCategories(xml)).toEqual(names)
  })

  test('an empty list is an empty categories element', () => {
    const root = parseXml(writeCategories([]))
    expect([root.ns, root.name, root.children]).toEqual([NS.category, 'categories', []])
  })
})
