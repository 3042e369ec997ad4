// The accounts, weblogs and app namespaces through the contract's handlers, over a real core and the real service:
// the built-in sandbox in one call, the JSON side's OAuth sign-in in a shown page, a new API password ending a pause,
// removing an account with everything kept for it, and the app's status as connectivity and the outbox change.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { NS } from '../../../src-protocol'
import { melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import type { AccountSummary, AppStatus, Event, Events } from '../../../src-shared/contract'
import { FileVault, openCore, type Core } from '..'
import type { Fetch } from '../atom'
import { LocalStore } from '../store'
import { approveSignIn } from '../testing/authorize-page'
import { openTestCore, testCipher, type CoreFixture } from '../testing/core-fixture'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'
import { createTestPlatform } from '../testing/test-platform'

const photo = join(import.meta.dirname, '../../../resources/demo-photos/tram-28.jpg')
const otherPhoto = join(import.meta.dirname, '../../../resources/demo-photos/azulejos.jpg')

/** Every contract event the core announced, in order. */
function recordEvents(core: Core): { of<E extends Event>(event: E): Events[E][] } {
  const seen: [Event, unknown][] = []
  core.onEvent((event, payload) => void seen.push([event, payload]))
  return { of: <E extends Event>(event: E) => seen.filter(([name]) => name === event).map(([, payload]) => payload as Events[E]) }
}

/** Resolves once the sync engine has said something that `test` accepts. */
function syncSays(core: Core, test: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (test()) return resolve()
    const stop = core.sync.on('changed', () => {
      if (!test()) return
      stop()
      resolve()
    })
  })
}

