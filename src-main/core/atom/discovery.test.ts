import { describe, expect, it } from 'vitest'
import { collectionRoot } from './discovery'

describe('the gallery and lists roots', () => {
  it('sit beside the weblog root, as TypePad and the service place them', () => {
    expect(collectionRoot('http://127.0.0.1:4567/t/atom/weblog', 'gallery')).toBe('http://127.0.0.1:4567/t/atom/gallery')
    expect(collectionRoot('https://example.com/blog/t/atom/weblog', 'lists')).toBe('https://example.com/blog/t/atom/lists')
  })

  it("sit beside Movable Type's mt-atom.cgi/weblog, where the server says whether it has them", () => {
    expect(collectionRoot('https://example.com/cgi-bin/mt/mt-atom.cgi/weblog', 'gallery')).toBe('https://example.com/cgi-bin/mt/mt-atom.cgi/gallery')
  })
})
