// Photo and upload POSTs that carry one Idempotency-Key and arrive at the same instant, over real HTTP, on the engine
// under test (BLOGDESK_TEST_ENGINE): the key is looked up as soon as the file has arrived, when neither has been
// answered yet, so both go on to record; the second then waits for the first inside its transaction and replays its
// answer. One photo, one file, no 500 from the key's unique constraint.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFeed } from '../../src-protocol'
import { DEMO_PHOTOS_FOLDER } from '../demo/photos'
import { melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const AT_ONCE = 8
const DOT_GIF = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='

const fileEntry = (title: string, type: string, base64: string) => `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#"><title>${title}</title><content mode="base64" type="${type}">${base64}</content></entry>`

describe('one Idempotency-Key on file POSTs sent at the same instant', () => {
  let service: ServiceFixture
  beforeAll(async () => {
    service = await startTestService([melody], async (store) => {
      await store.albums.add((await store.users.find('melody'))!.id, 'Sent together')
    })
  })
  afterAll(() => service?.dispose())

  /** Sends `body` to `url` AT_ONCE times under one key; expects one 201 made and the rest its replay. */
  const sendTogether = async (url: string, body: string, key: string) => {
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, () => signedRequest(url, melody, { method: 'POST', body, headers: { 'Idempotency-Key': key } })),
    )
    const bodies = await Promise.all(answers.map((answer) => answer.text()))
    expect(answers.map((answer, n) => `${answer.status} ${answer.status === 201 ? '' : bodies[n]}`)).toEqual(Array(AT_ONCE).fill('201 '))
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1)
    expect(new Set(bodies).size).toBe(1)
    expect(new Set(answers.map((answer) => answer.headers.get('location'))).size).toBe(1)
  }
  const storedFiles = (folder: string) =>
    readdirSync(join(service.dataDir, 'media', folder), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length

  it('makes one photo and replays its answer to the others', async () => {
    const photo = readFileSync(join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg')).toString('base64')
    await sendTogether(`${service.origin}/t/atom/gallery/set_id=1`, fileEntry('Tram, once', 'image/jpeg', photo), 'photo-at-once')
    const album = await signedRequest(`${service.origin}/t/atom/gallery/set_id=1`, melody)
    expect(readFeed(await album.text()).entries.map((entry) => entry.title)).toEqual(['Tram, once'])
    expect([storedFiles('photos'), storedFiles('thumbnails'), storedFiles('incoming')]).toEqual([1, 1, 0])
  })

  it('makes one upload and replays its answer to the others', async () => {
    await sendTogether(`${service.origin}/t/atom/weblog/blog_id=1/svc=upload`, fileEntry('once.gif', 'image/gif', DOT_GIF), 'upload-at-once')
    expect((await fetch(`${service.origin}/media/blogs/valse-de-melody/once.gif`)).status).toBe(200)
    expect((await fetch(`${service.origin}/media/blogs/valse-de-melody/once_1.gif`)).status).toBe(404)
    expect([storedFiles('uploads'), storedFiles('incoming')]).toEqual([1, 0])
  })
})
