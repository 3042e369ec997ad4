// Two real service processes behind a real haproxy running deploy/haproxy.cfg: requests are balanced and carry their
// X-Request-Id through; an instance killed with SIGKILL is marked down and the other answers everything; restarted,
// it serves again; and while one shuts down gracefully under load, no request fails. Each instance has its own SQLite
// data dir, copied from one seeded dir so that the same demo credentials sign requests for both.
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWsseHeader, readLinkFeed, type WsseCredentials } from '../../src-protocol'
import { startBalancedInstances, type BalancedInstances, type Haproxy } from '../testing/haproxy'
import type { ServiceProcess } from '../testing/service-process'

const PROFILE = '/profiles/melody'
const FEED = '/t/atom/weblog/blog_id=1'
const entry = (title: string) => `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#"><title>${title}</title><content mode="escaped">Body</content></entry>`

describe('two instances behind haproxy', () => {
  let balanced: BalancedInstances
  let instances: ServiceProcess[]
  let haproxy: Haproxy
  let credentials: WsseCredentials
  /** How many requests with ids starting `prefix` an instance logged. */
  const served = (instance: ServiceProcess, prefix: string) =>
    instance
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{') && (JSON.parse(line) as { requestId?: string }).requestId?.startsWith(prefix)).length
  /** How many of `total` requests with ids starting `prefix` each instance logged, once all their lines are in. */
  const servedBy = async (prefix: string, total: number, among: readonly ServiceProcess[] = instances) => {
    for (let waited = 0; waited < 5_000; waited += 20) {
      const counts = among.map((instance) => served(instance, prefix))
      if (counts.reduce((sum, count) => sum + count, 0) >= total) return counts
      await sleep(20)
    }
    return among.map((instance) => served(instance, prefix))
  }
  const get = (path: string, requestId?: string) => fetch(`${haproxy.url}${path}`, requestId ? { headers: { 'X-Request-Id': requestId } } : {})
  const post = (title: string) =>
    fetch(`${haproxy.url}${FEED}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x.atom+xml', 'X-WSSE': createWsseHeader(credentials) },
      body: entry(title),
    })
  beforeAll(async () => {
    balanced = await startBalancedInstances()
    ;({ instances, haproxy, credentials } = balanced)
  })
  afterAll(() => balanced?.stop())

  it('balances requests over both instances and carries each X-Request-Id through, or makes one', async () => {
    for (let n = 0; n < 20; n++) {
      const response = await get(PROFILE, `balance-${n}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('x-request-id')).toBe(`balance-${n}`)
      await response.arrayBuffer()
    }
    expect(await servedBy('balance-', 20)).toEqual([10, 10])
    // Without one, haproxy's unique id: its address in hex (127.0.0.1 is 7F000001), port, time…
    const made = await get(PROFILE)
    expect(made.headers.get('x-request-id')).toMatch(/^7F000001-[0-9A-F]+-[0-9A-F]+-[0-9A-F]+-[0-9A-F]+-/)
    await made.arrayBuffer()
  })

  it('sends links that lead back through haproxy, so a client that follows them never meets an instance directly', async () => {
    const root = await fetch(`${haproxy.url}/t/atom/weblog`, { headers: { 'X-WSSE': createWsseHeader(credentials) } })
    const links = readLinkFeed(await root.text(), haproxy.url)
    expect(links.length).toBeGreaterThan(0)
    for (const link of links) expect(link.href.startsWith(`${haproxy.url}/`)).toBe(true)
    const feed = links.find((link) => link.rel === 'service.post')!.href
    const created = await fetch(feed, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x.atom+xml', 'X-WSSE': createWsseHeader(credentials) },
      body: entry('Through the links'),
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')!.startsWith(`${haproxy.url}/`)).toBe(true)
  })

  it('keeps answering through the other instance when one is killed, and uses it again once restarted', async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess]
    const logged = haproxy.output().length
    process.kill(a.pid, 'SIGKILL')
    await a.exited
    // Before haproxy's checks notice, a refused connection is retried on the other instance: nothing fails.
    const statuses: number[] = []
    for (let n = 0; n < 10; n++) {
      const response = await get(PROFILE, `killed-${n}`)
      statuses.push(response.status)
      await response.arrayBuffer()
      statuses.push((await post(`While a is dead ${n}`)).status)
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, () => [200, 201]).flat())
    expect(await servedBy('killed-', 10, [b])).toEqual([10])
    await balanced.waitForState('app1', 'DOWN', logged)

    const restarted = await balanced.start('a', a.port)
    instances[0] = restarted
    await balanced.waitForState('app1', 'UP', logged)
    for (let n = 0; n < 10; n++) expect((await get(PROFILE, `back-${n}`)).status).toBe(200)
    expect(await servedBy('back-', 10)).toEqual([5, 5])
  })

  it('loses no request while one instance shuts down gracefully under load', async () => {
    const b = instances[1]!
    let stopping = true
    const outcomes: number[] = []
    const worker = async (name: string) => {
      for (let n = 0; stopping; n++) {
        const read = await get(PROFILE, `${name}-${n}`)
        outcomes.push(read.status)
        await read.arrayBuffer()
        const written = await post(`${name} ${n}`)
        outcomes.push(written.status)
        await written.arrayBuffer()
      }
    }
    const workers = Promise.all(['w1', 'w2', 'w3', 'w4'].map(worker))
    const reach = async (count: number) => {
      while (outcomes.length < count) await sleep(10)
    }
    await reach(20)
    process.kill(b.pid, 'SIGTERM')
    expect(await b.exited).toEqual({ code: 0, signal: null })
    await reach(outcomes.length + 20)
    stopping = false
    await workers
    expect(outcomes.filter((status) => status !== 200 && status !== 201)).toEqual([])
    // The load did reach the instance that stopped.
    expect(served(b, 'w')).toBeGreaterThan(0)
  })
})
