// The sync engine against the real service over real HTTP, with a real SQLite store: publishing, edits, deletes,
// conflicts, refusals, a refused sign-in, Retry-After, lost answers, inline images, photos and list items. A fault
// proxy sits between the engine and the service to lose answers or refuse requests where a test needs it.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NS, writeEntry } from '../../../src-protocol'
import { melody, signedRequest, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import type { Store as ServiceStore } from '../../../src-service/store'
import { DEMO_PHOTOS_FOLDER } from '../../../src-service/demo/photos'
import { startFaultProxy, type Fault, type FaultProxy } from '../testing/fault-proxy'
import { ManualClock } from '../testing/manual-clock'
import { openSyncFixture, walkFeed, type SyncFixture } from '../testing/sync-fixture'
import type { AtomClient } from '../atom'
import type { SyncChange, SyncEngineOptions, SyncProgress } from './engine'
import type { Operation } from './operations'
import { localMediaReference } from './inline-media'

const FAST_RETRY = { retry: { baseMs: 5, capMs: 20 } } satisfies Partial<SyncEngineOptions>

async function arrangeService(store: ServiceStore): Promise<void> {
  const user = (await store.users.find('melody'))!
  const [valse] = await store.weblogs.ownedBy(user.id)
  await store.categories.add(valse!.id, 'Music')
  await store.albums.add(user.id, 'Holidays')
  await store.lists.add({ ownerId: user.id, title: 'Bookmarks', type: 'links' })
}

describe('sync engine', () => {
  let service: ServiceFixture
  let proxy: FaultProxy
  let fixture: SyncFixture
  /** Reads the service as the account, through the proxy. */
  let client: AtomClient
  /** Decides faults for the proxy; each test sets what it needs. */
  let decide: (request: { method: string; url: string }) => Fault | 'none' | undefined

  beforeEach(async () => {
    decide = () => undefined
    service = await startTestService([melody], arrangeService)
    proxy = await startFaultProxy({ upstream: service.origin, seed: 5, decide: (request) => decide(request), retryAfterSeconds: 2 })
    use(await openSyncFixture({ account: { atomBase: proxy.origin, username: 'melody', password: melody.password } }))
  })

  const use = (opened: SyncFixture) => {
    fixture = opened
    client = opened.client
  }

  afterEach(async () => {
    await fixture.dispose()
    await proxy.close()
    await service.dispose()
  })

  const valse = () => fixture.weblogs[0]!
  const hotel = () => fixture.weblogs[1]!
  const newDraft = (title: string, content = `<p>${title}</p>`, weblog = valse(), categories: string[] = []) =>
    fixture.drafts.create({ accountId: fixture.accountId, weblogPostUri: weblog.postUri, title, content, categories })
  const postsOf = (weblog = valse()) => walkFeed(client, weblog.feedUri ?? weblog.postUri)
  const posts = (method: string, pattern: RegExp) => proxy.requests().filter((line) => line.startsWith(`${method} `) && pattern.test(line))

  it('keeps a published draft in the outbox across a restart, and sends it once with the date it was published', async () => {
    const draft = newDraft('Written on a train')
    const engine = fixture.engine()
    const queued = engine.publish(draft.id)
    expect(queued).toMatchObject({ kind: 'post.create', state: 'queued', draftId: draft.id, attempts: 0 })
    expect(queued.kind === 'post.create' && queued.payload.post.issued).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(fixture.drafts.get(draft.id)!.state).toBe('queued')
    await engine.persisted()

    await fixture.close()
    const reopened = await openSyncFixture({ dataDir: fixture.dataDir })
    use(reopened)
    const restarted = reopened.engine(FAST_RETRY)
    expect(restarted.operations()).toEqual([expect.objectContaining({ id: queued.id, idempotencyKey: queued.idempotencyKey, state: 'queued' })])
    await restarted.drain()

    const published = reopened.drafts.get(draft.id)!
    expect(published).toMatchObject({ state: 'published', lastError: null, remote: { editUri: expect.stringContaining('entry_id=') } })
    expect(restarted.operation(queued.id)).toMatchObject({ state: 'done', result: { adopted: false, editUri: published.remote!.editUri } })
    const onServer = (await postsOf()).filter((post) => post.title === 'Written on a train')
    expect(onServer).toEqual([expect.objectContaining({ issued: queued.kind === 'post.create' ? queued.payload.post.issued : null })])
    expect(restarted.counts()).toEqual({ waiting: 0, needsAttention: 0 })
  })

  it('sends every edit in order, then the delete, and reports each change with the counts', async () => {
    const engine = fixture.engine(FAST_RETRY)
    const changes: SyncChange[] = []
    engine.on('changed', (change) => changes.push(change))
    const draft = newDraft('Three versions', '<p>first</p>')
    engine.publish(draft.id)
    fixture.drafts.save(draft.id, { content: '<p>second</p>' })
    const second = engine.publish(draft.id)
    fixture.drafts.save(draft.id, { content: '<p>third</p>', title: 'Three versions, final' })
    engine.publish(draft.id)
    expect(second.kind).toBe('post.update')
    expect(engine.counts()).toEqual({ waiting: 3, needsAttention: 0 })

    await engine.drain()
    const editUri = fixture.drafts.get(draft.id)!.remote!.editUri
    expect(await client.getPost(editUri)).toMatchObject({ title: 'Three versions, final', content: '<p>third</p>' })
    expect(posts('PUT', /entry_id=/)).toHaveLength(2)
    expect(changes.map(({ operation }) => [operation?.kind, operation?.state])).toEqual([
      ['post.create', 'queued'],
      ['post.update', 'queued'],
      ['post.update', 'queued'],
      ['post.create', 'sending'],
      ['post.create', 'done'],
      ['post.update', 'sending'],
      ['post.update', 'done'],
      ['post.update', 'sending'],
      ['post.update', 'done'],
    ])
    expect(changes.at(-1)!.counts).toEqual({ waiting: 0, needsAttention: 0 })

    engine.enqueueDelete(draft.id)
    expect(fixture.drafts.get(draft.id)!.state).toBe('deleting')
    await engine.drain()
    expect(fixture.drafts.get(draft.id)!.state).toBe('deleted')
    await expect(client.getPost(editUri)).rejects.toMatchObject({ kind: 'not-found' })
    expect(() => engine.publish(draft.id)).toThrow(/was deleted from the weblog/)
  })

  it('stops with a conflict when the post changed on the server, keeping both versions, and publishes over it when asked', async () => {
    const engine = fixture.engine(FAST_RETRY)
    const draft = newDraft('Shared post', '<p>mine, first</p>')
    engine.publish(draft.id)
    await engine.drain()
    const editUri = fixture.drafts.get(draft.id)!.remote!.editUri

    const theirs = writeEntry({ title: 'Shared post', content: { mode: 'escaped', type: 'text/html', value: '<p>theirs</p>' } })
    const put = await signedRequest(editUri, { username: 'melody', password: melody.password }, { method: 'PUT', body: theirs })
    expect(put.status).toBe(200)
    fixture.drafts.save(draft.id, { content: '<p>mine, second</p>' })
    const edit = engine.publish(draft.id)
    await engine.drain()

    expect(engine.operation(edit.id)).toMatchObject({ state: 'conflict', lastError: expect.stringMatching(/changed on the weblog/) })
    const conflicted = fixture.drafts.get(draft.id)!
    expect(conflicted).toMatchObject({ state: 'conflict', content: '<p>mine, second</p>', conflict: { server: { content: '<p>theirs</p>' } } })
    expect((await client.getPost(editUri)).content).toBe('<p>theirs</p>')
    expect(engine.counts()).toEqual({ waiting: 0, needsAttention: 1 })

    // The person looked at both and publishes theirs over it: the same operation goes, now on the server's version.
    expect(engine.publish(draft.id).id).toBe(edit.id)
    await engine.drain()
    expect((await client.getPost(editUri)).content).toBe('<p>mine, second</p>')
    expect(fixture.drafts.get(draft.id)).toMatchObject({ state: 'published', conflict: null })
  })

  it("keeps the weblog's version of a post in conflict when asked, sending nothing and keeping ours in the history", async () => {
    const engine = fixture.engine(FAST_RETRY)
    const draft = newDraft('Shared post', '<p>mine, first</p>')
    engine.publish(draft.id)
    await engine.drain()
    const editUri = fixture.drafts.get(draft.id)!.remote!.editUri
    const theirs = writeEntry({ title: 'Shared post, edited there', content: { mode: 'escaped', type: 'text/html', value: '<p>theirs</p>' } })
    expect((await signedRequest(editUri, { username: 'melody', password: melody.password }, { method: 'PUT', body: theirs })).status).toBe(200)
    fixture.drafts.save(draft.id, { content: '<p>mine, second</p>' })
    engine.publish(draft.id)
    await engine.drain()
    expect(() => engine.keepServerCopy(newDraft('Never in conflict').id)).toThrow(/is no longer in conflict/)
    const changes: SyncChange[] = []
    engine.on('changed', (change) => changes.push(change))
    const requestsBefore = proxy.requests().length

    engine.keepServerCopy(draft.id)
    await engine.drain()

    expect(fixture.drafts.get(draft.id)).toMatchObject({ state: 'published', title: 'Shared post, edited there', content: '<p>theirs</p>', conflict: null })
    expect(fixture.drafts.revisions(draft.id).map((revision) => revision.content)).toContain('<p>mine, second</p>')
    expect(changes).toEqual([expect.objectContaining({ operation: null, draftId: draft.id, counts: { waiting: 0, needsAttention: 0 } })])
    expect(proxy.requests()).toHaveLength(requestsBefore)

    // Later edits stand on the weblog's version: no conflict.
    fixture.drafts.save(draft.id, { content: '<p>theirs, and a line of mine</p>' })
    engine.publish(draft.id)
    await engine.drain()
    expect((await client.getPost(editUri)).content).toBe('<p>theirs, and a line of mine</p>')
    expect(fixture.drafts.get(draft.id)!.state).toBe('published')
  })

  it('counts an edit as done when its earlier attempt landed and only the answer was lost', async () => {
    const engine = fixture.engine(FAST_RETRY)
    const draft = newDraft('Lost answer', '<p>before</p>')
    engine.publish(draft.id)
    await engine.drain()
    let lost = false
    decide = ({ method }) => (method === 'PUT' && !lost ? ((lost = true), 'reset') : undefined)

    fixture.drafts.save(draft.id, { content: '<p>after</p>' })
    const edit = engine.publish(draft.id)
    await engine.drain()

    expect(proxy.counts().reset).toBe(1)
    expect(posts('PUT', /entry_id=/)).toHaveLength(1)
    expect(engine.operation(edit.id)).toMatchObject({ state: 'done', attempts: 2, result: { alreadyApplied: true } })
    expect(fixture.drafts.get(draft.id)).toMatchObject({ state: 'published', conflict: null })
    expect((await client.getPost(fixture.drafts.get(draft.id)!.remote!.editUri)).content).toBe('<p>after</p>')
  })

  it('finds a post whose answer was lost in the feed, on a server that ignores the Idempotency-Key', async () => {
    await proxy.close()
    proxy = await startFaultProxy({
      upstream: service.origin,
      seed: 6,
      stripIdempotencyKey: true,
      decide: ({ method }) => (method === 'POST' && !proxy.counts().reset ? 'reset' : undefined),
    })
    await fixture.dispose()
    use(await openSyncFixture({ account: { atomBase: proxy.origin, username: 'melody', password: melody.password } }))
    const engine = fixture.engine(FAST_RETRY)
    // Two drafts of the same title, published in the same second: the match rule must not take one for the other.
    const first = newDraft('Twin')
    const second = newDraft('Twin')
    const firstOperation = engine.publish(first.id)
    const secondOperation = engine.publish(second.id)
    await engine.drain()

    expect(proxy.counts().reset).toBe(1)
    expect(engine.operation(firstOperation.id)).toMatchObject({ state: 'done', result: { adopted: true } })
    expect(engine.operation(secondOperation.id)).toMatchObject({ state: 'done', result: { adopted: false } })
    const twins = (await postsOf()).filter((post) => post.title === 'Twin')
    expect(twins).toHaveLength(2)
    expect(new Set([fixture.drafts.get(first.id)!.remote!.editUri, fixture.drafts.get(second.id)!.remote!.editUri])).toEqual(
      new Set(twins.map((post) => post.editUri)),
    )
  })

  it('counts deleting a post that is already gone as done', async () => {
    const engine = fixture.engine(FAST_RETRY)
    const draft = newDraft('Short-lived')
    engine.publish(draft.id)
    await engine.drain()
    const editUri = fixture.drafts.get(draft.id)!.remote!.editUri
    expect((await signedRequest(editUri, { username: 'melody', password: melody.password }, { method: 'DELETE' })).status).toBe(200)

    const deletion = engine.enqueueDelete(draft.id)
    await engine.drain()
    expect(engine.operation(deletion.id)).toMatchObject({ state: 'done', result: { outcome: 'already-gone' } })
    expect(fixture.drafts.get(draft.id)!.state).toBe('deleted')
  })

  it("stops a refused post with the server's words, holds its weblog's queue only, and sends it once the person fixes it", async () => {
    const engine = fixture.engine(FAST_RETRY)
    const refused = newDraft('Filed wrong', '<p>x</p>', valse(), ['Nope'])
    const behind = newDraft('Behind it')
    const elsewhere = newDraft('On the other weblog', '<p>y</p>', hotel())
    const refusedOperation = engine.publish(refused.id)
    const behindOperation = engine.publish(behind.id)
    engine.publish(elsewhere.id)
    await engine.drain()

    expect(engine.operation(refusedOperation.id)).toMatchObject({
      state: 'needs-attention',
      lastError: expect.stringMatching(/the server said: "The weblog "Valse de Melody" has no category "Nope"\. Use its category: Music\./),
    })
    expect(fixture.drafts.get(refused.id)).toMatchObject({ state: 'needs-attention', lastError: expect.stringMatching(/no category "Nope"/) })
    expect(engine.operation(behindOperation.id)!.state).toBe('queued')
    expect(fixture.drafts.get(elsewhere.id)!.state).toBe('published')
    expect(engine.counts()).toEqual({ waiting: 1, needsAttention: 1 })

    fixture.drafts.save(refused.id, { categories: ['Music'] })
    expect(engine.publish(refused.id)).toMatchObject({ id: refusedOperation.id, state: 'queued' })
    await engine.drain()
    expect(fixture.drafts.get(refused.id)).toMatchObject({ state: 'published', lastError: null })
    expect(fixture.drafts.get(behind.id)!.state).toBe('published')
    expect((await postsOf()).find((post) => post.title === 'Filed wrong')!.categories).toEqual(['Music'])
  })

  it("discards a refused create with the edits queued behind it, and the weblog's queue goes on", async () => {
    const engine = fixture.engine(FAST_RETRY)
    const refused = newDraft('Never mind', '<p>x</p>', valse(), ['Nope'])
    const create = engine.publish(refused.id)
    fixture.drafts.save(refused.id, { content: '<p>edited</p>' })
    const edit = engine.publish(refused.id)
    const next = newDraft('Next in line')
    engine.publish(next.id)
    await engine.drain()
    expect(fixture.drafts.get(next.id)!.state).toBe('queued')
    const changes: SyncChange[] = []
    engine.on('changed', (change) => changes.push(change))

    engine.discard(create.id)
    expect(changes[0]).toMatchObject({ operation: null, draftId: refused.id })
    expect(engine.operation(create.id)).toBeNull()
    expect(engine.operation(edit.id)).toBeNull()
    expect(fixture.drafts.get(refused.id)).toMatchObject({ state: 'draft', content: '<p>edited</p>', lastError: null })
    await engine.drain()
    expect(fixture.drafts.get(next.id)!.state).toBe('published')
  })

  it('pauses the account when the server refuses the sign-in, keeps its operations queued, and resumes after', async () => {
    const engine = fixture.engine(FAST_RETRY)
    const drafts = [newDraft('Paused one'), newDraft('Paused two', '<p>2</p>', hotel())]
    const operations = drafts.map((draft) => engine.publish(draft.id))
    // The API password was changed on the server since: the one kept on this computer is now wrong.
    await fixture.vault.set(`account:${fixture.accountId}:api-password`, 'an-old-password')
    await engine.drain()

    expect(engine.pausedAccounts()).toEqual([{ accountId: fixture.accountId, reason: expect.stringMatching(/refused the sign-in/) }])
    for (const operation of operations) expect(engine.operation(operation.id)!.state).toBe('queued')
    expect(fixture.drafts.get(drafts[0]!.id)).toMatchObject({ state: 'queued', lastError: expect.stringMatching(/refused the sign-in/) })
    expect(engine.counts()).toEqual({ waiting: 2, needsAttention: 0 })
    const attempts = proxy.requests().length
    await engine.drain()
    expect(proxy.requests()).toHaveLength(attempts)

    await fixture.vault.set(`account:${fixture.accountId}:api-password`, melody.password)
    engine.resume(fixture.accountId)
    await engine.drain()
    expect(engine.pausedAccounts()).toEqual([])
    for (const draft of drafts) expect(fixture.drafts.get(draft.id)).toMatchObject({ state: 'published', lastError: null })
  })

  it("waits for the server's Retry-After before trying again", async () => {
    const clock = new ManualClock()
    const engine = fixture.engine({ clock, random: () => 0.99, retry: { baseMs: 100, capMs: 100 } })
    decide = ({ method }) => (method === 'POST' && proxy.counts().error503 === 0 ? 'error503' : undefined)
    const operation = engine.publish(newDraft('Busy server').id)
    const failedAt = clock.now()
    await engine.flush()

    const waiting = engine.operation(operation.id)!
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1, lastError: expect.stringMatching(/HTTP 503.*wait 2 seconds/) })
    expect(waiting.nextAttemptAt - failedAt).toBe(2000)
    clock.advance(1999)
    await engine.flush()
    expect(posts('POST', /blog_id=/)).toHaveLength(1)
    expect(engine.operation(operation.id)!.state).toBe('queued')

    clock.advance(1)
    await engine.flush()
    expect(posts('POST', /blog_id=/)).toHaveLength(2)
    expect(engine.operation(operation.id)!.state).toBe('done')
  })

  it('uploads the images of a post once per weblog, rewrites their src, and reuses them in the next post', async () => {
    const engine = fixture.engine(FAST_RETRY)
    const progress: SyncProgress[] = []
    engine.on('progress', (report) => progress.push(report))
    const sunset = await fixture.media.add(join(DEMO_PHOTOS_FOLDER, 'tagus-sunset.jpg'))
    const tram = await fixture.media.add(join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg'))
    const local = (hash: string) => `<img src="${localMediaReference(hash)}" alt="" />`
    const first = newDraft('Lisbon', `<p>${local(sunset.hash)} and ${local(tram.hash)} and again ${local(sunset.hash)}</p>`)
    const second = newDraft('Lisbon again', `<p>${local(sunset.hash)}</p>`)
    const operation = engine.publish(first.id)
    engine.publish(second.id)
    await engine.drain()

    expect(posts('POST', /svc=upload/)).toHaveLength(2)
    const sent = await client.getPost(fixture.drafts.get(first.id)!.remote!.editUri)
    const sources = [...sent.content.matchAll(/src="([^"]+)"/g)].map((match) => match[1]!)
    expect(sources).toHaveLength(3)
    expect(sources[0]).toBe(sources[2])
    expect(sent.content).not.toContain('blogdesk-media:')
    for (const [url, file] of [[sources[0]!, 'tagus-sunset.jpg'], [sources[1]!, 'tram-28.jpg']] as const) {
      const image = Buffer.from(await (await fetch(url)).arrayBuffer())
      expect(sha256(image)).toBe(sha256(readFileSync(join(DEMO_PHOTOS_FOLDER, file))))
    }
    expect((await client.getPost(fixture.drafts.get(second.id)!.remote!.editUri)).content).toContain(sources[0])
    expect(fixture.drafts.get(first.id)!.content).toContain(localMediaReference(sunset.hash))
    expect(progress.filter((report) => report.operationId === operation.id && report.sent === report.total).map((report) => report.total)).toEqual([
      sunset.size,
      tram.size,
    ])
  })

  it("uploads a file through the weblog's UploadURI once, and answers a second upload of the same bytes from memory", async () => {
    const engine = fixture.engine(FAST_RETRY)
    const copy = await fixture.media.add(join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg'))
    const first = engine.enqueueUpload({ accountId: fixture.accountId, weblogPostUri: valse().postUri, hash: copy.hash, name: 'tram.jpg' })
    await engine.drain()
    const url = (engine.operation(first.id)!.result as { url: string }).url
    expect(sha256(Buffer.from(await (await fetch(url)).arrayBuffer()))).toBe(copy.hash)
    expect(fixture.media.uploadedUrl(valse().postUri, copy.hash)).toBe(url)

    const again = engine.enqueueUpload({ accountId: fixture.accountId, weblogPostUri: valse().postUri, hash: copy.hash, name: 'tram again.jpg' })
    await engine.drain()
    expect(engine.operation(again.id)).toMatchObject({ state: 'done', result: { url } })
    expect(posts('POST', /svc=upload/)).toHaveLength(1)
  })

  it('sends photos and list items, each once, with progress for the photo', async () => {
    const engine = fixture.engine(FAST_RETRY)
    const progress: SyncProgress[] = []
    engine.on('progress', (report) => progress.push(report))
    const [album] = await client.listCollections(`${proxy.origin}/t/atom/gallery`)
    const [list] = await client.listCollections(`${proxy.origin}/t/atom/lists`)
    const photo = await fixture.media.add(join(DEMO_PHOTOS_FOLDER, 'azulejos.jpg'))
    const photoOperation = engine.enqueuePhoto({ accountId: fixture.accountId, albumUri: album!.postUri, hash: photo.hash, title: 'Tiles', caption: 'Blue', stripGps: true })
    const itemOperation = engine.enqueueListItem({
      accountId: fixture.accountId,
      listUri: list!.postUri,
      item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/nowhere', title: 'A bookmark' }, notes: 'kept' },
    })
    let lost = false
    // The first photo POST lands but its answer is lost: the retry under the same key gets the first answer back.
    decide = ({ method, url }) => (method === 'POST' && url.includes('set_id=') && !lost ? ((lost = true), 'reset') : undefined)
    await engine.drain()

    expect(engine.operation(photoOperation.id)).toMatchObject({ state: 'done', attempts: 2, result: { url: expect.stringContaining('http') } })
    expect(engine.operation(itemOperation.id)).toMatchObject({ state: 'done', result: { fields: { url: 'http://127.0.0.1:9/nowhere' } } })
    expect(progress.filter((report) => report.operationId === photoOperation.id).at(-1)).toEqual({
      operationId: photoOperation.id,
      sent: photo.size,
      total: photo.size,
    })
    const onService = await service.withStore(async (store) => {
      const user = (await store.users.find('melody'))!
      const holidays = (await store.albums.ownedBy(user.id)).find((candidate) => candidate.title === 'Holidays')!
      const bookmarks = (await store.lists.ownedBy(user.id)).find((candidate) => candidate.title === 'Bookmarks')!
      return { photos: (await store.photos.inAlbum(holidays.id)).map((entry) => entry.title), items: (await store.lists.itemsOf(bookmarks.id)).length }
    })
    expect(onService).toEqual({ photos: ['Tiles'], items: 1 })
  })

  it('sends queues side by side, at most `concurrency` at once, each queue one operation at a time and in order', async () => {
    decide = () => 'delay'
    const engine = fixture.engine({ ...FAST_RETRY, concurrency: 2 })
    const [list] = await client.listCollections(`${proxy.origin}/t/atom/lists`)
    const sending = new Map<number, string>()
    const started: Operation[] = []
    let most = 0
    let mostInOneQueue = 0
    engine.on('changed', ({ operation }) => {
      if (operation?.state === 'sending') {
        sending.set(operation.id, operation.queueKey)
        started.push(operation)
      } else if (operation) sending.delete(operation.id)
      most = Math.max(most, sending.size)
      const perQueue = [...sending.values()].map((queue) => [...sending.values()].filter((other) => other === queue).length)
      mostInOneQueue = Math.max(mostInOneQueue, ...perQueue)
    })
    for (let n = 0; n < 3; n++) {
      engine.publish(newDraft(`Valse ${n}`).id)
      engine.publish(newDraft(`Hotel ${n}`, '<p>h</p>', hotel()).id)
      engine.enqueueListItem({ accountId: fixture.accountId, listUri: list!.postUri, item: { ns: NS.link, fields: { url: `http://127.0.0.1:9/${n}` } } })
    }
    await engine.drain()

    expect(engine.counts()).toEqual({ waiting: 0, needsAttention: 0 })
    expect(most).toBe(2)
    expect(mostInOneQueue).toBe(1)
    for (const queue of [valse().postUri, hotel().postUri, list!.postUri]) {
      const ids = started.filter((operation) => operation.queueKey === queue).map((operation) => operation.id)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
    }
  })

  it('refuses to queue what it could never send, in words', () => {
    const engine = fixture.engine()
    expect(() => engine.enqueuePhoto({ accountId: fixture.accountId, albumUri: 'http://x/album', hash: 'f'.repeat(64), title: 'Gone' })).toThrow(
      /not in Blogdesk’s media folder/,
    )
    expect(() => engine.publish('no-such-draft')).toThrow(/no longer in Blogdesk/)
    expect(() =>
      engine.enqueueListItem({ accountId: 'no-such-account', listUri: 'http://x/list', item: { ns: NS.link, fields: { url: 'http://x' } } }),
    ).toThrow(/account is no longer in Blogdesk/)
    expect(engine.operations()).toEqual([])
  })
})

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}
