// UploadURI over real HTTP: files of any type stored for a weblog's site, their names checked and de-duplicated,
// served back as they were sent; and every refusal, leaving nothing behind.
import { readdirSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE, readEntry, type AtomEntry } from '../../src-protocol'
import { readFixture } from '../../src-protocol/test-fixtures'
import { expectError, filesUnder, ivy, melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const DOT_GIF = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='

function uploadXml(title: string, base64 = DOT_GIF, type: string | null = 'image/gif'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<entry xmlns="http://purl.org/atom/ns#">
  <title>${title}</title>
  <content mode="base64"${type === null ? '' : ` type="${type}"`}>${base64}</content>
</entry>`
}

/** GET with the path sent exactly as written (fetch would resolve "..", even percent-encoded). */
function rawGet(origin: string, path: string): Promise<number> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    request({ hostname, port, path }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
      .on('error', reject)
      .end()
  })
}

describe('UploadURI', () => {
  let service: ServiceFixture
  let uploadUri: string
  beforeAll(async () => {
    service = await startTestService([melody, ivy])
    uploadUri = `${service.origin}/t/atom/weblog/blog_id=1/svc=upload`
  })
  afterAll(() => service.dispose())

  const upload = (xml: string, url = uploadUri, as = melody, headers?: Record<string, string>) =>
    signedRequest(url, as, { method: 'POST', body: xml, ...(headers ? { headers } : {}) })
  const uploaded = async (xml: string, url = uploadUri): Promise<{ location: string; entry: AtomEntry }> => {
    const response = await upload(xml, url)
    const body = await response.text()
    expect({ status: response.status, body }).toMatchObject({ status: 201 })
    expect(response.headers.get('content-type')).toMatch(ATOM_MEDIA_TYPE)
    return { location: response.headers.get('location')!, entry: readEntry(body) }
  }
  const storedFiles = () => readdirSync(join(service.dataDir, 'media'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())

  it("stores the file and answers 201 with an entry whose alternate link is the file's public URL", async () => {
    const { location, entry } = await uploaded(uploadXml('dot.gif'))
    const url = `${service.origin}/media/blogs/valse-de-melody/dot.gif`
    expect(location).toBe(url)
    expect(entry.title).toBe('dot.gif')
    expect(entry.links).toEqual([{ rel: 'alternate', href: url, type: 'image/gif', title: 'dot.gif' }])
    expect(entry.id).toMatch(/^tag:127\.0\.0\.1,\d{4}:upload-\d+$/)
    expect(entry.content).toBeNull()

    const file = await fetch(url)
    expect(file.status).toBe(200)
    expect(Object.fromEntries(file.headers)).toMatchObject({
      'content-type': 'image/gif',
      'content-length': '43',
      'x-content-type-options': 'nosniff',
      'cache-control': expect.stringMatching(/^public, max-age=\d+$/),
      'content-security-policy': expect.stringMatching(/sandbox/),
    })
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(DOT_GIF, 'base64'))).toBe(true)
  })

  it('never replaces a file: a name in use gets _1, _2 … before its extension', async () => {
    const names = []
    for (let round = 0; round < 3; round++) names.push((await uploaded(uploadXml('again.gif'))).entry.title)
    expect(names).toEqual(['again.gif', 'again_1.gif', 'again_2.gif'])
    expect((await uploaded(uploadXml('LICENSE', 'TUlU', 'text/plain'))).entry.title).toBe('LICENSE')
    expect((await uploaded(uploadXml('LICENSE', 'TUlU', 'text/plain'))).entry.title).toBe('LICENSE_1')
    // Names are per weblog: the second weblog has its own dot.gif.
    const other = await uploaded(uploadXml('dot.gif'), `${service.origin}/t/atom/weblog/blog_id=2/svc=upload`)
    expect(other.location).toBe(`${service.origin}/media/blogs/hotel-particulier/dot.gif`)
  })

  it('gives files of one name uploaded at once names of their own, one each', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => uploaded(uploadXml('together.gif'))))
    const names = answers.map((answer) => answer.entry.title)
    expect(new Set(names).size).toBe(6)
    expect(names.every((name) => /^together(_\d)?\.gif$/.test(name ?? ''))).toBe(true)
  })

  it('takes any media type and serves it back with that type, sandboxed so an HTML file runs no script here', async () => {
    const html = Buffer.from('<script>alert(document.cookie)</script>').toString('base64')
    const { location } = await uploaded(uploadXml('page.html', html, 'text/html; charset=UTF-8'))
    const served = await fetch(location)
    expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(served.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/)
    const pdf = await uploaded(uploadXml('paper.pdf', Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'), 'application/pdf'))
    expect((await fetch(pdf.location)).headers.get('content-type')).toBe('application/pdf')
    // Names of any script, escaped in the URL.
    const unicode = await uploaded(uploadXml('café menu.gif'))
    expect(unicode.location).toBe(`${service.origin}/media/blogs/valse-de-melody/caf%C3%A9%20menu.gif`)
    expect((await fetch(unicode.location)).status).toBe(200)
  })

  it('accepts the documents real clients send (fixtures), deciding on their content', async () => {
    // A Lifeblog-style photo upload with its extra TypePad element.
    const lifeblog = await uploaded(readFixture('atom03/written/photo-base64-standalone.xml'))
    expect(lifeblog.entry.title).toBe('tram-0412.jpg')
    const photo = Buffer.from(await (await fetch(lifeblog.location)).arrayBuffer())
    expect(photo.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))

    // An upload shaped as the Atomizer client sends it: with a placeholder instead of base64, refused as such…
    const sent = readFixture('atom03/written/upload-service-entry.xml')
    const placeholder = sent.replace(/(<content[^>]*>)[^<]*/, '$1/9j/4AAQ...BASE64...')
    await expectError(await upload(placeholder), 400, /not valid base64: it holds the character "\."/)
    // …and accepted as sent, with its photo.
    const { entry } = await uploaded(sent)
    expect(entry.title).toBe('menu-board.jpg')
    expect(entry.links[0]).toMatchObject({ type: 'image/jpeg' })
  })

  it('refuses bad names, missing or malformed types, empty content and other modes, leaving nothing behind', async () => {
    const before = storedFiles().length
    await expectError(await upload(uploadXml('')), 400, /file name is empty/)
    await expectError(await upload(uploadXml('../escape.gif')), 400, /contains a slash/)
    await expectError(await upload(uploadXml('..\\escape.gif')), 400, /contains a slash/)
    await expectError(await upload(uploadXml('..')), 400, /contains "\.\."/)
    await expectError(await upload(uploadXml('a&#9;b.gif')), 400, /control or invisible characters/)
    await expectError(await upload(uploadXml('evil\u202egpj.exe')), 400, /control or invisible characters/)
    await expectError(await upload(uploadXml('.htaccess')), 400, /starts with a dot/)
    await expectError(await upload(uploadXml('a&#0;b.gif')), 400, /not well-formed|not allowed|character/i)
    await expectError(await upload(uploadXml('typeless.gif', DOT_GIF, null)), 400, /has no type/)
    await expectError(await upload(uploadXml('bad.gif', DOT_GIF, 'image/gif&#13;&#10;Set-Cookie: x=1')), 400, /is not a media type/)
    await expectError(await upload(uploadXml('empty.gif', '')), 400, /<content> is empty/)
    await expectError(
      await upload('<entry xmlns="http://purl.org/atom/ns#"><title>t.txt</title><content mode="escaped" type="text/plain">hi</content></entry>'),
      400,
      /mode="escaped", but a file is sent as base64/,
    )
    await expectError(await upload('<entry xmlns="http://purl.org/atom/ns#"><title>t.txt</title></entry>'), 400, /has no <content>/)
    await expectError(await upload(uploadXml('cut.gif', DOT_GIF.slice(0, -3))), 400, /truncated/)
    await expectError(await upload(uploadXml('dot.gif').replace('</content>', '')), 400, /not well-formed|ends inside/)
    await expectError(await upload(uploadXml('x.gif'), uploadUri, melody, { 'Content-Type': 'image/gif' }), 415, /Atom entry/)
    expect(storedFiles()).toHaveLength(before)
    expect(filesUnder(join(service.dataDir, 'media', 'incoming'))).toEqual([])
  })

  it("refuses another user's weblog (403) and unknown ones (404), and unsigned requests (401)", async () => {
    await expectError(await upload(uploadXml('x.gif'), `${service.origin}/t/atom/weblog/blog_id=3/svc=upload`), 403, /belongs to another user/)
    await expectError(await upload(uploadXml('x.gif'), `${service.origin}/t/atom/weblog/blog_id=99/svc=upload`), 404, /no weblog 99/)
    await expectError(await upload(uploadXml('x.gif'), `${service.origin}/t/atom/weblog/blog_id=x/svc=upload`), 404, /no weblog x/)
    const unsigned = await fetch(uploadUri, { method: 'POST', body: uploadXml('x.gif'), headers: { 'Content-Type': ATOM_MEDIA_TYPE } })
    expect(unsigned.status).toBe(401)
    const get = await signedRequest(uploadUri, melody)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
  })

  it('answers a repeated Idempotency-Key with the first answer instead of a second file', async () => {
    const headers = { 'Idempotency-Key': 'upload-once-1' }
    const first = await upload(uploadXml('once.gif'), uploadUri, melody, headers)
    const second = await upload(uploadXml('once.gif'), uploadUri, melody, headers)
    expect([first.status, second.status]).toEqual([201, 201])
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(await second.text()).toBe(await first.text())
    expect((await fetch(`${service.origin}/media/blogs/valse-de-melody/once_1.gif`)).status).toBe(404)
  })

  it('keeps no received file when the Idempotency-Key is refused after the file arrived', async () => {
    const headers = { 'Idempotency-Key': 'upload-once-2' }
    expect((await upload(uploadXml('first.gif'), uploadUri, melody, headers)).status).toBe(201)
    const reused = await upload(uploadXml('other.gif'), uploadUri, melody, headers)
    expect(reused.status).toBe(422)
    const malformed = await upload(uploadXml('third.gif'), uploadUri, melody, { 'Idempotency-Key': ' ' })
    expect(malformed.status).toBe(400)
    expect(filesUnder(join(service.dataDir, 'media', 'incoming'))).toEqual([])
  })

  it('serves files by what the database names: no address reaches outside the media folder', async () => {
    for (const path of [
      '/media/blogs/valse-de-melody/..%2F..%2Fservice.sqlite',
      '/media/blogs/valse-de-melody/../../service.sqlite',
      '/media/blogs/..%2F..%2F/secret.key',
      '/media/blogs/valse-de-melody/%2E%2E%2Fsecret.key',
      '/media/blogs/cargo-culte/dot.gif',
      '/media/blogs/valse-de-melody/DOT.GIF',
    ]) {
      expect(await rawGet(service.origin, path), path).toBe(404)
    }
  })
})
