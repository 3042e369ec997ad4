// Photo albums and typed lists as the sidebar, the album's drop zone and the list's form ask for them: against the
// real service with its demo account over HTTP on loopback, with a real core on a temp dir.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountSummary, CollectionSummary, CoreHandlers } from '../../../src-shared/contract'
import { DEMO_PHOTOS_FOLDER } from '../../../src-service/demo/photos'
import { startService, type RunningService } from '../../../src-service/server'
import { readSandboxFile, type Sandbox } from '../../../src-service/testing/service-fixture'
import { MAX_MEDIA_BYTES } from '../media'
import type { Core } from '..'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'

const sunsetPhoto = join(DEMO_PHOTOS_FOLDER, 'tagus-sunset.jpg')
const pastriesPhoto = join(DEMO_PHOTOS_FOLDER, 'belem-pastries.jpg')
/** How the service's photo page writes the sunset's position. */
const sunsetPosition = '38.7056° N, 9.1450° W'

describe('photo albums and typed lists', () => {
  let serviceDir: string
  let service: RunningService
  let sandbox: Sandbox
  let filesDir: string
  let fixture: CoreFixture
  /** The open core: the fixture's, or the one a test reopened on the same data. */
  let core: Core
  let account: AccountSummary

  beforeAll(async () => {
    serviceDir = mkdtempSync(join(tmpdir(), 'blogdesk-collections-service-'))
    service = await startService({ port: 0, dataDir: serviceDir, demo: true, lookup: { offline: true } })
    sandbox = readSandboxFile(serviceDir)
    filesDir = mkdtempSync(join(tmpdir(), 'blogdesk-collections-files-'))
  })
  afterAll(async () => {
    await service.close()
    rmSync(serviceDir, { recursive: true, force: true })
    rmSync(filesDir, { recursive: true, force: true })
  })

  beforeEach(async () => {
    fixture = await openTestCore()
    core = fixture.core
    account = await core.accounts.add({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })
  })
  afterEach(async () => {
    await fixture.dispose()
  })

  const handlers = (): CoreHandlers => core.handlers
  const accountId = () => account.id
  async function collection(kind: 'albums' | 'lists', title: string): Promise<CollectionSummary> {
    const listing = await handlers()[`${kind}:list`]({ accountId: accountId(), refresh: false })
    return listing.collections.find((candidate) => candidate.title === title)!
  }

  describe('the sidebar’s albums and lists', () => {
    it('lists the account’s album and its lists from the server, and shows them offline as last read', async () => {
      const albums = await handlers()['albums:list']({ accountId: accountId(), refresh: true })
      expect(albums).toEqual({
        collections: [
          {
            title: 'Summer in Lisbon',
            postUri: expect.stringMatching(/\/t\/atom\/gallery\/set_id=\d+$/),
            homeUrl: expect.stringMatching(/^http:/),
            feedUri: expect.stringMatching(/\/t\/atom\/gallery\/set_id=\d+$/),
            listType: null,
          },
        ],
        fetchedAt: expect.any(String),
        problem: null,
      })
      const lists = await handlers()['lists:list']({ accountId: accountId(), refresh: true })
      expect(lists.collections.map((list) => list.title)).toEqual(['Heavy rotation', 'On the desk', 'People I read', 'Specifications'])
      expect(lists.collections.every((list) => list.listType === null), 'the listing does not say what a list holds').toBe(true)

      fixture.platform.setOnline(false)
      expect(await handlers()['albums:list']({ accountId: accountId(), refresh: false }), 'asked without refresh: the cache, no fuss').toEqual(albums)
      const offline = await handlers()['lists:list']({ accountId: accountId(), refresh: true })
      expect(offline.collections).toEqual(lists.collections)
      expect(offline.fetchedAt).toBe(lists.fetchedAt)
      expect(offline.problem).toBe('This computer is offline: these are your lists as last read from the server.')
    })

    it('says when the albums were never read and cannot be now, and what happens next', async () => {
      fixture.platform.setOnline(false)
      expect(await handlers()['albums:list']({ accountId: accountId(), refresh: false })).toEqual({
        collections: [],
        fetchedAt: null,
        problem: 'This computer is offline, and your photo albums have not been read here before. They will show once it is back online.',
      })
    })

    it('refuses an album that is not among the account’s, without sending anything', async () => {
      const stranger = { accountId: accountId(), collectionUri: `${sandbox.atomBase}/t/atom/gallery/set_id=999` }
      await expect(handlers()['albums:photos'](stranger)).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('not among') })
      await expect(handlers()['photos:add']({ ...stranger, path: sunsetPhoto, title: 'Sunset', caption: null, stripGps: true })).rejects.toMatchObject({
        code: 'not-found',
      })
      expect(core.sync.operations()).toEqual([])
    })
  })

  describe('a photo dropped on an album', () => {
    it('previews its date, camera, place and an upright thumbnail, read on this computer', async () => {
      const preview = await handlers()['photos:preview']({ path: sunsetPhoto })
      expect(preview).toMatchObject({
        path: sunsetPhoto,
        name: 'tagus-sunset.jpg',
        type: 'image/jpeg',
        width: 1200,
        height: 800,
        takenAt: '2024-07-14T20:41:07',
        camera: 'Blogdesk Sandbox Camera',
        location: { latitude: expect.closeTo(38.70561, 4), longitude: expect.closeTo(-9.14497, 4) },
      })
      const thumbnail = await sharp(Buffer.from(preview.thumbnailUrl!.replace(/^data:image\/jpeg;base64,/, ''), 'base64')).metadata()
      expect([thumbnail.width, thumbnail.height]).toEqual([240, 160])

      expect((await handlers()['photos:preview']({ path: pastriesPhoto })).location, 'a photo that does not say where').toBeNull()
    })

    it('turns a photo taken sideways upright in its thumbnail', async () => {
      const sideways = join(filesDir, 'sideways.jpg')
      await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toFile(sideways)
      const preview = await handlers()['photos:preview']({ path: sideways })
      expect([preview.width, preview.height]).toEqual([200, 300])
      const thumbnail = await sharp(Buffer.from(preview.thumbnailUrl!.split(',')[1]!, 'base64')).metadata()
      expect([thumbnail.width, thumbnail.height]).toEqual([160, 240])
    })

    it('refuses a file that is not a photo, and one larger than Blogdesk takes, in words', async () => {
      const notes = join(filesDir, 'notes.txt')
      writeFileSync(notes, 'Buy film for the trip.')
      await expect(handlers()['photos:preview']({ path: notes })).rejects.toMatchObject({
        code: 'invalid-argument',
        message: expect.stringMatching(/^“notes\.txt” is not a photo Blogdesk can read: it takes JPEG/),
      })
      const huge = join(filesDir, 'huge.jpg')
      writeFileSync(huge, '')
      truncateSync(huge, MAX_MEDIA_BYTES + 1024 * 1024)
      await expect(handlers()['photos:preview']({ path: huge })).rejects.toMatchObject({
        code: 'invalid-argument',
        message: '“huge.jpg” is 101 MB; Blogdesk takes files up to 100 MB. Export a smaller version and use that.',
      })
      const album = await collection('albums', 'Summer in Lisbon')
      const add = { accountId: accountId(), collectionUri: album.postUri, title: 'Notes', caption: null, stripGps: false }
      await expect(handlers()['photos:add']({ ...add, path: notes })).rejects.toMatchObject({ code: 'invalid-argument' })
      expect(core.sync.operations()).toEqual([])
    })

    it('queues photos at once, sends them with or without their place as chosen, and shows them in the album', async () => {
      const album = await collection('albums', 'Summer in Lisbon')
      const ref = { accountId: accountId(), collectionUri: album.postUri }
      const before = (await handlers()['albums:photos'](ref)).entries.length

      const stripped = await handlers()['photos:add']({ ...ref, path: sunsetPhoto, title: 'Sunset, no place', caption: 'Cais do Sodré', stripGps: true })
      expect(stripped).toMatchObject({ kind: 'photo', state: 'queued', title: 'Sunset, no place', queueKey: album.postUri, lastError: null })
      await handlers()['photos:add']({ ...ref, path: sunsetPhoto, title: 'Sunset, as shot', caption: null, stripGps: false })
      await core.sync.drain()

      const contents = await handlers()['albums:photos'](ref)
      expect(contents.entries).toHaveLength(before + 2)
      const photos = contents.entries.slice(0, 2)
      expect(photos).toEqual([
        { title: 'Sunset, as shot', caption: 'The sun going down over the Tagus, seen from Cais do Sodre', url: expect.stringMatching(/^http:/), thumbnailUrl: expect.stringMatching(/\.jpg$/), takenAt: expect.stringMatching(/^2024-07-14T20:41:07/) },
        { title: 'Sunset, no place', caption: 'Cais do Sodré', url: expect.stringMatching(/^http:/), thumbnailUrl: expect.stringMatching(/\.jpg$/), takenAt: expect.stringMatching(/^2024-07-14T20:41:07/) },
      ])
      expect(await (await fetch(photos[0]!.url!)).text()).toContain(sunsetPosition)
      const strippedPage = await (await fetch(photos[1]!.url!)).text()
      expect(strippedPage).toContain('Cais do Sodré')
      expect(strippedPage).not.toContain(sunsetPosition)
    })

    it('keeps a photo queued, with its thumbnail and details, while the service is down and across a restart of the app, and sends it once it is back', async () => {
      const album = await collection('albums', 'Summer in Lisbon')
      const ref = { accountId: accountId(), collectionUri: album.postUri }
      const port = Number(new URL(sandbox.atomBase).port)
      await service.close()
      try {
        const queued = await handlers()['photos:add']({ ...ref, path: pastriesPhoto, title: 'Pastéis, warm', caption: null, stripGps: true })
        core = await fixture.reopen()
        expect(core.sync.operations().map((operation) => operation.id)).toEqual([queued.id])
        // The new core, on the same SQLite file, still shows what the photo showed when it was dropped.
        const [waiting] = await handlers()['photos:queued'](ref)
        expect(waiting).toMatchObject({
          operationId: queued.id,
          preview: { name: 'belem-pastries.jpg', type: 'image/jpeg', camera: 'Blogdesk Sandbox Camera', thumbnailUrl: expect.stringMatching(/^data:image\/jpeg;base64,/) },
        })
        expect(waiting!.preview.takenAt).toBe((await handlers()['photos:preview']({ path: pastriesPhoto })).takenAt)
      } finally {
        service = await startService({ port, dataDir: serviceDir, demo: true, lookup: { offline: true } })
      }
      core.sync.sendNow()
      await core.sync.drain()
      expect((await handlers()['albums:photos'](ref)).entries[0]?.title).toBe('Pastéis, warm')
      expect(await handlers()['photos:queued'](ref), 'sent: nothing waits').toEqual([])
    })
  })

  describe('an item added to a typed list', () => {
    it('adds one item of each type and shows what the service filled in; the list then says what it holds', async () => {
      const add = async (title: string, entry: Omit<Parameters<CoreHandlers['lists:add']>[0], 'accountId' | 'collectionUri'>) => {
        const list = await collection('lists', title)
        const item = await handlers()['lists:add']({ accountId: accountId(), collectionUri: list.postUri, ...entry })
        expect(item).toMatchObject({ kind: 'list-item', state: 'queued', queueKey: list.postUri })
        return list.postUri
      }
      const music = await add('Heavy rotation', { listType: 'music', fields: { artist: 'Madredeus', title: 'O Pastor', album: '' }, rating: 5, notes: 'On every tram.' })
      const book = await add('On the desk', { listType: 'book', fields: { isbn: '0-13-110362-8' }, rating: 4, notes: null })
      const person = await add('People I read', { listType: 'person', fields: { name: 'Amália Rodrigues' }, rating: null, notes: 'The voice\nof fado.' })
      const link = await add('Specifications', { listType: 'link', fields: { url: 'https://www.rfc-editor.org/rfc/rfc5023' }, rating: null, notes: null })
      await core.sync.drain()

      const items = async (collectionUri: string) => (await handlers()['lists:items']({ accountId: accountId(), collectionUri })).entries.slice(0, 1)
      expect(await items(music)).toEqual([
        { title: 'Madredeus - O Pastor', fields: { artist: 'Madredeus', title: 'O Pastor' }, rating: 5, notes: 'On every tram.', issued: expect.any(String) },
      ])
      expect(await items(book)).toEqual([
        {
          title: 'Brian W. Kernighan, Dennis M. Ritchie: The C Programming Language, Second Edition',
          fields: expect.objectContaining({ isbn: '0-13-110362-8', title: 'The C Programming Language, Second Edition', author: 'Brian W. Kernighan, Dennis M. Ritchie' }),
          rating: 4,
          notes: null,
          issued: expect.any(String),
        },
      ])
      expect(await items(person)).toMatchObject([{ title: 'Amália Rodrigues', fields: { name: 'Amália Rodrigues' }, rating: null, notes: 'The voice of fado.' }])
      // Offline, the service looks nothing up: the link keeps the address it was given, and that is its title.
      expect(await items(link)).toMatchObject([{ fields: { url: 'https://www.rfc-editor.org/rfc/rfc5023' } }])

      const types = Object.fromEntries(
        (await handlers()['lists:list']({ accountId: accountId(), refresh: false })).collections.map((list) => [list.title, list.listType]),
      )
      expect(types).toEqual({ 'Heavy rotation': 'music', 'On the desk': 'book', 'People I read': 'person', Specifications: 'link' })
    })

    it('refuses, in words and before queueing, what the service would refuse', async () => {
      const music = await collection('lists', 'Heavy rotation')
      const links = await collection('lists', 'Specifications')
      const entry = { accountId: accountId(), rating: null, notes: null }
      await expect(handlers()['lists:add']({ ...entry, collectionUri: music.postUri, listType: 'music', fields: { album: '  ' } })).rejects.toMatchObject({
        code: 'invalid-argument',
        message: 'Give the song a title, an artist or an album.',
      })
      await expect(handlers()['lists:add']({ ...entry, collectionUri: links.postUri, listType: 'link', fields: { url: 'rfc-editor.org' } })).rejects.toMatchObject({
        message: 'The address “rfc-editor.org” is not a web address. Give the whole address, starting with http:// or https://.',
      })
      await expect(
        handlers()['lists:add']({ ...entry, collectionUri: links.postUri, listType: 'link', fields: { url: 'https://example.org/' }, rating: 3 }),
      ).rejects.toMatchObject({ message: 'A link item has no rating; only music and books are rated.' })
      expect(core.sync.operations()).toEqual([])
      expect((await collection('lists', 'Specifications')).listType, 'a refused item teaches nothing about the list').toBeNull()
    })
  })
})
