// The Atom client against the real service with its demo account, over HTTP on loopback: what a person's weblog,
// albums and lists look like through it, and what each way of failing is called.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import exifr from 'exifr'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NS, type WsseCredentials } from '../../../src-protocol'
import type { Weblog } from '../../../src-shared/contract'
import { DEMO_PHOTOS_FOLDER } from '../../../src-service/demo/photos'
import { startService, type RunningService } from '../../../src-service/server'
import { melody, readSandboxFile, startTestService } from '../../../src-service/testing/service-fixture'
import { AtomClient } from './client'
import { listWeblogs } from './discovery'
import type { RemotePost } from './posts'

const sunsetPhoto = join(DEMO_PHOTOS_FOLDER, 'tagus-sunset.jpg')
const sunsetPosition = '38.7056° N, 9.1450° W'

describe('the Atom client with the demo account', () => {
  let dataDir: string
  let service: RunningService
  let credentials: WsseCredentials
  let client: AtomClient
  let diary: Weblog
  let emptyWeblog: Weblog
  const key = () => randomUUID()

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-atom-client-'))
    service = await startService({ port: 0, dataDir, demo: true, lookup: { offline: true } })
    const sandbox = readSandboxFile(dataDir)
    credentials = { username: sandbox.username, password: sandbox.apiPassword }
    client = new AtomClient({ fetch, credentials: async () => credentials })
    ;[diary, emptyWeblog] = (await listWeblogs(fetch, `${service.origin}/t/atom/weblog`, credentials)) as [Weblog, Weblog]
  })
  afterAll(async () => {
    await service.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('pages through all 48 demo posts by following the next links, newest first', async () => {
    const pages: { count: number; prev: string | null }[] = []
    const posts: RemotePost[] = []
    for (let uri: string | null = diary.feedUri!; uri !== null; ) {
      const page = await client.feedPage(uri)
      pages.push({ count: page.posts.length, prev: page.prev })
      posts.push(...page.posts)
      uri = page.next
    }
    expect(pages.map((page) => page.count)).toEqual([20, 20, 8])
    expect(pages.map((page) => page.prev !== null)).toEqual([false, true, true])
    expect(new Set(posts.map((post) => post.editUri)).size).toBe(48)
    expect(posts[0]!.title).toBe('Planning the summer trip')
    expect(posts.at(-1)!.title).toBe('Starting over, again')
    expect(posts[0]).toMatchObject({
      categories: ['Notes', 'Travel'],
      issued: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      permalink: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/blogs\/valse-de-melody\/\d+$/),
      content: expect.stringContaining('<p>'),
    })
  })

  it("reads the weblog's categories", async () => {
    expect((await client.categories(diary.categoriesUri!)).toSorted()).toEqual(['Kitchen', 'Music', 'Notes', 'Photography', 'Travel'])
  })

  it('creates a post once, even when the create is sent again with the same key', async () => {
    const post = { title: 'Ferry to Cacilhas', content: '<p>Ten minutes across the <em>Tagus</em>.</p>', categories: [] }
    const idempotencyKey = key()
    const first = await client.createPost(emptyWeblog.postUri, post, { idempotencyKey })
    const again = await client.createPost(emptyWeblog.postUri, post, { idempotencyKey })
    expect(again).toEqual(first)
    expect(first).toMatchObject({ title: 'Ferry to Cacilhas', content: '<p>Ten minutes across the <em>Tagus</em>.</p>' })
    const { posts } = await client.feedPage(emptyWeblog.feedUri!)
    expect(posts.filter((listed) => listed.title === 'Ferry to Cacilhas')).toHaveLength(1)
    expect(await client.getPost(first.editUri)).toEqual(first)
  })

  it('sends HTML that is not well-formed XML escaped, and reads it back as the same HTML', async () => {
    const content = '<p>Line one<br>line two & more'
    const created = await client.createPost(diary.postUri, { title: 'Loose HTML', content, categories: ['Notes'] }, { idempotencyKey: key() })
    expect(created).toMatchObject({ content, categories: ['Notes'] })
    await client.deletePost(created.editUri)
  })

  it("replaces a post and answers with the server's copy", async () => {
    const created = await client.createPost(
      diary.postUri,
      { title: 'Draft title', content: '<p>First go.</p>', categories: ['Kitchen'], issued: '2024-05-06T09:08:09+02:00' },
      { idempotencyKey: key() },
    )
    expect(created.issued).toBe('2024-05-06T07:08:09Z')
    const updated = await client.updatePost(created.editUri, {
      title: 'Final title',
      content: '<p>Second go, <strong>better</strong>.</p>',
      categories: ['Kitchen', 'Notes'],
    })
    expect(updated).toMatchObject({
      editUri: created.editUri,
      title: 'Final title',
      content: '<p>Second go, <strong>better</strong>.</p>',
      categories: ['Kitchen', 'Notes'],
      issued: '2024-05-06T07:08:09Z',
    })
    expect(await client.getPost(created.editUri)).toEqual(updated)
    await client.deletePost(created.editUri)
  })

  it('deletes a post, and counts deleting it again as done', async () => {
    const created = await client.createPost(diary.postUri, { title: 'Short-lived', content: '<p>Gone soon.</p>', categories: [] }, { idempotencyKey: key() })
    expect(await client.deletePost(created.editUri)).toBe('deleted')
    expect(await client.deletePost(created.editUri)).toBe('already-gone')
    await expect(client.getPost(created.editUri)).rejects.toMatchObject({ kind: 'not-found', status: 404 })
  })

  it("uploads a file to the weblog's UploadURI and answers its public address", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'blogdesk-upload-'))
    try {
      const path = join(folder, 'menu.txt')
      const bytes = Buffer.from('Pastéis de nata, bica, and a glass of ginjinha.\n'.repeat(20_000))
      writeFileSync(path, bytes)
      const progress: [number, number][] = []
      const { url } = await client.upload(
        emptyWeblog.uploadUri!,
        { path, name: 'menu.txt', type: 'text/plain' },
        { idempotencyKey: key(), onProgress: (sent, total) => progress.push([sent, total]) },
      )
      expect(url).toMatch(/\/media\/blogs\/hotel-particulier\/menu(_\d+)?\.txt$/)
      expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(bytes)).toBe(true)
      expect(progress.length).toBeGreaterThan(1)
      expect(progress.at(-1)).toEqual([bytes.length, bytes.length])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('posts a photo to an album; with stripGps the service never learns where it was taken', async () => {
    const [album] = await client.listCollections(`${service.origin}/t/atom/gallery`)
    expect(album).toMatchObject({ title: 'Summer in Lisbon', homeUrl: expect.stringMatching(/^http:/) })

    const withPosition = await client.postPhoto(album!.postUri, { path: sunsetPhoto, title: 'Sunset, as shot', type: 'image/jpeg' }, { idempotencyKey: key() })
    expect(withPosition).toMatchObject({
      id: expect.stringMatching(/^tag:/),
      thumbnail: expect.stringMatching(/\/media\/thumbnails\/\d+\.jpg$/),
      taken: expect.stringMatching(/^2024-07-14T20:41:07/),
    })
    expect(await (await fetch(withPosition.url!)).text()).toContain(sunsetPosition)

    const stripped = await client.postPhoto(
      album!.postUri,
      { path: sunsetPhoto, title: 'Sunset, no place', summary: 'Cais do Sodré', type: 'image/jpeg', filename: 'sunset.jpg', stripGps: true },
      { idempotencyKey: key() },
    )
    const page = await (await fetch(stripped.url!)).text()
    expect(page).toContain('Cais do Sodré')
    expect(page).not.toContain(sunsetPosition)

    // What the service stored: no position at all, the same pixels, the rest of the metadata kept.
    const original = new URL(/href="([^"]*\/media\/photos\/\d+\/sunset\.jpg)"/.exec(page)![1]!, stripped.url!)
    const stored = Buffer.from(await (await fetch(original)).arrayBuffer())
    expect(await exifr.gps(stored)).toBeUndefined()
    expect(await exifr.parse(stored, { pick: ['DateTimeOriginal', 'Make'] })).toMatchObject({ Make: expect.any(String) })
    const pixels = (image: Buffer | string) => sharp(image).raw().toBuffer()
    expect((await pixels(stored)).equals(await pixels(sunsetPhoto))).toBe(true)
  })

  it('adds an item to a list of each type, with what the service filled in', async () => {
    const lists = new Map((await client.listCollections(`${service.origin}/t/atom/lists`)).map((list) => [list.title, list.postUri]))
    const add = (title: string, item: Parameters<AtomClient['postListItem']>[1]) =>
      client.postListItem(lists.get(title)!, item, { idempotencyKey: key() })

    await expect(add('Heavy rotation', { ns: NS.song, fields: { artist: 'Madredeus', title: 'O Pastor', album: 'Existir' }, rating: 5, notes: 'On every tram.' })).resolves.toEqual({
      title: 'Madredeus - O Pastor',
      fields: { artist: 'Madredeus', title: 'O Pastor', album: 'Existir' },
    })
    await expect(add('On the desk', { ns: NS.book, fields: { isbn: '0-13-110362-8' }, rating: 4 })).resolves.toMatchObject({
      title: 'Brian W. Kernighan, Dennis M. Ritchie: The C Programming Language, Second Edition',
      fields: { title: 'The C Programming Language, Second Edition', author: 'Brian W. Kernighan, Dennis M. Ritchie' },
    })
    await expect(add('People I read', { ns: NS.person, fields: { name: 'Amália Rodrigues' }, notes: 'The voice of fado.' })).resolves.toEqual({
      title: 'Amália Rodrigues',
      fields: { name: 'Amália Rodrigues' },
    })
    await expect(add('Specifications', { ns: NS.link, fields: { url: 'https://www.rfc-editor.org/rfc/rfc5023', title: 'RFC 5023: AtomPub' } })).resolves.toEqual({
      title: 'RFC 5023: AtomPub',
      fields: { url: 'https://www.rfc-editor.org/rfc/rfc5023', title: 'RFC 5023: AtomPub' },
    })
  })

  it("says a refused post was refused, in the server's words", async () => {
    await expect(
      client.createPost(diary.postUri, { title: 'Misfiled', content: '<p>x</p>', categories: ['Gardening'] }, { idempotencyKey: key() }),
    ).rejects.toMatchObject({
      kind: 'refused',
      code: 'rejected',
      status: 400,
      message: expect.stringMatching(/refused the request \(HTTP 400\) \(the server said: "The weblog "Valse de Melody" has no category "Gardening"\. Use one or more of its categories: /),
    })
  })

  it('calls a wrong API password an auth failure', async () => {
    const stranger = new AtomClient({ fetch, credentials: async () => ({ ...credentials, password: 'not-it' }) })
    await expect(stranger.feedPage(diary.feedUri!)).rejects.toMatchObject({ kind: 'auth', code: 'auth', status: 401 })
    await expect(
      stranger.postPhoto(diary.uploadUri!, { path: sunsetPhoto, title: 'x', type: 'image/jpeg' }, { idempotencyKey: key() }),
    ).rejects.toMatchObject({ kind: 'auth', status: 401 })
  })
})

describe('the Atom client when the service is down', () => {
  it('calls it unreachable, for small requests and streamed ones alike', async () => {
    const service = await startTestService([melody])
    const client = new AtomClient({ fetch, credentials: async () => melody })
    const [weblog] = await listWeblogs(fetch, `${service.origin}/t/atom/weblog`, melody)
    await service.dispose()
    await expect(client.feedPage(weblog!.feedUri!)).rejects.toMatchObject({
      kind: 'unreachable',
      code: 'offline',
      message: expect.stringMatching(/^Could not reach 127\.0\.0\.1:\d+\. Check the address/),
    })
    await expect(
      client.upload(weblog!.uploadUri!, { path: sunsetPhoto, name: 'sunset.jpg', type: 'image/jpeg' }, { idempotencyKey: randomUUID() }),
    ).rejects.toMatchObject({ kind: 'unreachable' })
  })
})
