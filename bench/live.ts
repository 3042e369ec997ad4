// The live feed's costs on the service, a child process whose CPU time and memory are read from /proc (Linux):
// a conditional poll answered 304 against the same poll answered 200 (the page rendered once and reused, so the
// 200 is as cheap as it gets); an event created (an Atom POST) until a stream reader has it, and until the app's
// core has it cached and counted as new (its feed poller, following the user over the stream), against the POST's
// own round trip; 500 open streams: memory each, and the service's CPU while they idle through a heartbeat.
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createWsseHeader } from '../src-protocol'
import { Accounts, FeedPoller, FileVault, LocalStore } from '../src-main/core'
import { testCipher } from '../src-main/core/testing/core-fixture'
import { startServiceProcess, type ServiceProcess } from '../src-service/testing/service-process'
import type { BenchRow } from './table'
import { median } from './stats'

const POLLS = 2000
const BLOCKS = 10
const EVENT_TRIALS = 5
const STREAMS = 500
/** Streams from one address stay under the service's bound per client (16), so each opens from its own loopback. */
const STREAMS_PER_ADDRESS = 10
const IDLE_SECONDS = 16

export async function runLiveBench(): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-live-'))
  const service = await startServiceProcess(dataDir)
  try {
    const { sandbox } = service
    const user = (await (await fetch(`${service.url}/users/${sandbox.username}.json`)).json()) as { urlId: string }
    const eventsUrl = `${service.url}/users/${user.urlId}/events.json?max-results=50`
    const liveUrl = `${service.url}/users/${user.urlId}/events/live`

    // Polls in blocks, 200 and 304 in turn, so both see the same machine (CPU time is counted in 10 ms ticks); the
    // page is rendered once and reused.
    const etag = (await fetch(eventsUrl)).headers.get('etag')!
    const polls = async (headers: Record<string, string>, status: number) => {
      for (let n = 0; n < POLLS / BLOCKS; n++) await expectStatus(await fetch(eventsUrl, { headers }), status)
    }
    let full = 0
    let notModified = 0
    for (let block = 0; block < BLOCKS; block++) {
      full += await serviceCpu(service, () => polls({}, 200))
      notModified += await serviceCpu(service, () => polls({ 'If-None-Match': etag }, 304))
    }

    // Event created → seen on a stream.
    const reader = (await fetch(liveUrl)).body!.pipeThrough(new TextDecoderStream()).getReader()
    await reader.read()
    const seen: number[] = []
    const posts: number[] = []
    for (let n = 0; n < EVENT_TRIALS; n++) {
      const begin = performance.now()
      const posted = post(service, `Live ${n}`).then(() => posts.push(performance.now() - begin))
      let text = ''
      while (!text.includes('\ndata: ')) text += (await reader.read()).value ?? ''
      seen.push(performance.now() - begin)
      await posted
    }
    await reader.cancel()
    const inCore = await eventToCore(service, dataDir)

    // 500 open streams: memory each, and CPU while idle.
    const before = residentBytes(service)
    const streams = await Promise.all(Array.from({ length: STREAMS }, (_, n) => openStream(liveUrl, `127.0.0.${2 + Math.floor(n / STREAMS_PER_ADDRESS)}`)))
    const after = residentBytes(service)
    const idleCpu = await serviceCpu(service, () => new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000)))
    for (const stream of streams) stream()

    return [
      { name: `events.json poll answered 200 (page reused): service CPU`, value: (full / POLLS) * 1000, unit: 'µs' },
      {
        name: `events.json poll answered 304: service CPU`,
        value: (notModified / POLLS) * 1000,
        unit: 'µs',
        ratio: notModified / full,
        target: '≤ 0.3× the 200 poll',
      },
      { name: 'an event created (Atom POST round trip)', value: median(posts), unit: 'ms' },
      { name: 'an event created → on the live stream: median', value: median(seen), unit: 'ms', ratio: median(seen) / median(posts), target: '≤ 5 s' },
      {
        name: 'an event created → cached and counted new by the core: median',
        value: median(inCore),
        unit: 'ms',
        ratio: median(inCore) / median(posts),
        target: '≤ 5 s',
      },
      { name: `${STREAMS} open live streams: service memory each`, value: (after - before) / STREAMS / 1024, unit: 'KiB' },
      { name: `${STREAMS} open live streams idle: service CPU`, value: (idleCpu / (IDLE_SECONDS * 1000)) * 100, unit: '%', target: '≤ 1% (10 streams)' },
    ]
  } finally {
    await service.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** For each trial, from a POST's start until the core's poller, following the poster, announces news. */
async function eventToCore(service: ServiceProcess, dataDir: string): Promise<number[]> {
  const store = LocalStore.open(join(dataDir, 'core.sqlite'))
  let streamOpened = () => {}
  const opened = new Promise<void>((resolve) => (streamOpened = resolve))
  // The platform's fetch, telling when the poller's stream is open.
  const watching: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    if (String(input).endsWith('/events/live') && response.ok) streamOpened()
    return response
  }
  const accounts = new Accounts({ store, vault: new FileVault(join(dataDir, 'secrets.bin'), testCipher), fetch: watching, onChanged: () => {} })
  const { sandbox } = service
  const accountId = (await accounts.add({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })).id
  await accounts.attachJson(accountId, { ...sandbox })
  const poller = new FeedPoller({ store, clientOf: (id) => accounts.jsonClient(id) })
  try {
    poller.start()
    const friend = await poller.addFriend(accountId, sandbox.username)
    await poller.refresh(friend.id)
    await opened
    const times: number[] = []
    for (let n = 0; n < EVENT_TRIALS; n++) {
      const begin = performance.now()
      const news = new Promise<void>((resolve) => {
        const stop = poller.on('friend-updated', ({ newCount }) => newCount > n && (stop(), resolve()))
      })
      await post(service, `Core ${n}`)
      await news
      times.push(performance.now() - begin)
    }
    return times
  } finally {
    await poller.stop()
    store.close()
  }
}

