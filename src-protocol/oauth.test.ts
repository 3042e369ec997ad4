import { createHmac } from 'node:crypto'
import OAuth from 'oauth-1.0a'
import { describe, expect, it } from 'vitest'
import {
  baseStringUri,
  createOAuthHeader,
  formatAuthorizationHeader,
  oauthSignature,
  OAuthProblem,
  parseAuthorizationHeader,
  parseFormEncoded,
  percentEncode,
  sameInConstantTime,
  signatureBaseString,
} from './oauth'

describe('OAuth 1.0a signatures', () => {
  it('signs RFC 5849’s own example request (§1.2) to the signature the RFC gives', () => {
    const header = parseAuthorizationHeader(
      'OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03", oauth_token="nnch734d00sl2jdk", ' +
        'oauth_signature_method="HMAC-SHA1", oauth_timestamp="137131202", oauth_nonce="chapoH", ' +
        'oauth_signature="MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D"',
    )!
    const parameters = [...parseFormEncoded('file=vacation.jpg&size=original', 'query'), ...header.filter(([name]) => name !== 'realm')]
    const baseString = signatureBaseString('GET', baseStringUri('http://photos.example.net', '/photos'), parameters)

    expect(baseString).toBe(
      'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26' +
        'oauth_nonce%3DchapoH%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131202%26' +
        'oauth_token%3Dnnch734d00sl2jdk%26size%3Doriginal',
    )
    expect(oauthSignature('HMAC-SHA1', baseString, 'kd94hf93k423kf44', 'pfkkdhi9sl3r4s00')).toBe('MdpQcU8iPSUjWoN/UDMsK2sui9I=')
  })

  it('builds RFC 5849’s base string example (§3.4.1.1): query, header and form body, repeated names, encoded names', () => {
    const header = parseAuthorizationHeader(
      'OAuth realm="Example",\r\n oauth_consumer_key="9djdj82h48djs9d2",\r\n oauth_token="kkk9d7dh3k39sjv7",\r\n ' +
        'oauth_signature_method="HMAC-SHA1",\r\n oauth_timestamp="137131201",\r\n oauth_nonce="7d8f3e4a",\r\n ' +
        'oauth_signature="bYT5CMsGcbgUdFHObYMEfcx6bsw%3D"',
    )!
    const parameters = [
      ...parseFormEncoded('b5=%3D%253D&a3=a&c%40=&a2=r%20b', 'query'),
      ...header.filter(([name]) => name !== 'realm'),
      ...parseFormEncoded('c2&a3=2+q', 'form body'),
    ]

    expect(signatureBaseString('POST', baseStringUri('http://example.com', '/request'), parameters)).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26' +
        'c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1' +
        '%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    )
  })

  it('agrees with the oauth-1.0a client library on signatures over awkward characters', () => {
    const client = new OAuth({
      consumer: { key: 'key with spaces', secret: "s3cr&t!*'()" },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    })
    const url = 'http://127.0.0.1:4321/users/6p0123/events.json?max-results=5&q=%C3%A9t%C3%A9%20%E2%98%80'
    const data = { title: "Quelqu'un m'a dit (ça) *", empty: '' }
    const token = { key: 'tok~en', secret: 'tök&en secret' }
    // A copy: the library adds the query's parameters to the data object it is given.
    const signed = client.authorize({ url, method: 'POST', data: { ...data } }, token)

    const header = parseAuthorizationHeader(client.toHeader(signed).Authorization)!
    const parameters = [
      ...parseFormEncoded(new URL(url).search.slice(1), 'query'),
      ...header,
      ...parseFormEncoded(new URLSearchParams(data).toString(), 'form body'),
    ]
    const baseString = signatureBaseString('POST', baseStringUri('http://127.0.0.1:4321', '/users/6p0123/events.json'), parameters)
    expect(oauthSignature('HMAC-SHA1', baseString, "s3cr&t!*'()", 'tök&en secret')).toBe(signed.oauth_signature)
  })

  it('makes PLAINTEXT signatures as the client library does: both secrets encoded, joined by &', () => {
    const client = new OAuth({ consumer: { key: 'k', secret: 'a&b c' }, signature_method: 'PLAINTEXT' })
    const signed = client.authorize({ url: 'http://127.0.0.1/x', method: 'GET' }, { key: 't', secret: 'd=e' })
    expect(oauthSignature('PLAINTEXT', 'ignored', 'a&b c', 'd=e')).toBe(signed.oauth_signature)
  })

  it('percent-encodes everything but RFC 3986’s unreserved characters, in upper-case hex', () => {
    expect(percentEncode("a-._~ !*'()&=+/é")).toBe('a-._~%20%21%2A%27%28%29%26%3D%2B%2F%C3%A9')
  })

  it('reads Authorization headers with bare values and loose spacing, and ignores other schemes', () => {
    expect(parseAuthorizationHeader('oauth oauth_nonce = "a%20b" ,oauth_version=1.0,')).toEqual([
      ['oauth_nonce', 'a b'],
      ['oauth_version', '1.0'],
    ])
    expect(parseAuthorizationHeader('OAuth')).toEqual([])
    expect(parseAuthorizationHeader('Basic bWVsb2R5OnNlY3JldA==')).toBeNull()
    expect(parseAuthorizationHeader(undefined)).toBeNull()
  })

  it('refuses an unreadable header or a value that is not correctly percent-encoded, saying how to send it', () => {
    expect(() => parseAuthorizationHeader('OAuth oauth_nonce="unterminated')).toThrow(/could not be read.*double quotes/)
    expect(() => parseFormEncoded('a=%E0%A4%A', 'query string')).toThrow(OAuthProblem)
    expect(() => parseFormEncoded('a=%zz', 'query string')).toThrow(/query string holds "%zz".*percent-encoded/)
  })

  it('drops default ports and keeps the path as sent in the base string URI', () => {
    expect(baseStringUri('HTTP://Example.COM:80', '/a%2Fb')).toBe('http://example.com/a%2Fb')
    expect(baseStringUri('http://127.0.0.1:8080', '/x')).toBe('http://127.0.0.1:8080/x')
  })

  it('compares secrets of any length', () => {
    expect(sameInConstantTime('abc', 'abc')).toBe(true)
    expect(sameInConstantTime('abc', 'abd')).toBe(false)
    expect(sameInConstantTime('abc', 'abcd')).toBe(false)
  })

  it('formats an Authorization header that reads back to the same parameters', () => {
    const parameters = [
      ['oauth_callback', 'http://127.0.0.1:5000/cb?x=1'],
      ['oauth_nonce', "a b&c'"],
    ] as const
    expect(formatAuthorizationHeader(parameters)).toBe(
      'OAuth oauth_callback="http%3A%2F%2F127.0.0.1%3A5000%2Fcb%3Fx%3D1", oauth_nonce="a%20b%26c%27"',
    )
    expect(parseAuthorizationHeader(formatAuthorizationHeader(parameters))).toEqual(parameters)
  })
})

