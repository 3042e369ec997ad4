// The weblog's published posts and categories, as the posts list, the editor and the category picker ask for them:
// against the real service over HTTP, and against Movable Type's recorded answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import type { Store } from '../../../src-service/store'
import type { AccountSummary, Event, RemotePostRef, Weblog } from '../../../src-shared/contract'
import { AtomClient } from '..'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'
import { readCapturedResponse, startReplayPeer, type ReplayPeer } from '../testing/replay-peer'

const SEEDED_POSTS = 25

/** Melody's first weblog: posts "Post 1" (oldest) to "Post 25", filed under Music or Travel. */
async function seedPosts(store: Store): Promise<void> {
  const author = (await store.users.find('melody'))!
  const [weblog] = await store.weblogs.ownedBy(author.id)
  const music = await store.categories.add(weblog!.id, 'Music')
  const travel = await store.categories.add(weblog!.id, 'Travel')
  for (let number = 1; number <= SEEDED_POSTS; number++) {
    const issued = new Date(Date.UTC(2026, 0, number, 9)).toISOString().replace('.000Z', 'Z')
    await store.posts.create(
      weblog!.id,
      author.id,
      {
        title: `Post ${number}`,
        content: `<p>Body of post <em>${number}</em> &amp; more</p>`,
        contentKind: 'xhtml',
        summary: null,
        issued,
        categories: [number % 2 === 0 ? music : travel],
      },
      issued,
    )
  }
}

