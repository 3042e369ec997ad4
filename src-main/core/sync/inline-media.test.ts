import { describe, expect, it } from 'vitest'
import { localMediaIn, localMediaReference, withPublicMedia } from './inline-media'

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
    const rewritten = withPublicMedia(html, new Map([[a, 'http://127.0.0.1/u/a.jpg?x=1&y="2"']]))
    expect(rewritten).toBe(
      `<p><img src="http://127.0.0.1/u/a.jpg?x=1&amp;y=&quot;2&quot;" alt="a"><img alt='b' src='${localMediaReference(b)}'/>` +
        `<a href="http://127.0.0.1/u/a.jpg?x=1&amp;y=&quot;2&quot;">full size</a> blogdesk-media:${a} in text stays</p>`,
    )
  })
})
