// Album and list feeds over real HTTP (docs/PROTOCOL.md, "Album and list feeds"): the `service.feed` link of each
// album and list leads to its photos or items, newest first, 20 a page with prev/next, behind WSSE.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE, NS, readFeed, readLinkFeed, type AtomEntry, type AtomFeed } from '../../src-protocol'
import { DEMO_PHOTOS_FOLDER } from '../demo/photos'
import type { Store } from '../store'
import { numberedPhoto } from '../testing/numbered-photos'
import { expectError, ivy, melody, signedGet, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

/** Melody's album 1 holds 25 photos, albums 2 and 4 none; her list 1 holds books; Ivy owns album 3 and list 2. */
async function arrange(store: Store): Promise<void> {
  const [melodyId, ivyId] = [(await store.users.find('melody'))!.id, (await store.users.find('ivy'))!.id]
  const album = await store.albums.add(melodyId, 'Lisbon')
  await store.albums.add(melodyId, 'Empty')
  await store.albums.add(ivyId, 'Cargo')
  await store.albums.add(melodyId, 'Still empty')
  for (let index = 1; index <= 25; index++) await store.photos.add(album.id, numberedPhoto(index, `Caption ${index}`), '2026-03-01T00:00:00Z')
  const books = await store.lists.add({ ownerId: melodyId, title: 'On the desk', type: 'books' })
  await store.lists.add({ ownerId: ivyId, title: 'Ivy’s books', type: 'books' })
  await store.lists.addItem(
    { listId: books.id, fields: { title: 'Dune', author: 'Frank Herbert' }, rating: 5, notes: null, issued: '2026-01-01T00:00:00Z' },
    '2026-01-01T00:00:00Z',
  )
  await store.lists.addItem(
    { listId: books.id, fields: { isbn: '9780140449136' }, rating: null, notes: { format: 'text', value: 'Re-read' }, issued: '2026-01-02T00:00:00Z' },
    '2026-01-02T00:00:00Z',
  )
}

const photoField = (entry: AtomEntry, name: string) =>
  entry.extensions.find((element) => element.ns === NS.photo && element.name === name)?.text ?? null
const linked = (feed: AtomFeed, rel: string) => feed.links.find((link) => link.rel === rel)?.href ?? null

describe('album and list feeds', () => {
  let service: ServiceFixture
  beforeAll(async () => {
    service = await startTestService([melody, ivy], arrange)
  })
  afterAll(() => service.dispose())

  const feedOf = async (url: string, as = melody): Promise<AtomFeed> => {
    const response = await signedGet(url, as)
    const body = await response.text()
    expect({ status: response.status, body }).toMatchObject({ status: 200 })
    expect(response.headers.get('content-type')).toMatch(ATOM_MEDIA_TYPE)
    return readFeed(body, { baseUrl: url })
  }
  const feedLinkOf = async (root: string, title: string): Promise<string> => {
    const links = readLinkFeed(await (await signedGet(`${service.origin}${root}`, melody)).text(), service.origin)
    return links.find((link) => link.rel === 'service.feed' && link.title === title)!.href
  }

  it("an album's feed lists its photos newest first, 20 a page, following next and prev", async () => {
    const first = await feedOf(await feedLinkOf('/t/atom/gallery', 'Lisbon'))
    expect(first.title).toBe('Lisbon')
    expect(first.entries.map((entry) => entry.title)).toEqual(Array.from({ length: 20 }, (_, index) => `Photo ${25 - index}`))
    expect(linked(first, 'prev')).toBeNull()
    const second = await feedOf(linked(first, 'next')!)
    expect(second.entries.map((entry) => entry.title)).toEqual(['Photo 5', 'Photo 4', 'Photo 3', 'Photo 2', 'Photo 1'])
    expect(linked(second, 'next')).toBeNull()
    expect(linked(second, 'prev')).toBe(`${service.origin}/t/atom/gallery/set_id=1`)
    expect(linked(second, 'alternate')).toBe(`${service.origin}/albums/1/`)
  })

  it('each photo has its title, summary, thumbnail, taken date and a link to its page, which open', async () => {
    const [newest] = (await feedOf(`${service.origin}/t/atom/gallery/set_id=1`)).entries
    expect(newest).toMatchObject({ title: 'Photo 25', summary: 'Caption 25', issued: '2026-02-25T10:00:00Z' })
    expect(photoField(newest!, 'taken')).toBe('2026-01-25T10:00:00Z')
    expect(photoField(newest!, 'thumbnail')).toBe(`${service.origin}/media/thumbnails/25.jpg`)
    const page = newest!.links.find((link) => link.rel === 'alternate')!
    expect(page).toMatchObject({ type: 'text/html', title: 'Photo 25' })
    expect((await fetch(page.href)).status).toBe(200)
  })

  it('a photo POSTed to the album is at the top of its feed', async () => {
    const photo = readFileSync(join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg')).toString('base64')
    const album = `${service.origin}/t/atom/gallery/set_id=2`
    const body = `<entry xmlns="http://purl.org/atom/ns#"><title>Tram</title><content mode="base64" type="image/jpeg">${photo}</content></entry>`
    expect((await signedRequest(album, melody, { method: 'POST', body })).status).toBe(201)
    const feed = await feedOf(album)
    expect(feed.entries.map((entry) => entry.title)).toEqual(['Tram'])
    expect((await fetch(photoField(feed.entries[0]!, 'thumbnail')!)).headers.get('content-type')).toBe('image/jpeg')
  })

  it("a list's feed lists its items newest first with the type's elements", async () => {
    const feed = await feedOf(await feedLinkOf('/t/atom/lists', 'On the desk'))
    expect(feed.entries.map((entry) => entry.title)).toEqual([expect.stringMatching(/9780140449136|Homer|Odyssey/), 'Frank Herbert: Dune'])
    const dune = feed.entries[1]!
    const elements = Object.fromEntries(dune.extensions.map((element) => [`${element.ns} ${element.name}`, element.text]))
    expect(elements).toMatchObject({ [`${NS.book} title`]: 'Dune', [`${NS.book} author`]: 'Frank Herbert', [`${NS.rvw} value`]: '5' })
    expect(feed.entries[0]!.content?.value).toBe('Re-read')
    expect(dune.links.find((link) => link.rel === 'service.edit')?.href).toBe(`${service.origin}/t/atom/lists/list_id=1/entry_id=1`)
  })

  it('an empty album is an empty feed', async () => {
    const feed = await feedOf(`${service.origin}/t/atom/gallery/set_id=4`)
    expect(feed.entries).toEqual([])
    expect(linked(feed, 'next')).toBeNull()
  })

  it('refuses without WSSE (401), for another user (403), for none (404) and a bad offset (400)', async () => {
    expect((await fetch(`${service.origin}/t/atom/gallery/set_id=1`)).status).toBe(401)
    await expectError(await signedGet(`${service.origin}/t/atom/gallery/set_id=1`, ivy), 403, /belongs to another user/)
    await expectError(await signedGet(`${service.origin}/t/atom/lists/list_id=1`, ivy), 403, /belongs to another user/)
    await expectError(await signedGet(`${service.origin}/t/atom/gallery/set_id=99`, melody), 404, /no photo album 99/)
    await expectError(await signedGet(`${service.origin}/t/atom/lists/list_id=1/offset=x`, melody), 400, /not a number of entries/)
  })
})

describe('a service started without collection feeds', () => {
  let service: ServiceFixture
  beforeAll(async () => {
    service = await startTestService([melody, ivy], arrange, undefined, { collectionFeeds: false })
  })
  afterAll(() => service.dispose())

  it('announces no service.feed and serves none, as other servers', async () => {
    for (const root of ['/t/atom/gallery', '/t/atom/lists']) {
      const links = readLinkFeed(await (await signedGet(`${service.origin}${root}`, melody)).text(), service.origin)
      expect(links.some((link) => link.rel === 'service.feed')).toBe(false)
    }
    expect((await signedGet(`${service.origin}/t/atom/gallery/set_id=1`, melody)).status).toBe(405)
  })
})
