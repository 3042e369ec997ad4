// The Atom codec's limits and encodings as a client meets them, over real HTTP: an element with thousands of
// attributes or an entry with thousands of categories is refused quickly with words, bodies are read in the
// encoding they declare (or refused naming it, never stored with U+FFFD), and every feed says version="0.3".
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NS, parseXml, readEntry } from '../../src-protocol'
import { expectError, melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const entry = (inside: string, declaration = '<?xml version="1.0" encoding="utf-8"?>') =>
  `${declaration}\n<entry xmlns="${NS.atom}" xmlns:dc="${NS.dc}">${inside}<content mode="escaped">Body</content></entry>`

describe('the Atom codec at the service’s door', () => {
  let service: ServiceFixture
  let feed: string
  beforeAll(async () => {
    service = await startTestService([melody])
    feed = `${service.origin}/t/atom/weblog/blog_id=1`
  })
  afterAll(() => service.dispose())

  const post = (body: string | Buffer) => signedRequest(feed, melody, { method: 'POST', body })
  const titleStored = async (response: Response): Promise<string | null> => {
    expect(response.status, await response.clone().text()).toBe(201)
    const stored = await signedRequest(response.headers.get('location') ?? '', melody)
    return readEntry(await stored.text()).title
  }

  it('answers 400 with the reason to an element with 20,000 attributes', async () => {
    const attributes = Array.from({ length: 20_000 }, (_, index) => ` a${index}="v"`).join('')
    await expectError(await post(entry(`<title${attributes}>Many</title>`)), 400, /more than 256 attributes/)
  })

  it('answers 400 with the reason to an entry with 10,000 dc:subjects', async () => {
    const subjects = Array.from({ length: 10_000 }, (_, index) => `<dc:subject>s${index}</dc:subject>`).join('')
    await expectError(await post(entry(`<title>Tags</title>${subjects}`)), 400, /more than 500 categories/)
  })

  it('reads a body in the ISO-8859-1 it declares', async () => {
    const latin1 = Buffer.from(entry('<title>Café crème</title>', '<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1')
    expect(latin1.includes(0xe9)).toBe(true)
    expect(await titleStored(await post(latin1))).toBe('Café crème')
  })

  it('reads a UTF-16 body with its byte order mark, little or big endian', async () => {
    const text = `\uFEFF${entry('<title>日本語 ünïcödé</title>', '<?xml version="1.0" encoding="UTF-16"?>')}`
    const littleEndian = Buffer.from(text, 'utf16le')
    expect(await titleStored(await post(littleEndian))).toBe('日本語 ünïcödé')
    expect(await titleStored(await post(Buffer.from(littleEndian).swap16()))).toBe('日本語 ünïcödé')
  })

  it('refuses bytes that are not UTF-8 in a UTF-8 body with 400, instead of storing U+FFFD', async () => {
    const body = Buffer.from(entry('<title>Café</title>'), 'latin1')
    await expectError(await post(body), 400, /not valid UTF-8/)
  })

  it('refuses an encoding it cannot read, naming it', async () => {
    await expectError(await post(entry('<title>x</title>', '<?xml version="1.0" encoding="x-klingon"?>')), 400, /"x-klingon"/)
  })

  it('writes version="0.3" on every feed: the weblog feed and the root listing', async () => {
    for (const url of [feed, `${service.origin}/t/atom/weblog`]) {
      const response = await signedRequest(url, melody)
      const body = await response.text()
      expect(response.status).toBe(200)
      expect(/<feed\b[^>]*\bversion="0\.3"/.test(body), url).toBe(true)
      expect(parseXml(body).attributes.version).toBe('0.3')
    }
  })
})
