import { describe, expect, it } from 'vitest'
import { localMediaIn, localMediaReference, localMediaUses, withPublicMedia } from './inline-media'

const a = 'a'.repeat(64)
const b = 'b'.repeat(64)

describe('inline media', () => {
  const html = `<p><img src="${localMediaReference(a)}" alt="a"><img alt='b' src='${localMediaReference(b)}'/>` +
    `<a href="${localMediaReference(a)}">full size</a> blogdesk-media:${a} in text stays</p>`

  it('finds each local image once, in order, in src and href attributes only', () => {
    expect(localMediaIn(html)).toEqual([a, b])
    expect(localMediaIn('<img src="blogdesk-media:not-a-hash">')).toEqual([])
  })

  it('rewrites every reference to its public URL, escaped for an attribute, and leaves unknown ones alone', () => {
    const rewritten = withPublicMedia(html, (use) => (use.hash === a ? 'http://127.0.0.1/u/a.jpg?x=1&y="2"' : undefined))
    expect(rewritten).toBe(
      `<p><img src="http://127.0.0.1/u/a.jpg?x=1&amp;y=&quot;2&quot;" alt="a"><img alt='b' src='${localMediaReference(b)}'/>` +
        `<a href="http://127.0.0.1/u/a.jpg?x=1&amp;y=&quot;2&quot;">full size</a> blogdesk-media:${a} in text stays</p>`,
    )
  })

  it('tells an image shown at a width from the same file linked as it is, even with ">" in its alt text', () => {
    const figure =
      `<figure class="alignright"><a href="${localMediaReference(a)}"><img src="${localMediaReference(a)}" alt="2 > 1" width="600"></a></figure>` +
      `<img data-width="9" src="${localMediaReference(a)}"><img width=300 src="${localMediaReference(a)}">`
    expect(localMediaUses(figure)).toEqual([
      { as: 'file', hash: a },
      { as: 'image', hash: a, width: 600 },
      { as: 'image', hash: a, width: null },
      { as: 'image', hash: a, width: 300 },
    ])
    const rewritten = withPublicMedia(figure, (use) => (use.as === 'file' ? 'http://x/original.jpg' : `http://x/${use.width ?? 'natural'}.jpg`))
    expect(rewritten).toBe(
      '<figure class="alignright"><a href="http://x/original.jpg"><img src="http://x/600.jpg" alt="2 > 1" width="600"></a></figure>' +
        '<img data-width="9" src="http://x/natural.jpg"><img width=300 src="http://x/300.jpg">',
    )
  })
})
