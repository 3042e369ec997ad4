import { describe, expect, it } from 'vitest'
import { contentHash, sameText } from './versions'

describe('post versions', () => {
  const post = { title: 'Tram 28', content: '<p>Up the hill</p>\n<p>and down</p>', categories: ['Lisbon', 'Trams'] }

  it('takes text a server stored with other whitespace, or categories in another order, as the same version', () => {
    expect(sameText(post, { title: ' Tram 28 ', content: '  <p>Up  the hill</p><p>and down</p>\n', categories: ['Trams', 'Lisbon'] })).toBe(true)
  })

  it('tells a changed title, content or category apart', () => {
    expect(contentHash({ ...post, title: 'Tram 12' })).not.toBe(contentHash(post))
    expect(contentHash({ ...post, content: '<p>Up the hill</p>' })).not.toBe(contentHash(post))
    expect(contentHash({ ...post, categories: ['Lisbon'] })).not.toBe(contentHash(post))
  })
})
