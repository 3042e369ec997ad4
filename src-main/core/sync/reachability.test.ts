// The connection as the person sees it, against the real service over real HTTP: while the service is down the
// status names the server that cannot be reached, how many operations wait and when the next try is, and the queued
// posts sit still (no Sending/Queued flicker); when it is back on the same port, the first queued post reaches it
// within a probe's cap, not after the outbox's backoff. Any answer wakes the outbox (a read, with the engine's clock
// standing still), and the probes follow their capped schedule and stop once the server answers.
import { afterEach, describe, expect, it } from 'vitest'
import type { AppStatus, OutboxItem } from '../../../src-shared/contract'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServiceProcess, type ServiceProcess } from '../../../src-service/testing/service-process'
import { AtomClient } from '../atom'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'
import { ManualClock } from '../testing/manual-clock'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'
import { openSyncFixture, type SyncFixture } from '../testing/sync-fixture'
import { PROBE_SCHEDULE_MS, Reachability } from './reachability'

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

describe('any answer from a server out of reach', () => {
  let dir: string
  let service: ServiceProcess | null = null
  let fixture: SyncFixture | null = null

  afterEach(async () => {
    await fixture?.dispose()
    await service?.stop()
    rmSync(dir, { recursive: true, force: true })
    fixture = service = null
  })

  it('wakes the outbox at once: a read that reaches the server sends what waits, with no probe and no backoff due', async () => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-reach-'))
    service = await startServiceProcess(join(dir, 'service'))
    const { port, sandbox, url } = service
    fixture = await openSyncFixture({ account: { atomBase: url, username: sandbox.username, password: sandbox.apiPassword } })
    // Time stands still for the engine: neither its backoff nor its probes can fire, so only the read can wake it.
    const clock = new ManualClock()
    const reachability = new Reachability({ clock, fetch: globalThis.fetch })
    const engine = fixture.engine({ clock, reachability })
    engine.start()

    await service.stop()
    service = null
    const draft = fixture.drafts.create({ accountId: fixture.accountId, weblogPostUri: fixture.weblogs[0]!.postUri, title: 'Woken by a read', content: '<p>Hi</p>' })
    const operation = engine.publish(draft.id)
    await until(async () => (engine.operation(operation.id)!.attempts > 0 && engine.operation(operation.id)!.state === 'queued' ? true : null))
    expect(reachability.servers()).toMatchObject([{ origin: new URL(url).origin, reachable: false, nextProbeAt: clock.now() + PROBE_SCHEDULE_MS[0]! }])

    service = await startServiceProcess(join(dir, 'service'), port)
    await sleep(300)
    expect(engine.operation(operation.id)!.state, 'nothing has tried the server yet').toBe('queued')
    // Any read through core's fetch, e.g. the feed poller's or the weblog list's, answered with any status.
    await reachability.observe(globalThis.fetch)(`${url}/t/atom/weblog`)
    await until(async () => (engine.operation(operation.id)!.state === 'done' ? true : null))
    expect((await fixture.client.feedPage(fixture.weblogs[0]!.feedUri ?? fixture.weblogs[0]!.postUri)).posts.map((post) => post.title)).toContain('Woken by a read')
  }, 60_000)
})

describe('probes of a server out of reach', () => {
  let server: Server | null = null
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)))
    server = null
  })

  it('start 1 s after it is found out of reach while something waits, then every 2 s, and stop the moment it answers', async () => {
    const requests: string[] = []
    const listen = (port: number) =>
      new Promise<Server>((resolve) => {
        const listening = createServer((request, response) => {
          requests.push(`${request.method} ${request.url}`)
          response.writeHead(404).end()
        })
        listening.listen(port, '127.0.0.1', () => resolve(listening))
      })
    server = await listen(0)
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    await new Promise((resolve) => server!.close(resolve))
    server = null
    const clock = new ManualClock()
    const reachability = new Reachability({ clock, fetch: globalThis.fetch })
    const back: string[] = []
    reachability.onBack((answered) => back.push(answered))
    const observed = reachability.observe(globalThis.fetch)

    await expect(observed(`${origin}/t/atom/weblog`)).rejects.toThrow()
    expect(reachability.servers()).toMatchObject([{ origin, reachable: false, nextProbeAt: null, problem: expect.stringMatching(/^Could not reach/) }])
    reachability.setWaiting([`${origin}/t/atom/weblog/1`])
    const found = clock.now()
    expect(reachability.servers()[0]!.nextProbeAt).toBe(found + PROBE_SCHEDULE_MS[0]!)

    clock.advance(PROBE_SCHEDULE_MS[0]!)
    await until(async () => (reachability.servers()[0]!.nextProbeAt === clock.now() + PROBE_SCHEDULE_MS[1]! ? true : null))
    clock.advance(PROBE_SCHEDULE_MS[1]!)
    await until(async () => (reachability.servers()[0]!.nextProbeAt === clock.now() + PROBE_SCHEDULE_MS[1]! ? true : null))
    expect(back).toEqual([])

    server = await listen(Number(new URL(origin).port))
    clock.advance(PROBE_SCHEDULE_MS[1]!)
    await until(async () => (back.length > 0 ? true : null))
    expect(back).toEqual([origin])
    expect(requests).toEqual(['HEAD /'])
    expect(reachability.servers()).toEqual([{ origin, host: new URL(origin).host, reachable: true, problem: null, nextProbeAt: null }])
    clock.advance(10 * PROBE_SCHEDULE_MS[1]!)
    expect(requests, 'no probe once it answers').toEqual(['HEAD /'])
  })
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
