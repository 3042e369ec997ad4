// What albums and lists hold, read by a real core over HTTP from the real service's `service.feed` of each (an
// extension), every page, cached in the core's SQLite file and shown offline; and from a service without those
// feeds, what Blogdesk sent.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CoreHandlers } from '../../../src-shared/contract'
import type { Store } from '../../../src-service/store'
import { numberedPhoto } from '../../../src-service/testing/numbered-photos'
import { melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import type { Core } from '..'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'

const PHOTOS = 45

async function arrange(store: Store): Promise<void> {
  const owner = (await store.users.find('melody'))!.id
  const album = await store.albums.add(owner, 'Lisbon')
  for (let index = 1; index <= PHOTOS; index++) {
    await store.photos.add(album.id, numberedPhoto(index, index === PHOTOS ? 'The newest' : null), '2026-04-01T00:00:00Z')
  }
  const books = await store.lists.add({ ownerId: owner, title: 'On the desk', type: 'books' })
  await store.lists.addItem(
    { listId: books.id, fields: { title: 'Dune', author: 'Frank Herbert' }, rating: 5, notes: { format: 'text', value: 'Again.' }, issued: '2026-01-02T00:00:00Z' },
    '2026-01-02T00:00:00Z',
  )
  await store.lists.addItem(
    { listId: books.id, fields: { title: 'Solaris', author: 'Stanisław Lem' }, rating: null, notes: null, issued: '2026-01-01T00:00:00Z' },
    '2026-01-01T00:00:00Z',
  )
}

describe.each([
  { feeds: true, what: 'Blogdesk’s service' },
  { feeds: false, what: 'a server without album and list feeds' },
])('albums and lists on $what', ({ feeds }) => {
  let service: ServiceFixture
  let fixture: CoreFixture
  let core: Core
  let accountId: string

  beforeAll(async () => {
    service = await startTestService([melody], arrange, undefined, { collectionFeeds: feeds })
  })
  afterAll(() => service.dispose())
  beforeEach(async () => {
    fixture = await openTestCore()
    core = fixture.core
    accountId = (await core.accounts.add({ atomBase: service.origin, username: melody.username, apiPassword: melody.password })).id
  })
  afterEach(() => fixture.dispose())

  const handlers = (): CoreHandlers => core.handlers
  async function refOf(kind: 'albums' | 'lists', title: string) {
    const listing = await handlers()[`${kind}:list`]({ accountId, refresh: true })
    const found = listing.collections.find((collection) => collection.title === title)!
    expect(found.feedUri === null, 'the listing says whether there is a feed').toBe(!feeds)
    return { accountId, collectionUri: found.postUri }
  }

  it(feeds ? 'reads every page of an album, newest first, and shows it offline from the cache' : 'shows what Blogdesk sent, and says it is that', async () => {
    const ref = await refOf('albums', 'Lisbon')
    const contents = await handlers()['albums:photos'](ref)
    if (!feeds) {
      expect(contents).toEqual({ source: 'sent', entries: [], fetchedAt: null, problem: null })
      return
    }
    expect(contents.source).toBe('feed')
    expect(contents.problem).toBeNull()
    expect(contents.entries.map((photo) => photo.title)).toEqual(Array.from({ length: PHOTOS }, (_, index) => `Photo ${PHOTOS - index}`))
    expect(contents.entries[0]).toEqual({
      title: `Photo ${PHOTOS}`,
      caption: 'The newest',
      url: `${service.origin}/albums/1/${PHOTOS}`,
      thumbnailUrl: `${service.origin}/media/thumbnails/${PHOTOS}.jpg`,
      takenAt: '2026-02-14T10:00:00Z',
    })

    fixture.platform.setOnline(false)
    const offline = await handlers()['albums:photos'](ref)
    expect(offline.entries).toEqual(contents.entries)
    expect(offline.fetchedAt).toBe(contents.fetchedAt)
    expect(offline.problem).toBe('This computer is offline: these are the album’s photos as last read from the server.')

    // A new core on the same SQLite file shows them offline too.
    core = await fixture.reopen()
    expect((await handlers()['albums:photos'](ref)).entries).toEqual(contents.entries)
  })

  it(feeds ? 'reads a list’s items with its type’s elements, and tells its type' : 'shows no items for a list nothing was added to', async () => {
    const contents = await handlers()['lists:items'](await refOf('lists', 'On the desk'))
    if (!feeds) {
      expect(contents).toEqual({ source: 'sent', entries: [], fetchedAt: null, problem: null, listType: null })
      return
    }
    expect(contents).toMatchObject({ source: 'feed', problem: null, listType: 'book' })
    expect(contents.entries).toEqual([
      { title: 'Frank Herbert: Dune', fields: { title: 'Dune', author: 'Frank Herbert' }, rating: 5, notes: 'Again.', issued: '2026-01-02T00:00:00Z' },
      { title: 'Stanisław Lem: Solaris', fields: { title: 'Solaris', author: 'Stanisław Lem' }, rating: null, notes: null, issued: '2026-01-01T00:00:00Z' },
    ])
  })

  it('says why an album never read cannot be shown offline', async () => {
    const ref = await refOf('albums', 'Lisbon')
    fixture.platform.setOnline(false)
    const contents = await handlers()['albums:photos'](ref)
    expect(contents.entries).toEqual([])
    expect(contents.problem).toBe(
      feeds ? 'This computer is offline, and the album’s photos have not been read here before. They will show once it is back online.' : null,
    )
  })
})
