// Publishing on a train: with the service stopped, posts, edits, deletes and photos are queued (and fail to send
// for a while); when the service is back on the same address, all of it arrives, each exactly once, in order.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { seededRandom } from '../../../src-protocol/seeded-random'
import { DEMO_PHOTOS_FOLDER } from '../../../src-service/demo/photos'
import { openStore } from '../../../src-service/store'
import { startServiceProcess, type ServiceProcess } from '../../../src-service/testing/service-process'
import { openSyncFixture, walkFeed, type SyncFixture } from '../testing/sync-fixture'
import type { Operation } from './operations'

describe('sync engine offline', () => {
  let dir: string
  let service: ServiceProcess | null = null
  let fixture: SyncFixture | null = null

  afterEach(async () => {
    await fixture?.dispose()
    await service?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('queues 20 posts, 5 edits, 3 deletes and 3 photos while the service is down, and sends each exactly once when it is back', async () => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-offline-'))
    const serviceDir = join(dir, 'service')
    service = await startServiceProcess(serviceDir)
    const { port, sandbox } = service
    fixture = await openSyncFixture({ account: { atomBase: service.url, username: sandbox.username, password: sandbox.apiPassword } })
    const { drafts, accountId, client } = fixture
    const [valse, hotel] = fixture.weblogs
    const [album] = await client.listCollections(`${service.url}/t/atom/gallery`)
    const engine = fixture.engine({ random: seededRandom(20), retry: { baseMs: 20, capMs: 200 } })
    engine.start()
    const draft = (title: string, weblog = valse!) =>
      drafts.create({ accountId, weblogPostUri: weblog.postUri, title, content: `<p>${title}, first version</p>` })

    // Two posts published before the train leaves: one to edit on the way, one to delete.
    const toEdit = draft('Published before, edited offline')
    const toDelete = draft('Published before, deleted offline', hotel)
    engine.publish(toEdit.id)
    engine.publish(toDelete.id)
    await engine.drain()

    await service.stop()
    const queued: Operation[] = []
    const posts = Array.from({ length: 20 }, (_, n) => draft(`Offline post ${n + 1}`, n % 2 === 0 ? valse : hotel))
    for (const post of posts) queued.push(engine.publish(post.id))
    const edit = (id: string, content: string) => {
      drafts.save(id, { content })
      queued.push(engine.publish(id))
    }
    edit(posts[0]!.id, '<p>Offline post 1, second version</p>')
    edit(toEdit.id, '<p>Edited offline, second version</p>')
    edit(posts[0]!.id, '<p>Offline post 1, third version</p>')
    edit(posts[1]!.id, '<p>Offline post 2, second version</p>')
    edit(toEdit.id, '<p>Edited offline, third version</p>')
    for (const gone of [posts[18]!, posts[19]!, toDelete]) queued.push(engine.enqueueDelete(gone.id))
    const photoTitles = ['Offline photo: rooftops', 'Offline photo: pastries', 'Offline photo: sunset']
    for (const [index, file] of ['alfama-rooftops.jpg', 'belem-pastries.jpg', 'tagus-sunset.jpg'].entries()) {
      const copy = await fixture.media.add(join(DEMO_PHOTOS_FOLDER, file))
      queued.push(engine.enqueuePhoto({ accountId, albumUri: album!.postUri, hash: copy.hash, title: photoTitles[index]! }))
    }
    expect(queued).toHaveLength(31)

    // The first operations to go fail to connect, and everything waits: nothing is dropped or stopped. A queue that
    // had not tried yet waits without trying, since its server is known to be out of reach and is being probed.
    await expect.poll(() => engine.operations().filter((operation) => operation.attempts > 0).length, { timeout: 10_000 }).toBeGreaterThan(0)
    expect(engine.counts()).toEqual({ waiting: 31, needsAttention: 0 })
    expect(engine.operations().find((operation) => operation.attempts > 0)!.lastError).toMatch(/Could not reach 127\.0\.0\.1/)

    service = await startServiceProcess(serviceDir, port)
    engine.sendNow()
    await engine.drain()

    expect(engine.counts()).toEqual({ waiting: 0, needsAttention: 0 })
    for (const operation of queued) expect(engine.operation(operation.id)!.state).toBe('done')
    const titles = async (weblog = valse!) => (await walkFeed(client, weblog.feedUri ?? weblog.postUri)).map((post) => post.title)
    const onServer = [...(await titles(valse)), ...(await titles(hotel))]
    const expected = [toEdit, ...posts.slice(0, 18)].map((post) => post.title)
    for (const title of expected) expect(onServer.filter((candidate) => candidate === title), title).toHaveLength(1)
    for (const gone of [posts[18]!, posts[19]!, toDelete]) expect(onServer).not.toContain(gone.title)

    const contentOf = async (id: string) => (await client.getPost(drafts.get(id)!.remote!.editUri)).content
    expect(await contentOf(posts[0]!.id)).toBe('<p>Offline post 1, third version</p>')
    expect(await contentOf(posts[1]!.id)).toBe('<p>Offline post 2, second version</p>')
    expect(await contentOf(toEdit.id)).toBe('<p>Edited offline, third version</p>')
    for (const post of [...posts.slice(0, 18), toEdit]) expect(drafts.get(post.id)!.state).toBe('published')
    for (const gone of [posts[18]!, posts[19]!, toDelete]) expect(drafts.get(gone.id)!.state).toBe('deleted')

    await service.stop()
    service = null
    const store = await openStore(serviceDir)
    try {
      const user = (await store.users.find(sandbox.username))!
      const albumId = (await store.albums.ownedBy(user.id)).find((candidate) => candidate.title === album!.title)!.id
      const photos = (await store.photos.inAlbum(albumId)).map((photo) => photo.title)
      for (const title of photoTitles) expect(photos.filter((candidate) => candidate === title), title).toHaveLength(1)
    } finally {
      await store.close()
    }
  }, 60_000)
})
