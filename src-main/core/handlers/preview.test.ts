// The preview's look, as the editor asks for it: read from Blogdesk's own service over real HTTP, kept for offline
// use, and a neutral style with its reason when there is none to read.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import type { Store } from '../../../src-service/store'
import type { AccountSummary, Weblog } from '../../../src-shared/contract'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'

async function seedPost(store: Store): Promise<void> {
  const author = (await store.users.find('melody'))!
  const [weblog] = await store.weblogs.ownedBy(author.id)
  const issued = '2026-01-05T09:00:00Z'
  await store.posts.create(
    weblog!.id,
    author.id,
    { title: 'Spring in the hills', content: '<p>The first walk of the year.</p><p>Larks everywhere.</p>', contentKind: 'xhtml', summary: null, issued, categories: [] },
    issued,
  )
}

describe('preview:look', () => {
  let service: ServiceFixture
  let serviceStopped: boolean
  let fixture: CoreFixture
  let account: AccountSummary
  let weblog: Weblog

  beforeEach(async () => {
    service = await startTestService([melody], seedPost)
    serviceStopped = false
    fixture = await openTestCore()
    account = await fixture.core.accounts.add({ atomBase: service.origin, username: 'melody', apiPassword: melody.password })
    weblog = (await fixture.core.accounts.weblogs(account.id))[0]!
  })

  afterEach(async () => {
    await fixture.dispose()
    if (!serviceStopped) await service.dispose()
  })

  const look = (refresh: boolean) => fixture.core.handlers['preview:look']({ accountId: account.id, weblogPostUri: weblog.postUri, refresh })
  async function stopService() {
    await service.dispose()
    serviceStopped = true
  }

  it('reads the weblog’s stylesheet and the frame its post page puts around a post', async () => {
    const { style, note, fetchedAt } = await look(false)
    expect(note).toBeNull()
    expect(fetchedAt).not.toBeNull()
    // The service's page style, inlined: the preview frame loads nothing.
    expect(style!.css).toContain('font-family: system-ui, sans-serif')
    expect(style!.css).toContain('max-width: 42rem')
    // The frontpage lists titles only: the frame comes from the newest post's own page.
    expect(style!.pageUrl).toMatch(/\/blogs\/[^/]+\/\d+$/)
    expect(style!.frame.entry.map((element) => element.tag)).toEqual(['main', 'article'])
    expect(style!.frame.title).toEqual([{ tag: 'h1', id: null, className: null }])
    expect(style!.frame.content).toEqual([{ tag: 'div', id: null, className: 'content' }])
  })

  it('shows the look as last read when the weblog cannot be reached, and says so when asked to read it again', async () => {
    const online = await look(false)
    await stopService()

    expect(await look(false)).toEqual(online)
    const again = await look(true)
    expect(again.style).toEqual(online.style)
    expect(again.fetchedAt).toBe(online.fetchedAt)
    expect(again.note).toMatch(/^The weblog’s look could not be read again: .+\. This is how it looked when last read\.$/)

    // Kept in the local store: a restarted app shows it offline too.
    const reopened = await fixture.reopen()
    fixture.platform.setOnline(false)
    const offline = await reopened.handlers['preview:look']({ accountId: account.id, weblogPostUri: weblog.postUri, refresh: true })
    expect(offline.style).toEqual(online.style)
    expect(offline.note).toMatch(/this computer is offline/)
  })

  it('falls back to a neutral style, saying why, when the look was never read', async () => {
    await stopService()
    const { style, note, fetchedAt } = await look(true)
    expect(style).toBeNull()
    expect(fetchedAt).toBeNull()
    expect(note).toMatch(/^Shown in a neutral style: .+/)
  })

  it('says so when the computer is offline and nothing is cached', async () => {
    fixture.platform.setOnline(false)
    const { style, note } = await look(false)
    expect(style).toBeNull()
    expect(note).toBe('Shown in a neutral style: this computer is offline.')
  })
})