describe('posts and categories', () => {
  let service: ServiceFixture
  let serviceStopped: boolean
  let fixture: CoreFixture
  let account: AccountSummary
  let weblog: Weblog
  let events: Event[]

  beforeEach(async () => {
    service = await startTestService([melody], seedPosts)
    serviceStopped = false
    fixture = await openTestCore()
    account = await fixture.core.accounts.add({ atomBase: service.origin, username: 'melody', apiPassword: melody.password })
    weblog = (await fixture.core.accounts.weblogs(account.id))[0]!
    events = []
    fixture.core.onEvent((event) => events.push(event))
  })

  afterEach(async () => {
    await fixture.dispose()
    if (!serviceStopped) await service.dispose()
  })

  const handlers = () => fixture.core.handlers
  const address = () => ({ accountId: account.id, weblogPostUri: weblog.postUri })
  const firstPage = () => handlers()['posts:page']({ ...address(), pageUri: null })
  const serverClient = () => new AtomClient({ fetch, credentials: async () => ({ username: 'melody', password: melody.password }) })

  async function postRef(title: string): Promise<RemotePostRef> {
    const post = (await firstPage()).posts.find((candidate) => candidate.title === title)!
    return { ...address(), editUri: post.editUri }
  }

  describe('the posts list', () => {
    it('pages through the weblog’s posts, newest first, to the oldest', async () => {
      const first = await firstPage()
      expect(first.offline).toBe(false)
      expect(first.fetchedAt).not.toBeNull()
      expect(first.posts).toHaveLength(20)
      expect(first.posts[0]).toEqual({
        editUri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        title: 'Post 25',
        excerpt: 'Body of post 25 & more',
        permalink: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        issued: '2026-01-25T09:00:00Z',
        categories: ['Travel'],
        draftId: null,
        localEdit: null,
      })
      expect(first.next).not.toBeNull()

      const second = await handlers()['posts:page']({ ...address(), pageUri: first.next })
      expect(second.next).toBeNull()
      const titles = [...first.posts, ...second.posts].map((post) => post.title)
      expect(titles).toEqual(Array.from({ length: SEEDED_POSTS }, (_, index) => `Post ${SEEDED_POSTS - index}`))
    })

    it('shows the pages last read while the computer is offline, saying when they were read', async () => {
      const online = await firstPage()
      fixture.platform.setOnline(false)

      const offline = await firstPage()
      expect(offline).toEqual({ ...online, offline: true })
      await expect(handlers()['posts:page']({ ...address(), pageUri: online.next })).rejects.toMatchObject({
        code: 'offline',
        message: expect.stringMatching(/offline and the posts of “Valse de Melody” have not been loaded here before/),
      })
    })

    it('shows the pages last read when the server cannot be reached, and says why when it has none', async () => {
      const online = await firstPage()
      await service.dispose()
      serviceStopped = true

      expect(await firstPage()).toEqual({ ...online, offline: true })
      await expect(handlers()['posts:page']({ ...address(), pageUri: online.next })).rejects.toMatchObject({ code: 'offline' })
    })

    it('refuses to follow an address on another server with the account’s password', async () => {
      await expect(handlers()['posts:page']({ ...address(), pageUri: 'http://127.0.0.2:9/feed' })).rejects.toMatchObject({
        code: 'invalid-argument',
      })
      await expect(handlers()['posts:edit']({ ...address(), editUri: 'http://127.0.0.2:9/entry_id=1' })).rejects.toMatchObject({
        code: 'invalid-argument',
      })
    })
  })

  describe('editing a published post', () => {
    it('opens it as a published draft with the server’s text, once however often it is opened', async () => {
      const ref = await postRef('Post 24')
      const [draft, again] = await Promise.all([handlers()['posts:edit'](ref), handlers()['posts:edit'](ref)])
      expect(draft).toMatchObject({
        title: 'Post 24',
        content: '<p>Body of post <em>24</em> &amp; more</p>',
        categories: ['Music'],
        state: 'published',
        permalink: expect.stringMatching(/^http:/),
        conflict: null,
      })
      expect(again.id).toBe(draft.id)
      expect((await handlers()['posts:edit'](ref)).id).toBe(draft.id)
      expect(events).toEqual(['drafts:changed'])
      expect((await firstPage()).posts.find((post) => post.editUri === ref.editUri)?.draftId).toBe(draft.id)
    })

    it('publishes the edit over the server’s copy without calling it a conflict', async () => {
      const ref = await postRef('Post 23')
      const draft = await handlers()['posts:edit'](ref)
      await handlers()['drafts:save']({ draftId: draft.id, title: 'Post 23, revised', categories: ['Music', 'Travel'] })
      fixture.core.sync.publish(draft.id)
      await fixture.core.sync.drain()

      expect(await handlers()['posts:edit'](ref)).toMatchObject({ id: draft.id, state: 'published', conflict: null })
      expect(await serverClient().getPost(ref.editUri)).toMatchObject({
        title: 'Post 23, revised',
        content: '<p>Body of post <em>23</em> &amp; more</p>',
        categories: ['Music', 'Travel'],
      })
    })

    it('opens it from the page last read when the computer is offline', async () => {
      const ref = await postRef('Post 22')
      fixture.platform.setOnline(false)
      expect(await handlers()['posts:edit'](ref)).toMatchObject({ title: 'Post 22', state: 'published', categories: ['Music'] })
    })
  })

  describe('deleting a published post', () => {
    it('leaves the list at once, and the server once the outbox has sent it', async () => {
      const ref = await postRef('Post 21')
      await handlers()['posts:delete'](ref)
      expect((await firstPage()).posts.map((post) => post.title)).not.toContain('Post 21')
      expect(events.at(-1)).toBe('drafts:changed')

      await fixture.core.sync.drain()
      await expect(serverClient().getPost(ref.editUri)).rejects.toMatchObject({ kind: 'not-found' })
      const titles = (await firstPage()).posts.map((post) => post.title)
      expect(titles).not.toContain('Post 21')
      expect(titles).toContain('Post 22')
    })

    it('deletes a post already open in the editor through its draft', async () => {
      const ref = await postRef('Post 20')
      const draft = await handlers()['posts:edit'](ref)
      await handlers()['posts:delete'](ref)
      await handlers()['posts:delete'](ref)
      await fixture.core.sync.drain()
      // A click that comes after the deletion went out finds the post gone, as asked.
      await handlers()['posts:delete'](ref)
      expect(fixture.core.sync.operations()).toEqual([])
      await expect(serverClient().getPost(ref.editUri)).rejects.toMatchObject({ kind: 'not-found' })
      expect((await handlers()['posts:page']({ ...address(), pageUri: null })).posts.some((post) => post.draftId === draft.id)).toBe(false)
    })
  })

  describe('categories', () => {
    it('reads them from the server when asked, keeps them, and shows one added there after a refresh', async () => {
      const list = (refresh: boolean) => handlers()['categories:list']({ ...address(), refresh })
      const read = await list(true)
      expect(read).toEqual({ categories: ['Music', 'Travel'], fetchedAt: expect.any(String), problem: null })

      await service.withStore(async (store) => { await store.categories.add((await store.weblogs.ownedBy((await store.users.find('melody'))!.id))[0]!.id, 'Kitchen') })
      expect(await list(false)).toEqual(read)
      expect((await list(true)).categories).toEqual(['Kitchen', 'Music', 'Travel'])
    })

    it('answers from what was last read while offline, and says so', async () => {
      const read = await handlers()['categories:list']({ ...address(), refresh: true })
      fixture.platform.setOnline(false)
      expect(await handlers()['categories:list']({ ...address(), refresh: true })).toEqual({
        ...read,
        problem: 'This computer is offline: these are the weblog’s categories as last read from the server.',
      })
    })

    it('says they will come once online when they were never read', async () => {
      fixture.platform.setOnline(false)
      expect(await handlers()['categories:list']({ ...address(), refresh: false })).toEqual({
        categories: [],
        fetchedAt: null,
        problem: expect.stringMatching(/offline, and the weblog’s categories have not been read here before/),
      })
    })

    it('reads them the first time without being asked to refresh', async () => {
      expect((await handlers()['categories:list']({ ...address(), refresh: false })).categories).toEqual(['Music', 'Travel'])
    })
  })
})