describe('accounts handlers', () => {
  let sandbox: SandboxService
  beforeAll(async () => {
    sandbox = await startSandboxService()
  })
  afterAll(async () => {
    await sandbox.dispose()
  })

  let fixture: CoreFixture
  beforeEach(async () => {
    fixture = await openTestCore()
  })
  afterEach(async () => {
    await fixture.dispose()
  })

  const handlers = () => fixture.core.handlers
  const addSandboxAccount = () =>
    handlers()['accounts:add']({ atomBase: sandbox.sandbox.atomBase, username: sandbox.sandbox.username, apiPassword: sandbox.sandbox.apiPassword })
  const consumer = () => ({ jsonBase: sandbox.sandbox.jsonBase, apiKey: sandbox.sandbox.apiKey, apiSecret: sandbox.sandbox.apiSecret })

  it('tries the built-in sandbox in one call: both sides of its demo account, and the same account when asked again', async () => {
    const events = recordEvents(fixture.core)
    const account = await handlers()['accounts:trySandbox'](null)
    const started = fixture.platform.sandbox!.sandbox
    expect(account).toMatchObject({
      username: started.username,
      atomBase: started.atomBase,
      json: { jsonBase: started.jsonBase, username: started.username },
      paused: null,
    })
    expect((await handlers()['weblogs:list']({ accountId: account.id, refresh: true })).length).toBeGreaterThan(0)
    // Once its weblogs are read, the account is called by its first weblog and the user.
    const named = { ...account, label: `Valse de Melody — ${started.username}` }
    expect(events.of('accounts:changed').at(-1)).toEqual([named])

    expect(await handlers()['accounts:trySandbox'](null)).toEqual(named)
    expect(await handlers()['accounts:list'](null)).toEqual([named])
  })

  it('names an account by its first weblog and the user once its weblogs are read, and says so to the window', async () => {
    const events = recordEvents(fixture.core)
    const added = await addSandboxAccount()
    expect(added.label, 'before its weblogs are read: the server').toBe(`${sandbox.sandbox.username} @ ${new URL(sandbox.sandbox.atomBase).host}`)
    const [first] = await handlers()['weblogs:list']({ accountId: added.id, refresh: true })
    const named = `${first!.title} — ${sandbox.sandbox.username}`
    expect((await handlers()['accounts:list'](null)).map((account) => account.label)).toEqual([named])
    expect(events.of('accounts:changed').at(-1)?.map((account) => account.label)).toEqual([named])
    // Reading the same weblogs again renames nothing and announces nothing.
    const announced = events.of('accounts:changed').length
    await handlers()['weblogs:list']({ accountId: added.id, refresh: true })
    expect(events.of('accounts:changed')).toHaveLength(announced)
  })

  it('connects the JSON side: the authorize page is shown, the person approves, the page closes and the account says so', async () => {
    const account = await addSandboxAccount()
    const events = recordEvents(fixture.core)
    fixture.platform.onAuthorizePage((url) => approveSignIn(url, { username: sandbox.sandbox.username, password: sandbox.sandbox.loginPassword }))

    const connected = await handlers()['accounts:connectJson']({ accountId: account.id, ...consumer() })
    expect(connected).toEqual({ ...account, json: { jsonBase: sandbox.sandbox.jsonBase, username: sandbox.sandbox.username } })
    expect(fixture.platform.authorizePages).toEqual([{ url: expect.stringContaining('/oauth/authorize?oauth_token='), closed: true }])
    expect(events.of('accounts:changed').at(-1)).toEqual([connected])
  })

  it('stops waiting for a sign-in when the person cancels, closes the page, and keeps nothing', async () => {
    const account = await addSandboxAccount()
    const shown = new Promise<void>((resolve) => fixture.platform.onAuthorizePage(() => resolve()))
    const connecting = handlers()['accounts:connectJson']({ accountId: account.id, ...consumer() })
    const outcome = expect(connecting).rejects.toMatchObject({ code: 'auth', message: expect.stringMatching(/cancelled before it was finished/) })
    await shown

    await handlers()['accounts:cancelSignIn']({ accountId: account.id })
    await outcome
    expect(fixture.platform.authorizePages.map((page) => page.closed)).toEqual([true])
    expect(await handlers()['accounts:list'](null)).toEqual([account])
  })

  it('refuses a wrong API secret before showing any page', async () => {
    const account = await addSandboxAccount()
    await expect(handlers()['accounts:connectJson']({ accountId: account.id, ...consumer(), apiSecret: 'not-the-secret' })).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/refused the API key .* with that consumer secret/),
    })
    expect(fixture.platform.authorizePages).toEqual([])
  })

  it('opens only web pages in the browser', async () => {
    await handlers()['app:openExternal']({ url: 'https://example.com/post' })
    await expect(handlers()['app:openExternal']({ url: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'invalid-argument' })
    expect(fixture.platform.openedLinks).toEqual(['https://example.com/post'])
  })

  it('shows the weblogs as last seen while the server cannot be reached, so the drafts stay at hand', async () => {
    const account = await addSandboxAccount()
    const weblogs = await handlers()['weblogs:list']({ accountId: account.id, refresh: true })
    fixture.platform.setOnline(false)
    expect(await handlers()['weblogs:list']({ accountId: account.id, refresh: true })).toEqual(weblogs)
  })

  it('tells the status when the connection goes and comes, and tries what waits at once when it is back', async () => {
    const { core, platform } = fixture
    const account = await addSandboxAccount()
    const list = (await core.handlers['lists:list']({ accountId: account.id, refresh: true })).collections.find((each) => each.title === 'Specifications')
    const events = recordEvents(core)
    await sandbox.stop()
    const operation = core.sync.enqueueListItem({
      accountId: account.id,
      listUri: list!.postUri,
      item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/later', title: 'Sent when back' } },
    })
    await syncSays(core, () => core.sync.operation(operation.id)!.nextAttemptAt > Date.now())
    platform.setOnline(false)
    expect(await core.handlers['app:status'](null)).toEqual({
      online: false,
      outbox: { waiting: 1, needsAttention: 0 },
      paused: [],
      connection: { state: 'offline', accountId: null, host: null, waiting: 0, nextTryAt: null, reason: null },
      accounts: [],
    })
    await sandbox.restart()

    platform.setOnline(true)
    expect(core.sync.operation(operation.id)!.nextAttemptAt, 'due at once, not at its backoff time').toBeLessThanOrEqual(Date.now())
    await core.sync.drain()
    expect(core.sync.operation(operation.id)).toMatchObject({ state: 'done', lastError: null })
    // Told once per change of what the person sees (the next try's time moves while the server is out of reach).
    const seen = events.of('app:statusChanged').map((status: AppStatus) => [status.online, status.connection.state, status.outbox.waiting].join(' '))
    expect(seen.filter((shown, index) => shown !== seen[index - 1])).toEqual([
      'true online 1',
      'true unreachable 1',
      'false offline 1',
      'true unreachable 1',
      'true online 1',
      'true online 0',
    ])
  })
})

