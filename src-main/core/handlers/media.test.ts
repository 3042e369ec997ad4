// Images put into a post: pasted, dropped or picked, copied into Blogdesk, shown from a scaled-down copy, and
// uploaded through the weblog's UploadURI when the post is published — through the handlers, over the real service.
import { createHash } from 'node:crypto'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import type { AccountSummary, LocalImage, Weblog } from '../../../src-shared/contract'
import { AtomClient } from '..'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2f6f8b' } })
    .jpeg({ quality: 70 })
    .toBuffer()

async function decodedPreview(image: LocalImage): Promise<{ type: string; width: number; height: number }> {
  const [, type, base64] = /^data:(image\/[a-z]+);base64,(.+)$/.exec(image.previewUrl)!
  const metadata = await sharp(Buffer.from(base64!, 'base64')).metadata()
  return { type: type!, width: metadata.width!, height: metadata.height! }
}

describe('media', () => {
  let service: ServiceFixture
  let fixture: CoreFixture
  let account: AccountSummary
  let weblog: Weblog

  beforeEach(async () => {
    service = await startTestService([melody])
    fixture = await openTestCore()
    account = await fixture.core.accounts.add({ atomBase: service.origin, username: 'melody', apiPassword: melody.password })
    weblog = (await fixture.core.accounts.weblogs(account.id))[0]!
  })

  afterEach(async () => {
    await fixture.dispose()
    await service.dispose()
  })

  const handlers = () => fixture.core.handlers

  it('takes a pasted photo, shows it scaled down, and publishes it through the UploadURI at the weblog\'s widest', async () => {
    const bytes = await photo(3000, 2000)
    const pasted = await handlers()['media:importBytes']({ name: 'image.jpg', type: 'image/jpeg', bytes: new Uint8Array(bytes) })
    expect(pasted).toMatchObject({ hash: createHash('sha256').update(bytes).digest('hex'), width: 3000, height: 2000 })
    expect(await decodedPreview(pasted)).toEqual({ type: 'image/webp', width: 1600, height: 1067 })
    expect(readdirSync(join(fixture.dataDir, 'pasted')), 'the pasted bytes are not left lying around').toEqual([])
    expect(await handlers()['media:preview']({ hash: pasted.hash })).toEqual(pasted)

    const draft = await handlers()['drafts:create']({ accountId: account.id, weblogPostUri: weblog.postUri })
    await handlers()['drafts:save']({ draftId: draft.id, title: 'With a photo', content: `<p>Look:</p><img src="blogdesk-media:${pasted.hash}" alt="Sea">` })
    await handlers()['drafts:publish']({ draftId: draft.id })
    await fixture.core.sync.drain()

    const client = new AtomClient({ fetch, credentials: async () => ({ username: 'melody', password: melody.password }) })
    const post = (await client.feedPage(weblog.feedUri!)).posts.find((candidate) => candidate.title === 'With a photo')!
    const src = /<img[^>]+src="([^"]+)"/.exec(post.content)![1]!
    expect(src).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    // Wider than the weblog's widest image (1,200 px unless set): scaled down before it was uploaded.
    const uploaded = Buffer.from(await (await fetch(src)).arrayBuffer())
    expect(await sharp(uploaded).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 800 })
  })

  it('shows a small picked image as it is', async () => {
    const path = join(fixture.dataDir, 'dot.png')
    writeFileSync(path, await sharp({ create: { width: 40, height: 30, channels: 4, background: '#ff000080' } }).png().toBuffer())
    const picked = await handlers()['media:importFile']({ path })
    expect(picked).toMatchObject({ width: 40, height: 30 })
    expect(await decodedPreview(picked)).toEqual({ type: 'image/png', width: 40, height: 30 })
  })

  it('refuses what is not an image, naming it, and says so when an image of a post has gone', async () => {
    const notes = join(fixture.dataDir, 'notes.txt')
    writeFileSync(notes, 'Shopping: bread, olives.')
    await expect(handlers()['media:importFile']({ path: notes })).rejects.toThrow('“notes.txt” is not a photo Blogdesk can send')
    await expect(
      handlers()['media:importBytes']({ name: 'clipboard.txt', type: 'text/plain', bytes: new TextEncoder().encode('just words') }),
    ).rejects.toThrow('“clipboard.txt” is not an image Blogdesk can put in a post: it takes JPEG, PNG, GIF, WebP, HEIC or AVIF images.')
    await expect(handlers()['media:preview']({ hash: 'f'.repeat(64) })).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/no longer in Blogdesk’s media folder.*add the file again/),
    })
  })
})
