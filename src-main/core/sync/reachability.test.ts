// The connection as the person sees it, against the real service over real HTTP: while the service is down the
// status names the server that cannot be reached, how many operations wait and when the next try is, and the queued
// posts sit still (no Sending/Queued flicker); when it is back on the same port, the first queued post reaches it
// within a probe's cap, not after the outbox's backoff.
import { afterEach, describe, expect, it } from 'vitest'
import type { AppStatus, OutboxItem } from '../../../src-shared/contract'
import { AtomClient } from '../atom'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'
import { PROBE_SCHEDULE_MS } from './reachability'

/** What the first request after the server is back may add to the probe's wait, on a busy 2-core machine. */
const ONE_REQUEST_MS = 1_000

describe('reachability of a server', () => {
  let service: SandboxService | null = null
  let fixture: CoreFixture | null = null

  afterEach(async () => {
    await fixture?.dispose()
    await service?.dispose()
    fixture = service = null
  })

  it('says Can’t reach with the count while the service is down, holds the queue still, and sends within seconds of its return', async () => {
    service = await startSandboxService()
    fixture = await openTestCore()
    const { handlers, onEvent } = fixture.core
    const { sandbox } = service
    const account = await handlers['accounts:add']({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })
    const [weblog] = await handlers['weblogs:list']({ accountId: account.id, refresh: true })
    const reader = new AtomClient({ fetch: globalThis.fetch, credentials: async () => ({ username: sandbox.username, password: sandbox.apiPassword }) })
    const statuses: AppStatus[] = []
    const changes: OutboxItem[] = []
    onEvent((event, payload) => {
      if (event === 'app:statusChanged') statuses.push(payload as AppStatus)
      if (event === 'outbox:changed') changes.push(payload as OutboxItem)
    })
    const publish = async (title: string) => {
      const { id } = await handlers['drafts:create']({ accountId: account.id, weblogPostUri: weblog!.postUri })
      await handlers['drafts:save']({ draftId: id, title, content: `<p>${title}</p>` })
      return handlers['drafts:publish']({ draftId: id })
    }

    await publish('Sent while the service is up')
    await fixture.core.sync.drain()
    expect((await handlers['app:status'](null)).connection.state).toBe('online')

    await service.stop()
    for (const title of ['Queued on the train 1', 'Queued on the train 2', 'Queued on the train 3']) await publish(title)
    const down = await until(async () => {
      const status = await handlers['app:status'](null)
      return status.connection.state === 'unreachable' && status.connection.nextTryAt !== null ? status : null
    })
    const host = new URL(sandbox.atomBase).host
    expect(down.connection).toMatchObject({ state: 'unreachable', accountId: account.id, host, waiting: 3 })
    expect(down.accounts).toEqual([{ accountId: account.id, connection: down.connection }])
    expect(Date.parse(down.connection.nextTryAt!) - Date.now()).toBeLessThanOrEqual(Math.max(...PROBE_SCHEDULE_MS))

    // Through several probes, the queued posts are not touched: no Sending, no Queued again.
    const changesWhileDown = changes.length
    const statusesWhileDown = statuses.length
    await sleep(3 * Math.max(...PROBE_SCHEDULE_MS))
    expect(changes.slice(changesWhileDown)).toEqual([])
    expect(statuses.slice(statusesWhileDown).every((status) => status.connection.state === 'unreachable')).toBe(true)
    expect(new Set(statuses.slice(statusesWhileDown).map((status) => status.connection.nextTryAt)).size).toBeGreaterThan(1)

    await service.restart()
    const back = Date.now()
    const arrived = await until(async () => {
      const { posts } = await reader.feedPage(weblog!.feedUri ?? weblog!.postUri)
      return posts.some((post) => post.title === 'Queued on the train 1') ? Date.now() : null
    }, 50)
    expect(arrived - back).toBeLessThanOrEqual(Math.max(...PROBE_SCHEDULE_MS) + ONE_REQUEST_MS)
    await fixture.core.sync.drain()
    const { posts } = await reader.feedPage(weblog!.feedUri ?? weblog!.postUri)
    expect(posts.filter((post) => post.title.startsWith('Queued on the train')).map((post) => post.title).sort()).toEqual([
      'Queued on the train 1',
      'Queued on the train 2',
      'Queued on the train 3',
    ])
    expect((await handlers['app:status'](null)).connection.state).toBe('online')
  }, 60_000)
})

async function until<T>(probe: () => Promise<T | null>, everyMs = 100): Promise<T> {
  for (;;) {
    const found = await probe().catch(() => null)
    if (found !== null) return found
    await sleep(everyMs)
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