describe('a paused account', () => {
  let service: ServiceFixture
  let fixture: CoreFixture
  beforeEach(async () => {
    service = await startTestService([melody], async (store) => { await store.lists.add({ ownerId: (await store.users.find('melody'))!.id, title: 'Links', type: 'links' }) })
    fixture = await openTestCore()
  })
  afterEach(async () => {
    await fixture.dispose()
    await service.dispose()
  })

  it('says why it is paused, refuses a wrong new password, and goes on publishing with the right one', async () => {
    const account = await fixture.core.handlers['accounts:add']({ atomBase: service.origin, username: 'melody', apiPassword: melody.password })
    const [list] = await fixture.core.handlers['lists:list']({ accountId: account.id, refresh: true }).then((listing) => listing.collections)
    // The API password changed on the server while Blogdesk was closed: what it keeps no longer works.
    await new FileVault(join(fixture.dataDir, 'secrets.bin'), testCipher).set(`account:${account.id}:api-password`, 'the-old-password')
    const core = await fixture.reopen()
    const events = recordEvents(core)

    const operation = core.sync.enqueueListItem({
      accountId: account.id,
      listUri: list!.postUri,
      item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/paused', title: 'Waiting for the password' } },
    })
    await syncSays(core, () => core.sync.pausedAccounts().length > 0)

    const [paused] = await core.handlers['accounts:list'](null)
    expect(paused!.paused).toMatch(/refused the sign-in/)
    expect(events.of('accounts:changed').at(-1)).toEqual([paused])
    const signedOut = {
      state: 'signed-out',
      accountId: account.id,
      host: new URL(service.origin).host,
      waiting: 0,
      nextTryAt: null,
      reason: paused!.paused,
    }
    expect(events.of('app:statusChanged').at(-1)).toEqual({
      online: true,
      outbox: { waiting: 1, needsAttention: 0 },
      paused: [{ accountId: account.id, reason: paused!.paused }],
      connection: signedOut,
      accounts: [{ accountId: account.id, connection: signedOut }],
    })

    await expect(core.handlers['accounts:updatePassword']({ accountId: account.id, apiPassword: 'still-wrong' })).rejects.toMatchObject({ code: 'auth' })
    expect(core.sync.pausedAccounts()).toHaveLength(1)

    const resumed = await core.handlers['accounts:updatePassword']({ accountId: account.id, apiPassword: melody.password })
    expect(resumed).toEqual({ ...account, paused: null })
    await core.sync.drain()
    expect(core.sync.operation(operation.id)).toMatchObject({ state: 'done' })
    expect(events.of('accounts:changed').at(-1)).toEqual([resumed])
    expect(events.of('app:statusChanged').at(-1)).toMatchObject({ online: true, outbox: { waiting: 0, needsAttention: 0 }, paused: [], accounts: [] })
  })
})

