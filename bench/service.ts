// Feed page GET and post create on loopback, each as a ratio to a bare node:http server answering the same bytes
// (the ceiling on this machine), measured in the same run. Target: ≥ 0.5 of the ceiling.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createWsseHeader, readLinkFeed } from '../src-protocol'
import { spawnListening, startServiceProcess } from '../src-service/testing/service-process'
import { drive, type LoadRequest, type LoadResult } from './load'
import type { BenchRow } from './table'

const CONCURRENCY = 16
const GET_REQUESTS = 4000
const POST_REQUESTS = 2000

const newPost = (n: number) => `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <title>Benchmark post ${n}</title>
  <content mode="escaped" type="text/html">&lt;p&gt;Written by the benchmark, number ${n}.&lt;/p&gt;</content>
</entry>`

export async function runServiceBench(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-service-'))
  const service = await startServiceProcess(join(dir, 'service'))
  try {
    const credentials = { username: service.sandbox.username, password: service.sandbox.apiPassword }
    const signed = (request: LoadRequest): LoadRequest => ({
      ...request,
      headers: { ...request.headers, 'X-WSSE': createWsseHeader(credentials) },
    })
    const root = await fetch(`${service.url}/t/atom/weblog`, { headers: { 'X-WSSE': createWsseHeader(credentials) } })
    const feedUri = readLinkFeed(await root.text(), service.url).find((link) => link.rel === 'service.feed')!.href
    const feedBytes = await (await fetch(feedUri, { headers: { 'X-WSSE': createWsseHeader(credentials) } })).text()
    const created = await fetch(feedUri, {
      method: 'POST',
      headers: { 'X-WSSE': createWsseHeader(credentials), 'Content-Type': 'application/x.atom+xml' },
      body: newPost(0),
    })
    const entryBytes = await created.text()

    const feedFile = join(dir, 'feed.xml')
    const entryFile = join(dir, 'entry.xml')
    await writeFile(feedFile, feedBytes)
    await writeFile(entryFile, entryBytes)
    const bare = await spawnListening(['bench/bare-server.ts', feedFile, entryFile])
    try {
      let n = 0
      const post = (url: string) => () =>
        signed({ method: 'POST', url, headers: { 'Content-Type': 'application/x.atom+xml' }, body: newPost(++n) })
      const get = (url: string) => () => signed({ method: 'GET', url })

      const ceilingGet = await drive(get(bare.url), { requests: GET_REQUESTS, concurrency: CONCURRENCY, expectStatus: 200 })
      const feedGet = await drive(get(feedUri), { requests: GET_REQUESTS, concurrency: CONCURRENCY, expectStatus: 200 })
      const ceilingPost = await drive(post(bare.url), { requests: POST_REQUESTS, concurrency: CONCURRENCY, expectStatus: 201 })
      const postCreate = await drive(post(feedUri), { requests: POST_REQUESTS, concurrency: CONCURRENCY, expectStatus: 201 })
      return [
        ...rows('feed page GET (20 entries)', feedGet, ceilingGet),
        ...rows('post create', postCreate, ceilingPost),
      ]
    } finally {
      await bare.stop()
    }
  } finally {
    await service.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

function rows(name: string, measured: LoadResult, ceiling: LoadResult): BenchRow[] {
  return [
    { name: `${name}: requests/s`, value: measured.perSecond, unit: 'req/s', ratio: measured.perSecond / ceiling.perSecond, target: '≥ 0.5 of bare http' },
    { name: `${name}: p50`, value: measured.p50Ms, unit: 'ms' },
    { name: `${name}: p99`, value: measured.p99Ms, unit: 'ms' },
    { name: `${name}: bare http ceiling`, value: ceiling.perSecond, unit: 'req/s' },
  ]
}
