// The sandbox's demo album, as a client and a visitor see it on first start and after a restart.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readLinkFeed } from '../../src-protocol'
import { startService } from '../server'
import { readSandboxFile, signedRequest } from '../testing/service-fixture'
import { openTestStore, testDatabaseOption } from '../testing/postgres'

describe('demo photo album', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-demo-photos-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  /** Starts the sandbox, returns its album listing and the album's public page, and stops it. */
  async function visitDemoAlbum(): Promise<{ titles: (string | null)[]; albumHtml: string; photoHtml: string; thumbnail: Response }> {
    const service = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true })
    try {
      const sandbox = readSandboxFile(dataDir)
      const credentials = { username: sandbox.username, password: sandbox.apiPassword }
      const root = await signedRequest(`${sandbox.atomBase}/t/atom/gallery`, credentials)
      const links = readLinkFeed(await root.text(), sandbox.atomBase)
      const page = links.find((link) => link.rel === 'alternate')!.href
      const albumHtml = await (await fetch(page)).text()
      const firstPhoto = /<a href="(\/albums\/\d+\/\d+)">/.exec(albumHtml)![1]!
      const firstThumbnail = /<img src="(\/media\/thumbnails\/\d+\.jpg)"/.exec(albumHtml)![1]!
      return {
        titles: links.map((link) => link.title),
        albumHtml,
        photoHtml: await (await fetch(`${sandbox.atomBase}${firstPhoto}`)).text(),
        thumbnail: await fetch(`${sandbox.atomBase}${firstThumbnail}`),
      }
    } finally {
      await service.close()
    }
  }

  it('holds real JPEGs processed like a POST: thumbnails, EXIF dates, places and captions, NewAsset events', async () => {
    const { titles, albumHtml, photoHtml, thumbnail } = await visitDemoAlbum()
    expect(titles).toEqual(['Summer in Lisbon', 'Summer in Lisbon', 'Summer in Lisbon'])
    expect(albumHtml).toContain('5 photos by Melody Nelson')
    expect(albumHtml).toContain('alt="Azulejos in Alfama"')
    expect(photoHtml).toContain('<h1>Sunset over the Tagus</h1>')
    expect(photoHtml).toContain('<figcaption>The sun going down over the Tagus, seen from Cais do Sodre</figcaption>')
    expect(photoHtml).toContain('14 July 2024 at 20:41')
    expect(photoHtml).toContain('38.7056° N, 9.1450° W')
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg')

    const store = await openTestStore(dataDir)
    try {
      const melody = (await store.users.find('melody'))!
      const [album] = await store.albums.ownedBy(melody.id)
      const photos = await store.photos.inAlbum(album!.id)
      const events = (await store.events.streamPage(melody.id, null, 1000)).filter((event) => event.objectType === 'Photo')
      expect(events.map((event) => event.objectId).sort((a, b) => a - b)).toEqual(photos.map((photo) => photo.id).sort((a, b) => a - b))
      expect(photos.filter((photo) => photo.taken !== null && photo.camera === 'Blogdesk Sandbox Camera')).toHaveLength(5)
    } finally {
      await store.close()
    }
  })

  it('is seeded once: a restart finds the same five photos', async () => {
    const { albumHtml } = await visitDemoAlbum()
    expect(albumHtml).toContain('5 photos by Melody Nelson')
  })
})
