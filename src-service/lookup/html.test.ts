import { describe, expect, it } from 'vitest'
import { decodeEntities, linkElements, MAX_TITLE_LENGTH, pageTitle } from './html'

describe('pageTitle', () => {
  it('reads the title as a person sees it: entities decoded, whitespace collapsed', () => {
    const html = '<!DOCTYPE html><html><head><TITLE lang="fr">\n  Caf&eacute; &amp; Cr&#xE8;me&nbsp;&mdash;\t&#8220;Blog&#8221;  </TITLE></head></html>'
    expect(pageTitle(html)).toBe('Café & Crème — “Blog”')
  })

  it('ignores titles inside comments, scripts and SVG, and takes the page’s own', () => {
    const html = `<!-- <title>old</title> --><script>document.write("<title>x</title>")</script>
      <svg><title>icon</title></svg><title>Real</title>`
    expect(pageTitle(html)).toBe('Real')
  })

  it('keeps markup inside the title as text, and unknown entities as written', () => {
    expect(pageTitle('<title>a <b> &bogus; c</title>')).toBe('a <b> &bogus; c')
  })

  it('caps a long title with an ellipsis', () => {
    const title = pageTitle(`<title>${'word '.repeat(100)}</title>`)!
    expect([...title]).toHaveLength(MAX_TITLE_LENGTH)
    expect(title.endsWith('…')).toBe(true)
  })

  it('gives null for a page without a title, or with an empty or unclosed one', () => {
    expect(pageTitle('<html><body>hi</body></html>')).toBeNull()
    expect(pageTitle('<title>   </title>')).toBeNull()
    expect(pageTitle('<title>never closed')).toBeNull()
    expect(pageTitle('<titles>no</titles>')).toBeNull()
  })
})

describe('linkElements', () => {
  it('reads every link’s attributes, quoted any way, names lower-cased, values decoded', () => {
    const html = `<head><LINK REL="meta" type='application/rdf+xml' title=FOAF href="/foaf.rdf?a=1&amp;b=2">
      <link rel=stylesheet href="a.css" /><linkish href="no"></head>`
    expect(linkElements(html)).toEqual([
      { rel: 'meta', type: 'application/rdf+xml', title: 'FOAF', href: '/foaf.rdf?a=1&b=2' },
      { rel: 'stylesheet', href: 'a.css' },
    ])
  })

  it('respects quotes that contain ">"', () => {
    expect(linkElements('<link title="a > b" href="x">')).toEqual([{ title: 'a > b', href: 'x' }])
  })
})

describe('reading crafted pages', () => {
  it('stays fast on a megabyte of unclosed tags', () => {
    const started = performance.now()
    pageTitle('<title '.repeat(150_000))
    pageTitle(`<title>${'<'.repeat(1_000_000)}`)
    linkElements('<link '.repeat(170_000))
    linkElements(`<link href="${'x'.repeat(1_000_000)}`)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe('decodeEntities', () => {
  it('turns references outside Unicode into U+FFFD, as browsers do', () => {
    expect(decodeEntities('&#0;&#xD800;&#x110000;&#65;')).toBe('\ufffd\ufffd\ufffdA')
  })
})
