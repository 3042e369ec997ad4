// The outbox namespace through the contract's handlers, over a real core and the real service (--demo): each
// operation in words as it moves (title, state, why it stopped, where the result lives), Retry and Discard, and an
// upload's progress.
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { NS } from '../../../src-protocol'
import type { AccountSummary, OutboxItem, UploadProgress } from '../../../src-shared/contract'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'

const photo = join(import.meta.dirname, '../../../resources/demo-photos/tagus-sunset.jpg')

describe('outbox handlers', () => {
  let sandbox: SandboxService
  beforeAll(async () => {
    sandbox = await startSandboxService()
  })
  afterAll(async () => {
    await sandbox.dispose()
  })

  let fixture: CoreFixture
  let account: AccountSummary
  /** Every outbox:changed, in order. */
  let changes: OutboxItem[]
  let progress: UploadProgress[]
  beforeEach(async () => {
    fixture = await openTestCore()
    const { sandbox: demo } = sandbox
    account = await fixture.core.handlers['accounts:add']({ atomBase: demo.atomBase, username: demo.username, apiPassword: demo.apiPassword })
    changes = []
    progress = []
    fixture.core.onEvent((event, payload) => {
      if (event === 'outbox:changed') changes.push(payload as OutboxItem)
      if (event === 'outbox:progress') progress.push(payload as UploadProgress)
    })
  })
  afterEach(async () => {
    await fixture.dispose()
  })

  const handlers = () => fixture.core.handlers

  it('lists an operation that needs attention with why, in words; Retry sends it again and Discard drops it', async () => {
    const missingList = `${sandbox.sandbox.atomBase}/t/atom/lists/list_id=999999`
    const { id } = fixture.core.sync.enqueueListItem({
      accountId: account.id,
      listUri: missingList,
      item: { ns: NS.book, fields: { title: 'Pereira Maintains', isbn: '9780811215916' } },
    })
    await fixture.core.sync.drain()

    expect(changes.map((item) => [item.id, item.state])).toEqual([
      [id, 'queued'],
      [id, 'sending'],
      [id, 'needs-attention'],
    ])
    const [listed] = await handlers()['outbox:list'](null)
    expect(listed).toEqual({
      id,
      accountId: account.id,
      kind: 'list-item',
      state: 'needs-attention',
      title: 'Pereira Maintains',
      queueKey: missingList,
      draftId: null,
      attempts: 1,
      lastError: expect.stringMatching(/\w+ \w+/),
      nextAttemptAt: null,
      enqueuedAt: expect.any(String),
      resultUrl: null,
    })
    expect(changes.at(-1)).toEqual(listed)
    expect(await handlers()['app:status'](null)).toMatchObject({ outbox: { waiting: 0, needsAttention: 1 } })

    await handlers()['outbox:retry']({ operationId: id })
    await fixture.core.sync.drain()
    expect(changes.slice(3).map((item) => item.state)).toEqual(['queued', 'sending', 'needs-attention'])

    await handlers()['outbox:discard']({ operationId: id })
    expect(await handlers()['outbox:list'](null)).toEqual([])
    expect(await handlers()['app:status'](null)).toMatchObject({ outbox: { waiting: 0, needsAttention: 0 } })
    await expect(handlers()['outbox:retry']({ operationId: id })).rejects.toMatchObject({ code: 'not-found' })
  })

  it("names a post by its title, links a published one to its permalink, and names a deletion by the draft's title", async () => {
    const [weblog] = await handlers()['weblogs:list']({ accountId: account.id, refresh: true })
    const draft = await handlers()['drafts:create']({ accountId: account.id, weblogPostUri: weblog!.postUri })
    await handlers()['drafts:save']({ draftId: draft.id, title: 'Trams of Lisbon', content: '<p>The 28 climbs to Graça.</p>' })
    await handlers()['drafts:publish']({ draftId: draft.id })
    await fixture.core.sync.drain()

    const published = await handlers()['drafts:get']({ draftId: draft.id })
    expect(published.permalink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    expect(changes.at(-1)).toMatchObject({ kind: 'post.create', state: 'done', title: 'Trams of Lisbon', draftId: draft.id, resultUrl: published.permalink })

    await handlers()['drafts:remove']({ draftId: draft.id })
    await fixture.core.sync.drain()
    expect(changes.filter((item) => item.kind === 'post.delete').map((item) => [item.title, item.state])).toEqual([
      ['Trams of Lisbon', 'queued'],
      ['Trams of Lisbon', 'sending'],
      ['Trams of Lisbon', 'done'],
    ])
  })

  it("reports a photo's progress as it is sent, and links the sent photo", async () => {
    const [album] = (await handlers()['albums:list']({ accountId: account.id, refresh: true })).collections
    const image = await handlers()['media:importFile']({ path: photo })
    const { id } = fixture.core.sync.enqueuePhoto({ accountId: account.id, albumUri: album!.postUri, hash: image.hash, title: 'Sunset over the Tagus' })
    await fixture.core.sync.drain()

    expect(progress.length).toBeGreaterThan(0)
    expect(progress.every((step) => step.operationId === id && step.sent <= step.total)).toBe(true)
    expect(progress.at(-1)!.sent).toBe(progress.at(-1)!.total)
    expect(changes.at(-1)).toMatchObject({ id, kind: 'photo', state: 'done', title: 'Sunset over the Tagus', resultUrl: expect.stringMatching(/^http:\/\//) })
  })
})