describe('removing an account', () => {
  let sandbox: SandboxService
  let other: ServiceFixture
  beforeAll(async () => {
    sandbox = await startSandboxService()
    other = await startTestService([melody], async (store) => { await store.lists.add({ ownerId: (await store.users.find('melody'))!.id, title: 'Specifications', type: 'links' }) })
  })
  afterAll(async () => {
    await sandbox.dispose()
    await other.dispose()
  })

  let fixture: CoreFixture
  beforeEach(async () => {
    fixture = await openTestCore()
  })
  afterEach(async () => {
    await fixture.dispose()
  })

  it('forgets the account and everything kept for it, and nothing of another account', async () => {
    const { core, dataDir } = fixture
    const { handlers } = core
    const { sandbox: demo } = sandbox
    const removed = await handlers['accounts:trySandbox'](null)
    const kept = await handlers['accounts:add']({ atomBase: other.origin, username: 'melody', apiPassword: melody.password })
    const [removedWeblog] = await handlers['weblogs:list']({ accountId: removed.id, refresh: true })
    const [keptWeblog] = await handlers['weblogs:list']({ accountId: kept.id, refresh: true })

    // A draft with its history and an image of its own, and an image it shares with the other account's draft.
    const own = await handlers['media:importFile']({ path: photo })
    const shared = await handlers['media:importFile']({ path: otherPhoto })
    const draft = await handlers['drafts:create']({ accountId: removed.id, weblogPostUri: removedWeblog!.postUri })
    await handlers['drafts:save']({ draftId: draft.id, title: 'Trams', content: `<p><img src="blogdesk-media:${own.hash}"></p>` })
    await handlers['drafts:save']({ draftId: draft.id, content: `<p><img src="blogdesk-media:${shared.hash}"></p>` })
    const keptDraft = await handlers['drafts:create']({ accountId: kept.id, weblogPostUri: keptWeblog!.postUri })
    await handlers['drafts:save']({ draftId: keptDraft.id, title: 'Tiles', content: `<p><img src="blogdesk-media:${shared.hash}"></p>` })
    // An operation that needs attention (an album that is not there), a friend and their cached events.
    core.sync.enqueuePhoto({ accountId: removed.id, albumUri: `${demo.atomBase}/t/atom/gallery/album_id=999999`, hash: own.hash, title: 'Tram 28' })
    await core.sync.drain()
    expect(core.sync.counts()).toEqual({ waiting: 0, needsAttention: 1 })
    const friend = await core.feed.addFriend(removed.id, 'jane')
    await core.feed.refresh(friend.id)
    expect(core.feed.events(friend.id, 0, 10).length).toBeGreaterThan(0)
    const events = recordEvents(core)

    expect(await handlers['accounts:remove']({ accountId: removed.id })).toBeNull()

    const keptNamed = { ...kept, label: `${melody.weblogs[0]!.title} — melody` }
    expect(await handlers['accounts:list'](null)).toEqual([keptNamed])
    expect(events.of('accounts:changed').at(-1)).toEqual([keptNamed])
    expect(await handlers['app:status'](null)).toMatchObject({ outbox: { waiting: 0, needsAttention: 0 } })
    expect(await handlers['outbox:list'](null)).toEqual([])
    await expect(handlers['weblogs:list']({ accountId: removed.id, refresh: true })).rejects.toMatchObject({ code: 'not-found' })
    expect(existsSync(join(dataDir, 'media', `${own.hash}.jpg`)), 'in nothing else').toBe(false)
    expect(existsSync(join(dataDir, 'media', `${shared.hash}.jpg`)), 'still in the other account’s draft').toBe(true)
    const secrets = Object.keys(JSON.parse(readFileSync(join(dataDir, 'secrets.bin'), 'utf8')) as object)
    expect(secrets.filter((key) => key.includes(removed.id))).toEqual([])
    expect(secrets.filter((key) => key.includes(kept.id))).toEqual([`account:${kept.id}:api-password`])

    const core2 = await fixture.reopen()
    expect(await core2.handlers['drafts:get']({ draftId: keptDraft.id })).toMatchObject({ title: 'Tiles' })
    await core2.close()
    const store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
    try {
      const rowsOf = (table: string) => Number(store.get(`SELECT COUNT(*) AS n FROM ${table} WHERE account_id = :accountId`, { accountId: removed.id })!['n'])
      expect(['drafts', 'caches', 'outbox', 'friends'].map(rowsOf)).toEqual([0, 0, 0, 0])
      expect(store.get('SELECT COUNT(*) AS n FROM draft_revisions WHERE draft_id = :draftId', { draftId: draft.id })!['n']).toBe(0)
      expect(store.get('SELECT COUNT(*) AS n FROM friend_events WHERE friend_id = :friendId', { friendId: friend.id })!['n']).toBe(0)
      expect(store.get('SELECT COUNT(*) AS n FROM media_copies WHERE hash = :hash', { hash: own.hash })!['n']).toBe(0)
    } finally {
      store.close()
    }
  })

  it('waits for an operation on the wire to finish before forgetting the account, and the outbox goes on for the others', async () => {
    // The service answers this account's POSTs only when the test lets it, so one is surely on the wire at removal.
    let letThrough!: () => void
    const gate = new Promise<void>((resolve) => (letThrough = resolve))
    const gatedFetch: Fetch = async (input, init) => {
      if (init?.method === 'POST' && String(input).startsWith(sandbox.sandbox.atomBase)) await gate
      return fetch(input, init)
    }
    const platform = createTestPlatform(fixture.dataDir)
    const core = await openCore({ dataDir: join(fixture.dataDir, 'gated'), platform, vault: new FileVault(join(fixture.dataDir, 'gated', 'secrets.bin'), testCipher), fetch: gatedFetch })
    try {
      const { sandbox: demo } = sandbox
      const removed = await core.handlers['accounts:add']({ atomBase: demo.atomBase, username: demo.username, apiPassword: demo.apiPassword })
      const kept = await core.handlers['accounts:add']({ atomBase: other.origin, username: 'melody', apiPassword: melody.password })
      const listOf = async (account: AccountSummary) => (await core.handlers['lists:list']({ accountId: account.id, refresh: true })).collections.find((each) => each.title === 'Specifications')!
      const [removedList, keptList] = [await listOf(removed), await listOf(kept)]
      const sending = core.sync.enqueueListItem({ accountId: removed.id, listUri: removedList.postUri, item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/a' } } })
      await syncSays(core, () => core.sync.operation(sending.id)?.state === 'sending')

      const removal = core.handlers['accounts:remove']({ accountId: removed.id })
      await new Promise((resolve) => setImmediate(resolve))
      expect(await core.handlers['accounts:list'](null), 'not removed while its request is out').toHaveLength(2)
      letThrough()
      await removal
      expect(await core.handlers['accounts:list'](null)).toEqual([kept])

      const next = core.sync.enqueueListItem({ accountId: kept.id, listUri: keptList.postUri, item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/b' } } })
      await core.sync.drain()
      expect(core.sync.operation(next.id)).toMatchObject({ state: 'done' })
      expect(core.sync.counts()).toEqual({ waiting: 0, needsAttention: 0 })
    } finally {
      await core.close()
      await platform.dispose()
    }
  })
})
