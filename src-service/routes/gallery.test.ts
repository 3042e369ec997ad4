// Photo albums over real HTTP: the gallery root listing, photo POSTs with what EXIF and IPTC say, file names,
// thumbnails, public pages, and every refusal — after which no row and no file is left.
import { readdirSync, readFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE, createWsseHeader, NS, readEntry, readLinkFeed, type AtomEntry } from '../../src-protocol'
import { readFixture } from '../../src-protocol/test-fixtures'
import { DEMO_PHOTOS_FOLDER } from '../demo/photos'
import { expectError, filesUnder, ivy, melody, signedGet, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const demoPhoto = (file: string) => readFileSync(join(DEMO_PHOTOS_FOLDER, file))
const DOT_GIF = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='

/** A photo entry; `content` is the whole content element (null leaves it out). */
function photoXml({
  title = 'A photo' as string | null,
  photo = demoPhoto('tram-28.jpg') as Buffer | string,
  type = 'image/jpeg' as string | null,
  extra = '',
  content = null as string | null,
} = {}): string {
  const base64 = typeof photo === 'string' ? photo : photo.toString('base64').replace(/.{76}/g, '$&\n')
  const contentElement = content ?? `<content mode="base64"${type === null ? '' : ` type="${type}"`}>${base64}</content>`
  return `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#" xmlns:photo="http://sixapart.com/atom/photo#">
  ${title === null ? '' : `<title>${title}</title>`}
  ${extra}
  ${contentElement}
</entry>`
}

const photoField = (entry: AtomEntry, name: string) =>
  entry.extensions.find((element) => element.ns === NS.photo && element.name === name)?.text ?? null

/** Melody owns albums 1 and 2, Ivy album 3. */
describe('photo albums over Atom', () => {
  let service: ServiceFixture
  let album: string
  beforeAll(async () => {
    service = await startTestService([melody, ivy], async (store) => {
      const [melodyId, ivyId] = [(await store.users.find('melody'))!.id, (await store.users.find('ivy'))!.id]
      await store.albums.add(melodyId, 'Summer <in> Lisbon')
      await store.albums.add(melodyId, 'Empty')
      await store.albums.add(ivyId, 'Cargo')
    })
    album = `${service.origin}/t/atom/gallery/set_id=1`
  })
  afterAll(() => service.dispose())

  const post = (xml: string, url = album, headers?: Record<string, string>, as = melody) =>
    signedRequest(url, as, { method: 'POST', body: xml, ...(headers ? { headers } : {}) })
  const posted = async (xml: string, url = album): Promise<{ location: string; entry: AtomEntry; body: string }> => {
    const response = await post(xml, url)
    const body = await response.text()
    expect({ status: response.status, body }).toMatchObject({ status: 201 })
    expect(response.headers.get('content-type')).toMatch(ATOM_MEDIA_TYPE)
    return { location: response.headers.get('location')!, entry: readEntry(body), body }
  }
  const mediaFiles = () =>
    readdirSync(join(service.dataDir, 'media'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())

  describe('the gallery root', () => {
    it("lists each of the user's albums with its PostURI, feed and public page, and nobody else's", async () => {
      const response = await signedGet(`${service.origin}/t/atom/gallery`, melody)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(ATOM_MEDIA_TYPE)
      expect(readLinkFeed(await response.text(), service.origin)).toEqual([
        { rel: 'service.post', href: album, type: ATOM_MEDIA_TYPE, title: 'Summer <in> Lisbon' },
        { rel: 'service.feed', href: album, type: ATOM_MEDIA_TYPE, title: 'Summer <in> Lisbon' },
        { rel: 'alternate', href: `${service.origin}/albums/1/`, type: 'text/html', title: 'Summer <in> Lisbon' },
        { rel: 'service.post', href: `${service.origin}/t/atom/gallery/set_id=2`, type: ATOM_MEDIA_TYPE, title: 'Empty' },
        { rel: 'service.feed', href: `${service.origin}/t/atom/gallery/set_id=2`, type: ATOM_MEDIA_TYPE, title: 'Empty' },
        { rel: 'alternate', href: `${service.origin}/albums/2/`, type: 'text/html', title: 'Empty' },
      ])
      const ivys = readLinkFeed(await (await signedGet(`${service.origin}/t/atom/gallery`, ivy)).text(), service.origin)
      expect(ivys.map((link) => link.title)).toEqual(['Cargo', 'Cargo', 'Cargo'])
      expect((await fetch(`${service.origin}/t/atom/gallery`)).status).toBe(401)
    })
  })

  describe('photo POST', () => {
    it('answers 201 with the entry the spec lists, filled from EXIF and IPTC, without the photo', async () => {
      const original = demoPhoto('tram-28.jpg')
      const { location, entry, body } = await posted(photoXml({ title: 'Tram 28' }))
      expect(location).toMatch(new RegExp(`^${service.origin}/albums/1/\\d+$`))
      expect(entry).toMatchObject({
        title: 'Tram 28',
        summary: 'Tram 28 climbing towards Graca', // EXIF ImageDescription
        content: null,
        id: expect.stringMatching(/^tag:127\.0\.0\.1,\d{4}:photo-\d+$/),
        links: [{ rel: 'alternate', href: location, type: 'text/html', title: 'Tram 28' }],
      })
      expect(Date.now() - Date.parse(entry.issued!)).toBeLessThan(60_000)
      expect(photoField(entry, 'taken')).toBe('2024-07-15T10:12:44Z') // EXIF DateTimeOriginal
      expect(photoField(entry, 'location')).toBe('Lisbon, Portugal') // IPTC city and country
      expect(photoField(entry, 'filename')).toBe('tram-28.jpg') // from the title
      expect(body.length).toBeLessThan(2000) // the original is not echoed

      const thumbnailUrl = photoField(entry, 'thumbnail')!
      expect(thumbnailUrl).toMatch(new RegExp(`^${service.origin}/media/thumbnails/\\d+\\.jpg$`))
      const thumbnail = await fetch(thumbnailUrl)
      expect(Object.fromEntries(thumbnail.headers)).toMatchObject({ 'content-type': 'image/jpeg', 'x-content-type-options': 'nosniff' })
      const thumbnailBytes = Buffer.from(await thumbnail.arrayBuffer())
      expect(thumbnailBytes.length).toBeLessThan(original.length)
      const thumbnailInfo = await sharp(thumbnailBytes).metadata()
      expect(thumbnailInfo).toMatchObject({ format: 'jpeg', width: 320, height: 213 })
      expect(thumbnailInfo.exif).toBeUndefined() // no GPS position leaks through a thumbnail

      const stored = await fetch(`${service.origin}/media/photos/${location.split('/').at(-1)}/tram-28.jpg`)
      expect(stored.headers.get('content-type')).toBe('image/jpeg')
      expect(stored.headers.get('content-length')).toBe(String(original.length))
      expect(Buffer.from(await stored.arrayBuffer()).equals(original)).toBe(true)
    })

    it('prefers an IPTC caption to the EXIF description, and writes a GPS position when no place is named', async () => {
      const azulejos = (await posted(photoXml({ title: 'Tiles', photo: demoPhoto('azulejos.jpg') }))).entry
      expect(azulejos.summary).toBe('Hand-painted tiles on a house near the Miradouro de Santa Luzia')
      const sunset = (await posted(photoXml({ title: 'Sunset', photo: demoPhoto('tagus-sunset.jpg') }))).entry
      expect(photoField(sunset, 'location')).toBe('38.7056° N, 9.1450° W')
      const pastries = (await posted(photoXml({ title: 'Pastries', photo: demoPhoto('belem-pastries.jpg') }))).entry
      expect(photoField(pastries, 'location')).toBeNull() // no position, no place: nothing is made up
      expect(photoField(pastries, 'taken')).toBe('2024-07-18T09:05:30Z')
    })

    it("keeps what the client sent over what the file says, dates made UTC", async () => {
      const extra = `<summary>My caption</summary><photo:location>Graça</photo:location>
        <photo:taken>2024-07-15T12:00:00+02:00</photo:taken><issued>2024-07-20T08:00:00-01:00</issued>
        <photo:filename>My Tram.JPG</photo:filename>`
      const { entry, location } = await posted(photoXml({ title: 'Tram', extra }))
      expect(entry.summary).toBe('My caption')
      expect(entry.issued).toBe('2024-07-20T09:00:00Z')
      expect(photoField(entry, 'location')).toBe('Graça')
      expect(photoField(entry, 'taken')).toBe('2024-07-15T10:00:00Z')
      expect(photoField(entry, 'filename')).toBe('My Tram.JPG')
      expect((await fetch(`${service.origin}/media/photos/${location.split('/').at(-1)}/My%20Tram.JPG`)).status).toBe(200)
    })

    it('derives the file name from the title and the type, and needs the type only when no file name is sent', async () => {
      const png = await sharp(demoPhoto('tram-28.jpg')).resize(64).png().toBuffer()
      const derived = (await posted(photoXml({ title: 'Tram 28 at Graça', photo: png, type: 'image/png' }))).entry
      expect(photoField(derived, 'filename')).toBe('tram-28-at-graca.png')
      const named = (await posted(photoXml({ title: 'Named', type: null, extra: '<photo:filename>named.jpg</photo:filename>' }))).entry
      expect(photoField(named, 'filename')).toBe('named.jpg')
      await expectError(await post(photoXml({ title: 'No type', type: null })), 400, /neither a <photo:filename> nor a type/)
    })

    it('accepts every image type it can read, small or large, and JPEG aliases', async () => {
      const webp = await sharp(demoPhoto('alfama-rooftops.jpg')).resize(200).webp().toBuffer()
      expect(photoField((await posted(photoXml({ title: 'WebP', photo: webp, type: 'image/webp' }))).entry, 'filename')).toBe('webp.webp')
      const gif = (await posted(photoXml({ title: 'dot', photo: DOT_GIF, type: 'image/gif' }))).entry
      const thumbnail = await sharp(Buffer.from(await (await fetch(photoField(gif, 'thumbnail')!)).arrayBuffer())).metadata()
      expect(thumbnail).toMatchObject({ format: 'jpeg', width: 1, height: 1 }) // never enlarged
      expect((await posted(photoXml({ title: 'jpg', type: 'image/jpg' }))).entry.title).toBe('jpg')
    })

    it('refuses a type that does not match the data (400), data that is no photo (415), and HEIC it cannot read', async () => {
      await expectError(await post(photoXml({ type: 'image/png' })), 400, /says it is image\/png, but the data is a JPEG image/)
      const text = Buffer.from('Just some text, not a photo at all.')
      await expectError(await post(photoXml({ photo: text })), 415, /not a photo this service knows: send JPEG, PNG, GIF, WebP or AVIF/)
      await expectError(await post(photoXml({ photo: text, type: 'text/plain' })), 415, /not a photo/)
      const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic'), Buffer.alloc(100)])
      await expectError(await post(photoXml({ photo: heic, type: 'image/heic' })), 415, /cannot read HEIC photos/)
    })

    it('refuses damaged data, bad elements and other content, leaving no row and no file behind', async () => {
      const filesBefore = mediaFiles().length
      const pageBefore = await (await fetch(`${service.origin}/albums/1/`)).text()
      const tram = demoPhoto('tram-28.jpg')
      const base64 = tram.toString('base64')
      await expectError(await post(photoXml({ photo: base64.slice(0, 4001) })), 400, /truncated/)
      await expectError(await post(photoXml({ photo: base64.slice(0, 4000) })), 400, /could not be read as JPEG: it is damaged or incomplete/)
      await expectError(await post(photoXml({ photo: `${base64.slice(0, 100)}!${base64.slice(100)}` })), 400, /not valid base64/)
      await expectError(await post(photoXml().replace('</content>', '')), 400, /not well-formed|ends inside/)
      await expectError(await post(photoXml({ title: null })), 400, /has no title/)
      await expectError(await post(photoXml({ title: '  ' })), 400, /has no title/)
      await expectError(await post(photoXml({ content: '' })), 400, /has no <content>/)
      await expectError(await post(photoXml({ content: '<content mode="base64" type="image/jpeg"/>' })), 400, /<content> is empty/)
      await expectError(
        await post(photoXml({ content: '<content mode="xml"><div xmlns="http://www.w3.org/1999/xhtml">x</div></content>' })),
        400,
        /holds markup/,
      )
      await expectError(await post(photoXml({ extra: '<photo:taken>last summer</photo:taken>' })), 400, /<photo:taken> "last summer" is not a date/)
      await expectError(await post(photoXml({ extra: '<issued>soon</issued>' })), 400, /<issued> "soon" is not a date/)
      await expectError(await post(photoXml({ extra: '<photo:filename>../up.jpg</photo:filename>' })), 400, /contains a slash/)
      await expectError(await post(`<!DOCTYPE entry [<!ENTITY x "y">]>${photoXml().replace(/^<\?xml[^>]*>/, '')}`), 400, /DOCTYPE/)
      await expectError(await post(photoXml().replace('http://purl.org/atom/ns#', 'http://example.com/not-atom')), 400, /Expected an Atom entry/)
      await expectError(await post(photoXml(), album, { 'Content-Type': 'image/jpeg' }), 415, /Atom entry/)
      expect(mediaFiles()).toHaveLength(filesBefore)
      expect(filesUnder(join(service.dataDir, 'media', 'incoming'))).toEqual([])
      expect(await (await fetch(`${service.origin}/albums/1/`)).text()).toBe(pageBefore)
    })

    it('answers a refusal before the body is read, and keeps the connection usable for the next request', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      const send = (body: string) =>
        new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
          const outgoing = httpRequest(album, {
            method: 'POST',
            agent,
            headers: { 'Content-Type': ATOM_MEDIA_TYPE, 'X-WSSE': createWsseHeader(melody), 'Content-Length': Buffer.byteLength(body) },
          })
          outgoing.on('response', (response) => response.resume().on('end', () => resolve({ status: response.statusCode!, socket: outgoing.socket })))
          outgoing.on('error', reject)
          outgoing.end(body)
        })
      try {
        // Two contents: refused as soon as the second starts, with a megabyte still to come.
        const twoContents = photoXml({ content: `<content mode="base64">QUJD</content><content mode="base64">${'QUJD'.repeat(256 * 1024)}</content>` })
        const refused = await send(twoContents)
        const next = await send(photoXml({ title: 'After a refusal' }))
        expect([refused.status, next.status]).toEqual([400, 201])
        expect(next.socket).toBe(refused.socket)
      } finally {
        agent.destroy()
      }
    })

    it("refuses another user's album (403), unknown ones (404), and other methods (405)", async () => {
      await expectError(await post(photoXml(), `${service.origin}/t/atom/gallery/set_id=3`), 403, /belongs to another user/)
      await expectError(await post(photoXml(), `${service.origin}/t/atom/gallery/set_id=42`), 404, /no photo album 42/)
      await expectError(await post(photoXml(), `${service.origin}/t/atom/gallery/set_id=-1`), 404, /no photo album/)
      const put = await signedRequest(album, melody, { method: 'PUT', body: photoXml() })
      expect(put.status).toBe(405)
      expect(put.headers.get('allow')).toBe('POST, GET, HEAD')
    })

    it('answers a repeated Idempotency-Key with the first answer instead of a second photo', async () => {
      const headers = { 'Idempotency-Key': 'photo-once' }
      const first = await post(photoXml({ title: 'Once' }), album, headers)
      const again = await post(photoXml({ title: 'Once' }), album, headers)
      expect([first.status, again.status]).toEqual([201, 201])
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(await again.text()).toBe(await first.text())
      const changed = await post(photoXml({ title: 'Once more' }), album, headers)
      expect(changed.status).toBe(422)
    })
  })

  describe('documents real clients send', () => {
    it('accepts a photo entry shaped as the Atomizer client sends it, with all its elements; a placeholder is refused', async () => {
      const sent = readFixture('atom03/written/gallery-photo-entry.xml')
      const placeholder = sent.replace(/(<content[^>]*>)[^<]*/, '$1/9j/4AAQ...BASE64...')
      await expectError(await post(placeholder), 400, /not valid base64: it holds the character "\."/)
      const { entry } = await posted(sent)
      expect(entry).toMatchObject({
        title: 'Tram 28 on the hill',
        summary: 'The yellow tram on its way up to the castle',
        issued: '2025-05-02T21:00:00Z',
      })
      expect(photoField(entry, 'filename')).toBe('tram-28.jpg')
      expect(photoField(entry, 'location')).toBe('Graça, Lisbon')
      expect(photoField(entry, 'taken')).toBe('2025-05-02T20:41:00Z')
    })

    it('accepts a Lifeblog-style standalone photo upload as it is sent', async () => {
      const { entry } = await posted(readFixture('atom03/written/photo-base64-standalone.xml'))
      expect(entry.title).toBe('tram-0412.jpg')
      expect(photoField(entry, 'filename')).toBe('tram-0412.jpg')
      const thumbnail = await sharp(Buffer.from(await (await fetch(photoField(entry, 'thumbnail')!)).arrayBuffer())).metadata()
      expect(thumbnail).toMatchObject({ width: 150, height: 200 })
    })
  })

  describe('public pages', () => {
    it('shows the album as a grid of thumbnails, and each photo with its caption, date, place and camera', async () => {
      const { location } = await posted(photoXml({ title: 'Tram &lt;28&gt; &amp; co', photo: demoPhoto('tram-28.jpg') }))
      const photoId = location.split('/').at(-1)
      const albumPage = await fetch(`${service.origin}/albums/1/`)
      expect(albumPage.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(albumPage.headers.get('content-security-policy')).toMatch(/default-src 'none'/)
      const albumHtml = await albumPage.text()
      expect(albumHtml).toContain('<h1>Summer &lt;in&gt; Lisbon</h1>')
      expect(albumHtml).toContain(`<img src="/media/thumbnails/${photoId}.jpg" width="320" height="213" alt="Tram &lt;28&gt; &amp; co">`)
      expect(albumHtml).toMatch(/\d+ photos by Melody Nelson/)

      const photoPage = await fetch(location)
      expect(photoPage.status).toBe(200)
      const html = await photoPage.text()
      expect(html).toContain('<h1>Tram &lt;28&gt; &amp; co</h1>')
      expect(html).toContain('<figcaption>Tram 28 climbing towards Graca</figcaption>')
      expect(html).toContain('<time datetime="2024-07-15T10:12:44Z">15 July 2024 at 10:12</time>')
      expect(html).toContain('Lisbon, Portugal (<a href="https://www.openstreetmap.org/?mlat=38.71633&amp;mlon=-9.13103')
      expect(html).toContain('<dd>Blogdesk Sandbox Camera</dd>')
      expect(html).toContain('<dd>tram, Lisbon, Graça</dd>') // IPTC keywords, UTF-8
      expect(html).toContain(`<img src="/media/photos/${photoId}/tram-28-co.jpg" width="1200" height="800"`)

      expect((await fetch(`${service.origin}/albums/2/`)).status).toBe(200)
      for (const missing of ['/albums/99/', `/albums/2/${photoId}`, '/albums/1/999', '/albums/x/', `/media/photos/${photoId}/other.jpg`, '/media/thumbnails/999.jpg']) {
        expect((await fetch(`${service.origin}${missing}`)).status, missing).toBe(404)
      }
    })
  })

  // Last: looking into the store restarts the service, which drops the client's pooled connections.
  describe('events', () => {
    it('records a NewAsset event for each photo, in the transaction that stores it', async () => {
      const { location } = await posted(photoXml({ title: 'Eventful' }))
      const photoId = Number(location.split('/').at(-1))
      const { events, photoIds } = await service.withStore(async (store) => ({
        events: (await store.events.streamPage((await store.users.find('melody'))!.id, null, 1000)).filter((event) => event.objectType === 'Photo'),
        photoIds: [...(await store.photos.inAlbum(1)), ...(await store.photos.inAlbum(2))].map((photo) => photo.id),
      }))
      expect(events.filter((event) => event.objectId === photoId)).toEqual([
        expect.objectContaining({ actorId: expect.any(Number), verb: 'NewAsset', objectType: 'Photo', objectId: photoId }),
      ])
      // One event per stored photo: the refused requests above left neither.
      expect(events.map((event) => event.objectId).sort((a, b) => a - b)).toEqual(photoIds.sort((a, b) => a - b))
    })
  })
})