describe('createOAuthHeader (the client side)', () => {
  const photos = {
    consumerKey: 'dpf43f3p2l4k3l03',
    consumerSecret: 'kd94hf93k423kf44',
    token: { key: 'nnch734d00sl2jdk', secret: 'pfkkdhi9sl3r4s00' },
  }

  it('signs RFC 5849’s example request (§1.2) to the signature the RFC gives', () => {
    const header = createOAuthHeader({ method: 'GET', url: 'http://photos.example.net/photos?file=vacation.jpg&size=original' }, photos, {
      now: new Date(137131202 * 1000),
      nonce: 'chapoH',
    })
    const sent = new Map(parseAuthorizationHeader(header))
    expect(sent.get('oauth_signature')).toBe('MdpQcU8iPSUjWoN/UDMsK2sui9I=')
    expect([...sent.keys()].sort()).toEqual(
      ['oauth_consumer_key', 'oauth_nonce', 'oauth_signature', 'oauth_signature_method', 'oauth_timestamp', 'oauth_token'],
    )
  })

  it('agrees with the oauth-1.0a client library on a POST with a form body, a callback and awkward characters', () => {
    const credentials = { consumerKey: 'key with spaces', consumerSecret: "s3cr&t!*'()", token: { key: 'tok~en', secret: 'tök&en secret' } }
    const url = 'http://127.0.0.1:4321/users/6p0123/events.json?max-results=5&q=%C3%A9t%C3%A9%20%E2%98%80'
    const form = [['title', "Quelqu'un m'a dit (ça) *"], ['empty', '']] as const
    const header = createOAuthHeader({ method: 'POST', url, form }, credentials, {
      protocolParameters: { oauth_callback: 'http://127.0.0.1:9/cb' },
      now: new Date(1_700_000_000_000),
      nonce: 'n0nce',
    })

    const library = new OAuth({
      consumer: { key: credentials.consumerKey, secret: credentials.consumerSecret },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    })
    library.getTimeStamp = () => 1_700_000_000
    library.getNonce = () => 'n0nce'
    // The library always adds oauth_version; the RFC leaves it optional and Blogdesk leaves it out.
    library.getSignature = (request, tokenSecret, parameters) => {
      const { oauth_version: _version, ...rest } = parameters
      return OAuth.prototype.getSignature.call(library, request, tokenSecret, rest as typeof parameters)
    }
    const expected = library.authorize(
      { url, method: 'POST', data: { ...Object.fromEntries(form), oauth_callback: 'http://127.0.0.1:9/cb' } },
      credentials.token,
    )
    expect(new Map(parseAuthorizationHeader(header)).get('oauth_signature')).toBe(expected.oauth_signature)
  })

  it('signs with PLAINTEXT, and without a token when it has none', () => {
    const header = createOAuthHeader({ method: 'POST', url: 'http://127.0.0.1/oauth/request_token' }, { ...photos, token: null }, {
      signatureMethod: 'PLAINTEXT',
    })
    const sent = new Map(parseAuthorizationHeader(header))
    expect(sent.get('oauth_signature')).toBe('kd94hf93k423kf44&')
    expect(sent.has('oauth_token')).toBe(false)
  })

  it('makes a fresh nonce and the current timestamp for every request', () => {
    const sign = () => new Map(parseAuthorizationHeader(createOAuthHeader({ method: 'GET', url: 'http://127.0.0.1/x' }, photos)))
    const [first, second] = [sign(), sign()]
    expect(first.get('oauth_nonce')).not.toBe(second.get('oauth_nonce'))
    expect(Math.abs(Number(first.get('oauth_timestamp')) - Date.now() / 1000)).toBeLessThan(5)
  })
})