describe('posts and categories on Movable Type', () => {
  const recordedOrigin = 'http://127.0.0.1:5080'
  const root = '/cgi-bin/mt-atom.cgi/weblog'
  const feed = `${root}/blog_id=2`
  let peer: ReplayPeer
  let fixture: CoreFixture

  afterEach(async () => {
    await fixture.dispose()
    await peer.close()
  })

  async function setUp(listing = readCapturedResponse('mt/ok/01-root-weblogs.txt')) {
    peer = await startReplayPeer(
      {
        [root]: listing,
        [feed]: readCapturedResponse('mt/err/06-replayed-nonce.txt'),
        [`${feed}/offset=5`]: readCapturedResponse('mt/ok/12-feed-limit1-offset1.txt'),
        [`${feed}/svc=categories`]: readCapturedResponse('mt/ok/07-categories.txt'),
      },
      { recordedOrigin },
    )
    fixture = await openTestCore()
    const account = await fixture.core.accounts.add({ atomBase: `${peer.origin}${root}`, username: 'Melody', apiPassword: 'secret' })
    return { accountId: account.id, weblogPostUri: `${peer.origin}${feed}` }
  }

  it('pages the feed by offset= segments and reads the categories', async () => {
    const address = await setUp()
    const first = await fixture.core.handlers['posts:page']({ ...address, pageUri: null })
    expect(first.posts).toHaveLength(5)
    expect(first.next).toBe(`${peer.origin}${feed}/offset=5`)
    const second = await fixture.core.handlers['posts:page']({ ...address, pageUri: first.next })
    expect(second).toMatchObject({ posts: [{ title: 'Atom 1.0 body to legacy' }], next: null, offline: false })

    const categories = await fixture.core.handlers['categories:list']({ ...address, refresh: true })
    expect(categories).toMatchObject({ categories: ['News', 'Peer Testing'], problem: null })
  })

  it('says so when the weblog announces no CategoryURI', async () => {
    const listing = readCapturedResponse('mt/ok/01-root-weblogs.txt')
    const address = await setUp({ ...listing, body: listing.body.replace(/ *<link rel="service\.categories"[^>]*\/>\n/g, '') })
    expect(await fixture.core.handlers['categories:list']({ ...address, refresh: true })).toEqual({
      categories: [],
      fetchedAt: null,
      problem: 'The server of “Peer Blog #2” announces no CategoryURI, so Blogdesk cannot list its categories.',
    })
  })
})