function expectStatus(response: Response, status: number): Promise<unknown> {
  if (response.status !== status) throw new Error(`expected HTTP ${status}, got ${response.status}`)
  return response.arrayBuffer()
}

async function post(service: ServiceProcess, title: string): Promise<void> {
  const { sandbox } = service
  const root = await fetch(`${service.url}/t/atom/weblog`, {
    headers: { 'X-WSSE': createWsseHeader({ username: sandbox.username, password: sandbox.apiPassword }) },
  })
  const postUri = /rel="service\.post"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*rel="service\.post"/.exec(await root.text())!
  const response = await fetch(postUri[1] ?? postUri[2]!, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x.atom+xml',
      'X-WSSE': createWsseHeader({ username: sandbox.username, password: sandbox.apiPassword }),
    },
    body: `<entry xmlns="http://purl.org/atom/ns#"><title>${title}</title><content mode="escaped">Now</content></entry>`,
  })
  await expectStatus(response, 201)
}

/** Opens a stream from `localAddress` and waits for its first bytes; returns the function that closes it. */
function openStream(url: string, localAddress: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { localAddress }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`a stream was refused with HTTP ${response.statusCode}`))
      response.once('data', () => resolve(() => outgoing.destroy()))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** The service's CPU time (user + system, ms) spent while `work` runs. */
async function serviceCpu(service: ServiceProcess, work: () => Promise<unknown>): Promise<number> {
  const before = cpuMs(service)
  await work()
  return cpuMs(service) - before
}

function cpuMs(service: ServiceProcess): number {
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses, in clock ticks (100 a second).
  const fields = readFileSync(`/proc/${service.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

function residentBytes(service: ServiceProcess): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${service.pid}/status`, 'utf8'))!
  return Number(line[1]) * 1024
}
