import { describe, expect, it } from 'vitest'
import { imageMayLoad } from './remote-images'

describe('imageMayLoad', () => {
  it('keeps web images only for friends whose remote images the reader allowed', () => {
    expect(imageMayLoad('https://pixel.example/t.gif?reader=1', true)).toBe(true)
    expect(imageMayLoad('HTTP://photos.example/a.jpg', true)).toBe(true)
    expect(imageMayLoad('https://pixel.example/t.gif?reader=1', false)).toBe(false)
    expect(imageMayLoad('http://photos.example/a.jpg', false)).toBe(false)
  })

  it('drops sources that cannot load here, whatever the choice', () => {
    for (const src of ['', 'javascript:alert(1)', 'file:///etc/passwd', '//pixel.example/t.gif', 'pixel.gif']) {
      expect(imageMayLoad(src, true)).toBe(false)
    }
  })
})
