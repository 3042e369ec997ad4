// Drafts as the editor uses them, through the contract's handlers over a real core and the real service: writing,
// the history, publishing (Queued → Sending → Published), deleting, and settling a conflict with the weblog.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeEntry } from '../../../src-protocol'
import { melody, signedRequest, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import type { AccountSummary, DraftSummary, Weblog } from '../../../src-shared/contract'
import { AtomClient } from '..'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'
import { countWords } from './drafts'

describe('drafts', () => {
  let service: ServiceFixture
  let serviceStopped: boolean
  let fixture: CoreFixture
  let account: AccountSummary
  let weblog: Weblog
  let client: AtomClient
  /** Every drafts:changed the core announced, in order. */
  let changes: DraftSummary[]

  beforeEach(async () => {
    service = await startTestService([melody])
    serviceStopped = false
    fixture = await openTestCore()
    account = await fixture.core.accounts.add({ atomBase: service.origin, username: 'melody', apiPassword: melody.password })
    weblog = (await fixture.core.accounts.weblogs(account.id))[0]!
    client = new AtomClient({ fetch, credentials: async () => ({ username: 'melody', password: melody.password }) })
    changes = []
    fixture.core.onEvent((event, payload) => {
      if (event === 'drafts:changed') changes.push(payload as DraftSummary)
    })
  })

  afterEach(async () => {
    await fixture.dispose()
    if (!serviceStopped) await service.dispose()
  })

  const handlers = () => fixture.core.handlers
  const address = () => ({ accountId: account.id, weblogPostUri: weblog.postUri })
  const newDraft = async (title: string, content: string) => {
    const draft = await handlers()['drafts:create'](address())
    await handlers()['drafts:save']({ draftId: draft.id, title, content })
    return draft
  }
  const statesOf = (draftId: string) => changes.filter((change) => change.id === draftId).map((change) => change.state)

  it('keeps what is written, lists it with the first words of its text, and tells the list of every change', async () => {
    const draft = await handlers()['drafts:create'](address())
    expect(draft).toMatchObject({ title: '', content: '', categories: [], state: 'draft', permalink: null, conflict: null })

    const saved = await handlers()['drafts:save']({
      draftId: draft.id,
      title: 'Lisbon in March',
      content: `<h2>Trams</h2><p>The 28 climbs to Gra&#231;a &amp; back. ${'Every morning it rattles past. '.repeat(8)}</p>`,
      categories: ['Travel'],
    })
    expect(saved.excerpt).toMatch(/^Trams The 28 climbs to Graça & back\. Every morning/)
    expect(saved.excerpt.length).toBeLessThanOrEqual(161)
    expect(saved.excerpt).toMatch(/…$/)
    expect(changes.at(-1)).toMatchObject({ id: draft.id, title: 'Lisbon in March', state: 'draft' })

    expect(await handlers()['drafts:list']({ ...address(), after: null })).toEqual({ drafts: [saved], more: false })
    expect(await handlers()['drafts:get']({ draftId: draft.id })).toMatchObject({ title: 'Lisbon in March', categories: ['Travel'] })

    const reopened = await fixture.reopen()
    expect(await reopened.handlers['drafts:get']({ draftId: draft.id })).toMatchObject({ title: 'Lisbon in March', categories: ['Travel'] })
  })

  it('lists a weblog’s drafts a page at a time, the latest change first, each once while others change', async () => {
    const written: string[] = []
    for (let number = 1; number <= 120; number++) written.push((await newDraft(`Note ${number}`, `<p>Number ${number}.</p>`)).id)
    const page = (after: DraftSummary | null) => handlers()['drafts:list']({ ...address(), after: after && { updatedAt: after.updatedAt, id: after.id } })

    const first = await page(null)
    expect(first.more).toBe(true)
    // One on the next page is edited meanwhile: it moves to the top, where the list hears of it by drafts:changed.
    await handlers()['drafts:save']({ draftId: written[40]!, title: 'Note 41, revised' })
    const second = await page(first.drafts.at(-1)!)
    const third = await page(second.drafts.at(-1)!)
    expect(third.more).toBe(false)

    const read = [...first.drafts, ...second.drafts, ...third.drafts]
    const changedAt = read.map((draft) => draft.updatedAt)
    expect(changedAt, 'the latest change first').toEqual(changedAt.toSorted().reverse())
    const listed = read.map((draft) => draft.id)
    expect(new Set(listed).size).toBe(listed.length)
    expect([...listed, written[40]].sort()).toEqual([...written].sort())
    expect([first, second, third].map((each) => each.drafts.length)).toEqual([50, 50, 19])
    expect((await page(null)).drafts[0]).toMatchObject({ id: written[40], title: 'Note 41, revised' })
  })

  it('brings back an earlier version from the history, keeping the text it replaces', async () => {
    const draft = await newDraft('First thoughts', '<p>One two three.</p>')
    const [first] = await handlers()['drafts:revisions']({ draftId: draft.id })
    expect(first).toMatchObject({ title: 'First thoughts', excerpt: 'One two three.', words: 3 })
    await handlers()['drafts:restore']({ draftId: draft.id, revisionId: first!.id })
    await handlers()['drafts:save']({ draftId: draft.id, title: 'Second thoughts', content: '<p>Four five.</p>' })

    const history = await handlers()['drafts:revisions']({ draftId: draft.id })
    expect(history.map((revision) => revision.title)).toEqual(['Second thoughts', 'First thoughts', 'First thoughts'])
    const restored = await handlers()['drafts:restore']({ draftId: draft.id, revisionId: history[1]!.id })
    expect(restored).toMatchObject({ title: 'First thoughts', content: '<p>One two three.</p>' })
    expect(changes.at(-1)).toMatchObject({ id: draft.id, title: 'First thoughts' })
    expect((await handlers()['drafts:revisions']({ draftId: draft.id }))[1]).toMatchObject({ title: 'Second thoughts' })
  })

  it('keeps a revision for publishing, for writing offline and for a restore, each with its reason; a restore is undone by restoring what it replaced', async () => {
    const draft = await newDraft('Night train', '<p>Leaving Lisbon at ten.</p>')
    await handlers()['drafts:publish']({ draftId: draft.id })
    await fixture.core.sync.flush()
    await handlers()['drafts:publish']({ draftId: draft.id })
    fixture.platform.setOnline(false)
    await handlers()['drafts:save']({ draftId: draft.id, content: '<p>Leaving Lisbon at eleven, late.</p>' })
    await handlers()['drafts:save']({ draftId: draft.id, content: '<p>Leaving Lisbon at eleven, very late.</p>' })
    fixture.platform.setOnline(true)

    const history = await handlers()['drafts:revisions']({ draftId: draft.id })
    expect(history.map(({ reason, excerpt }) => [reason, excerpt]), 'publishing the same text twice makes one').toEqual([
      ['offline', 'Leaving Lisbon at eleven, very late.'],
      ['published', 'Leaving Lisbon at ten.'],
      ['edited', 'Leaving Lisbon at ten.'],
    ])
    const published = history[1]!
    expect(await handlers()['drafts:revision']({ draftId: draft.id, revisionId: published.id })).toMatchObject({
      title: 'Night train',
      content: '<p>Leaving Lisbon at ten.</p>',
      reason: 'published',
    })

    const restored = await handlers()['drafts:restore']({ draftId: draft.id, revisionId: published.id })
    expect(restored).toMatchObject({ content: '<p>Leaving Lisbon at ten.</p>', replacedRevisionId: history[0]!.id })
    const undone = await handlers()['drafts:restore']({ draftId: draft.id, revisionId: restored.replacedRevisionId })
    expect(undone.content).toBe('<p>Leaving Lisbon at eleven, very late.</p>')
    expect((await handlers()['drafts:revisions']({ draftId: draft.id })).map(({ reason, restoredFrom }) => [reason, restoredFrom])).toEqual([
      ['restored', history[0]!.id],
      ['restored', published.id],
      ['offline', null],
      ['published', null],
      ['edited', null],
    ])
    await expect(handlers()['drafts:revision']({ draftId: draft.id, revisionId: 999_999 })).rejects.toThrow('not in this draft’s history')
  })

  it('publishes: tells Queued at once, then Sending, then Published with the post’s page', async () => {
    const draft = await newDraft('Published from Blogdesk', '<p>Hello, weblog.</p>')

    const told = changes.length
    const queued = await handlers()['drafts:publish']({ draftId: draft.id })
    // Answered once the queue is on the disk; the service here is quick enough to have the post by then.
    expect(['queued', 'sending', 'published']).toContain(queued.state)
    await fixture.core.sync.drain()

    expect(changes.slice(told).map((change) => change.state)).toEqual(['queued', 'sending', 'published'])
    const published = changes.at(-1)!
    expect(published.permalink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    const page = await fetch(published.permalink!)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Hello, weblog.')
    expect(await handlers()['drafts:get']({ draftId: draft.id })).toMatchObject({ state: 'published', permalink: published.permalink })
  })

  it('moves a draft never published to the Trash, its queued publish dropped, and brings it back as it was', async () => {
    const unsent = await newDraft('Second thoughts', '<p>Not for the weblog after all.</p>')
    await service.dispose()
    serviceStopped = true
    await handlers()['drafts:publish']({ draftId: unsent.id })
    // The first attempt finds the service down; the publish waits in the queue to be tried again.
    await fixture.core.sync.flush()
    expect(await handlers()['drafts:get']({ draftId: unsent.id })).toMatchObject({ state: 'queued', lastError: expect.stringMatching(/reach/) })
    await handlers()['drafts:remove']({ draftId: unsent.id })
    expect(await handlers()['drafts:list']({ ...address(), after: null })).toEqual({ drafts: [], more: false })
    expect(fixture.core.sync.operations()).toEqual([])
    expect(changes.at(-1)).toMatchObject({ id: unsent.id, state: 'deleted' })
    await expect(handlers()['drafts:get']({ draftId: unsent.id })).rejects.toThrow('“Second thoughts” is in the Trash')
    await expect(handlers()['drafts:publish']({ draftId: unsent.id })).rejects.toThrow('“Second thoughts” is in the Trash')
    expect(await handlers()['drafts:trash'](address())).toEqual([
      { id: unsent.id, ...address(), title: 'Second thoughts', excerpt: 'Not for the weblog after all.', trashedAt: expect.any(String) },
    ])

    // The Trash survives a restart; restoring brings back the text and its history, as a draft not queued.
    const reopened = await fixture.reopen()
    const restored = await reopened.handlers['drafts:untrash']({ draftId: unsent.id })
    expect(restored).toMatchObject({ title: 'Second thoughts', content: '<p>Not for the weblog after all.</p>', state: 'draft' })
    expect(await reopened.handlers['drafts:list']({ ...address(), after: null })).toMatchObject({ drafts: [{ id: unsent.id }] })
    expect(await reopened.handlers['drafts:revisions']({ draftId: unsent.id })).toMatchObject([
      { title: 'Second thoughts', reason: 'published' },
      { title: 'Second thoughts', reason: 'edited' },
    ])
    expect(await reopened.handlers['drafts:trash'](address())).toEqual([])
  })

  it('deletes a draft for good only from the Trash, and refuses to trash one being sent', async () => {
    const draft = await newDraft('Gone for good', '<p>Really.</p>')
    await expect(handlers()['drafts:deleteForever']({ draftId: draft.id })).rejects.toThrow('“Gone for good” is not in the Trash')
    await handlers()['drafts:remove']({ draftId: draft.id })
    await handlers()['drafts:deleteForever']({ draftId: draft.id })
    expect(await handlers()['drafts:trash'](address())).toEqual([])
    await expect(handlers()['drafts:untrash']({ draftId: draft.id })).rejects.toThrow('That draft is no longer in Blogdesk')

    const sending = await newDraft('On the wire', '<p>Leaving now.</p>')
    let removal: Promise<unknown> | null = null
    fixture.core.sync.on('changed', ({ operation }) => {
      if (operation?.state === 'sending' && removal === null) removal = handlers()['drafts:remove']({ draftId: sending.id }).catch((error: unknown) => error)
    })
    await handlers()['drafts:publish']({ draftId: sending.id })
    await fixture.core.sync.drain()
    expect(await removal).toMatchObject({ message: expect.stringMatching(/being sent to the weblog right now/) })
    expect(await handlers()['drafts:trash'](address())).toEqual([])
  })

  it('queues the deletion of a published post, and it leaves the weblog', async () => {
    const draft = await newDraft('Here today', '<p>Gone tomorrow.</p>')
    await handlers()['drafts:publish']({ draftId: draft.id })
    await fixture.core.sync.drain()
    const editUri = await publishedEditUri(draft.id)

    const told = changes.length
    await handlers()['drafts:remove']({ draftId: draft.id })
    await fixture.core.sync.drain()

    const states = changes.slice(told).map((change) => change.state)
    expect(states[0]).toBe('deleting')
    expect(states.at(-1)).toBe('deleted')
    expect(await handlers()['drafts:list']({ ...address(), after: null })).toEqual({ drafts: [], more: false })
    await expect(client.getPost(editUri)).rejects.toMatchObject({ kind: 'not-found' })
  })

  describe('a conflict with the weblog', () => {
    /** A published draft, edited here after someone changed its post on the weblog, and published again: in conflict. */
    async function conflicted(): Promise<{ draftId: string; editUri: string }> {
      const draft = await newDraft('Shared post', '<p>first</p>')
      await handlers()['drafts:publish']({ draftId: draft.id })
      await fixture.core.sync.drain()
      const editUri = await publishedEditUri(draft.id)
      const theirs = writeEntry({ title: 'Shared post (theirs)', content: { mode: 'escaped', type: 'text/html', value: '<p>theirs</p>' } })
      const put = await signedRequest(editUri, { username: 'melody', password: melody.password }, { method: 'PUT', body: theirs })
      expect(put.status).toBe(200)
      await handlers()['drafts:save']({ draftId: draft.id, content: '<p>mine</p>' })
      await handlers()['drafts:publish']({ draftId: draft.id })
      await fixture.core.sync.drain()
      expect(await handlers()['drafts:get']({ draftId: draft.id })).toMatchObject({
        state: 'conflict',
        content: '<p>mine</p>',
        conflict: { title: 'Shared post (theirs)', content: '<p>theirs</p>', categories: [] },
      })
      return { draftId: draft.id, editUri }
    }

    it('keeps mine: publishes ours over the weblog’s', async () => {
      const { draftId, editUri } = await conflicted()
      expect(await handlers()['drafts:resolveConflict']({ draftId, choice: 'mine', merged: null })).toMatchObject({ conflict: null })
      await fixture.core.sync.drain()
      expect(await client.getPost(editUri)).toMatchObject({ title: 'Shared post', content: '<p>mine</p>' })
      expect(statesOf(draftId).at(-1)).toBe('published')
    })

    it('keeps theirs: the draft takes the weblog’s text and nothing is sent', async () => {
      const { draftId, editUri } = await conflicted()
      const kept = await handlers()['drafts:resolveConflict']({ draftId, choice: 'theirs', merged: null })
      expect(kept).toMatchObject({ state: 'published', title: 'Shared post (theirs)', content: '<p>theirs</p>', conflict: null })
      expect(changes.at(-1)).toMatchObject({ id: draftId, state: 'published' })
      expect(fixture.core.sync.operations()).toEqual([])
      expect(await client.getPost(editUri)).toMatchObject({ content: '<p>theirs</p>' })
      expect((await handlers()['drafts:revisions']({ draftId })).map((revision) => revision.excerpt)).toContain('mine')
    })

    it('merged by hand: saves the merged text and publishes it', async () => {
      const { draftId, editUri } = await conflicted()
      const merged = { title: 'Shared post', content: '<p>theirs</p><p>mine</p>', categories: [] }
      expect(await handlers()['drafts:resolveConflict']({ draftId, choice: 'merged', merged })).toMatchObject({ conflict: null, ...merged })
      await fixture.core.sync.drain()
      expect(statesOf(draftId).at(-1)).toBe('published')
      expect((await handlers()['drafts:revisions']({ draftId })).map((revision) => revision.excerpt)).toContain('mine')
      expect(await client.getPost(editUri)).toMatchObject({ content: '<p>theirs</p><p>mine</p>' })
      await expect(handlers()['drafts:resolveConflict']({ draftId, choice: 'theirs', merged: null })).rejects.toThrow(/no longer in conflict/)
    })
  })

  async function publishedEditUri(draftId: string): Promise<string> {
    const permalink = (await handlers()['drafts:get']({ draftId })).permalink
    const page = await client.feedPage(weblog.feedUri!)
    const post = page.posts.find((candidate) => candidate.permalink === permalink)
    if (!post) throw new Error(`The post at ${permalink} is not in the weblog's feed.`)
    return post.editUri
  }
})

describe('countWords', () => {
  it('counts words as a reader would, not markup or entities', () => {
    expect(countWords('<h2>Café&nbsp;au lait</h2><p>it&#39;s <em>twenty-one</em> &amp; counting</p>')).toBe(6)
    expect(countWords('<p></p><img src="blogdesk-media:ab">')).toBe(0)
  })
})
