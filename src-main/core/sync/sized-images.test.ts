// Images of a post are sent at the width the post shows them, never wider than the weblog's maximum, scaled in core
// before upload; a link to the original sends the file as added. Against the real service over real HTTP: the
// uploaded bytes are read back and measured with sharp.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEMO_PHOTOS_FOLDER } from '../../../src-service/demo/photos'
import { melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import { WeblogSettings } from '../store'
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy'
import { openSyncFixture, type SyncFixture } from '../testing/sync-fixture'
import { localMediaReference } from './inline-media'

const PHOTO = 'tram-28.jpg' // 1200 × 800

describe('images sent at the size the post shows them', () => {
  let service: ServiceFixture
  let proxy: FaultProxy
  let fixture: SyncFixture

  beforeEach(async () => {
    service = await startTestService([melody])
    proxy = await startFaultProxy({ upstream: service.origin, seed: 1, decide: () => undefined })
    fixture = await openSyncFixture({ account: { atomBase: proxy.origin, username: 'melody', password: melody.password } })
  })

  afterEach(async () => {
    await fixture.dispose()
    await proxy.close()
    await service.dispose()
  })

  const weblog = () => fixture.weblogs[0]!
  const uploads = () => proxy.requests().filter((line) => line.startsWith('POST ') && /svc=upload/.test(line)).length
  const publish = async (title: string, content: string) => {
    const draft = fixture.drafts.create({ accountId: fixture.accountId, weblogPostUri: weblog().postUri, title, content, categories: [] })
    const engine = fixture.engine({ retry: { baseMs: 5, capMs: 20 } })
    engine.publish(draft.id)
    await engine.drain()
    expect(fixture.drafts.get(draft.id)!.state).toBe('published')
    return (await fixture.client.getPost(fixture.drafts.get(draft.id)!.remote!.editUri)).content
  }
  const fetched = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer())
  const attribute = (html: string, name: string) => [...html.matchAll(new RegExp(`\\s${name}="([^"]+)"`, 'g'))].map((match) => match[1]!)

  it('scales an image to its chosen width, links the original when asked, and keeps figure, caption and alignment', async () => {
    const photo = await fixture.media.add(join(DEMO_PHOTOS_FOLDER, PHOTO))
    const local = localMediaReference(photo.hash)
    const sent = await publish(
      'Tram',
      `<figure class="alignright"><a href="${local}"><img src="${local}" alt="Tram 28 on a hill" width="400"></a>` +
        `<figcaption>The 28 at Graça</figcaption></figure>`,
    )
    expect(sent).toContain('<figure class="alignright">')
    expect(sent).toContain('<figcaption>The 28 at Graça</figcaption>')
    expect(sent).not.toContain('blogdesk-media:')
    const [shown] = attribute(sent, 'src')
    const [linked] = attribute(sent, 'href')
    expect(await sharp(await fetched(shown!)).metadata()).toMatchObject({ width: 400, height: 267 })
    expect(sha256(await fetched(linked!))).toBe(sha256(readFileSync(join(DEMO_PHOTOS_FOLDER, PHOTO))))
    expect(uploads()).toBe(2)
  })

  it("caps an image at the weblog's maximum width, and uploads each size of the same photo once", async () => {
    const photo = await fixture.media.add(join(DEMO_PHOTOS_FOLDER, PHOTO))
    const local = localMediaReference(photo.hash)
    new WeblogSettings(fixture.store).set(fixture.accountId, weblog().postUri, { maxImageWidth: 600 })

    const first = await publish('Capped', `<p><img src="${local}" alt="Tram"></p><p><img src="${local}" alt="Tram, small" width="300"></p>`)
    const [capped, small] = attribute(first, 'src')
    expect((await sharp(await fetched(capped!)).metadata()).width).toBe(600)
    expect((await sharp(await fetched(small!)).metadata()).width).toBe(300)
    // Asked for wider than the weblog takes: sent at its maximum, the same file as the image without a width.
    const second = await publish('Capped again', `<p><img src="${local}" alt="Tram" width="900"></p><p><img src="${local}" alt="" width="300"></p>`)
    expect(attribute(second, 'src')).toEqual([capped, small])
    expect(uploads()).toBe(2)
    // Nothing linked to the original: it never left this computer.
    const originals = await Promise.all([capped!, small!].map(async (url) => sha256(await fetched(url))))
    expect(originals).not.toContain(photo.hash)
  })
})

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
