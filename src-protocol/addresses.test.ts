import { describe, expect, test } from 'vitest'
import { emailAddress, webAddress } from './index'

describe('webAddress', () => {
  test('gives http and https addresses as the URL standard writes them', () => {
    expect(webAddress('https://www.rfc-editor.org/rfc/rfc4287')).toBe('https://www.rfc-editor.org/rfc/rfc4287')
    expect(webAddress('HTTP://Example.ORG')).toBe('http://example.org/')
    expect(webAddress('https://例え.jp/ページ')).toBe('https://xn--r8jz45g.jp/%E3%83%9A%E3%83%BC%E3%82%B8')
  })

  test('refuses what is not a whole web address', () => {
    expect(webAddress('rfc-editor.org')).toBeNull()
    expect(webAddress('javascript:alert(1)')).toBeNull()
    expect(webAddress('ftp://example.org/file')).toBeNull()
    expect(webAddress('file:///etc/passwd')).toBeNull()
    expect(webAddress('')).toBeNull()
  })
})

describe('emailAddress', () => {
  test('gives the address, without a mailto: in any case', () => {
    expect(emailAddress('melody@example.com')).toBe('melody@example.com')
    expect(emailAddress('MAILTO:melody@example.com')).toBe('melody@example.com')
  })

  test('refuses what is not one address', () => {
    expect(emailAddress('nobody')).toBeNull()
    expect(emailAddress('two@at@example.com')).toBeNull()
    expect(emailAddress('melody @example.com')).toBeNull()
    expect(emailAddress('<melody@example.com>')).toBeNull()
  })
})
