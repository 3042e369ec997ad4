// Feed page GET and post create on loopback, each as a ratio to a bare node:http server answering the same bytes
// (the ceiling on this machine), measured in the same run: target ≥ 0.5 of the ceiling. Then the same on PostgreSQL
// (one instance, a durable throwaway cluster of its own), as a ratio to SQLite's figure: target ≥ 0.6.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createWsseHeader, readLinkFeed } from '../src-protocol'
import { spawnListening, startServiceProcess, type ServiceProcess } from '../src-service/testing/service-process'
import { drive, type LoadRequest, type LoadResult } from './load'
import { startPostgresCluster } from './postgres-cluster'
import type { BenchRow } from './table'

const CONCURRENCY = 16
const GET_REQUESTS = 4000
const POST_REQUESTS = 2000

const newPost = (n: number) => `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <title>Benchmark post ${n}</title>
  <content mode="escaped" type="text/html">&lt;p&gt;Written by the benchmark, number ${n}.&lt;/p&gt;</content>
</entry>`

/** A service under load: its sandbox's feed, and the bytes of its feed page and of one created entry. */
interface Target {
  feedUri: string
  get: () => LoadRequest
  post: () => LoadRequest
  feedBytes: string
  entryBytes: string
}

let posted = 0

async function target(service: ServiceProcess): Promise<Target> {
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
    body: newPost(++posted),
  })
  return {
    feedUri,
    get: () => signed({ method: 'GET', url: feedUri }),
    post: () =>
      signed({ method: 'POST', url: feedUri, headers: { 'Content-Type': 'application/x.atom+xml' }, body: newPost(++posted) }),
    feedBytes,
    entryBytes: await created.text(),
  }
}

export async function runServiceBench(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-service-'))
  const cluster = await startPostgresCluster()
  try {
    const sqliteService = await startServiceProcess(join(dir, 'sqlite'))
    const postgresService = await startServiceProcess(join(dir, 'postgres'), 0, { database: cluster.url })
    try {
      const sqlite = await target(sqliteService)
      const postgres = await target(postgresService)
      const feedFile = join(dir, 'feed.xml')
      const entryFile = join(dir, 'entry.xml')
      await writeFile(feedFile, sqlite.feedBytes)
      await writeFile(entryFile, sqlite.entryBytes)
      const bare = await spawnListening(['bench/bare-server.ts', feedFile, entryFile])
      try {
        const bareGet = () => ({ ...sqlite.get(), url: bare.url })
        const barePost = () => ({ ...sqlite.post(), url: bare.url })
        const gets = { requests: GET_REQUESTS, concurrency: CONCURRENCY, expectStatus: 200 }
        const posts = { requests: POST_REQUESTS, concurrency: CONCURRENCY, expectStatus: 201 }
        const ceilingGet = await drive(bareGet, gets)
        const feedGet = await drive(sqlite.get, gets)
        const postgresFeedGet = await drive(postgres.get, gets)
        const ceilingPost = await drive(barePost, posts)
        const postCreate = await drive(sqlite.post, posts)
        const postgresPostCreate = await drive(postgres.post, posts)
        return [
          ...rows('feed page GET (20 entries)', feedGet, ceilingGet, '≥ 0.5 of bare http', 'bare http ceiling'),
          ...rows('post create', postCreate, ceilingPost, '≥ 0.5 of bare http', 'bare http ceiling'),
          ...rows('PostgreSQL: feed page GET (20 entries)', postgresFeedGet, feedGet, '≥ 0.6 of SQLite', 'SQLite'),
          ...rows('PostgreSQL: post create', postgresPostCreate, postCreate, '≥ 0.6 of SQLite', 'SQLite'),
        ]
      } finally {
        await bare.stop()
      }
    } finally {
      await Promise.all([sqliteService.stop(), postgresService.stop()])
    }
  } finally {
    await cluster.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

function rows(name: string, measured: LoadResult, reference: LoadResult, target: string, referenceName: string): BenchRow[] {
  return [
    { name: `${name}: requests/s`, value: measured.perSecond, unit: 'req/s', ratio: measured.perSecond / reference.perSecond, target },
    { name: `${name}: p50`, value: measured.p50Ms, unit: 'ms' },
    { name: `${name}: p99`, value: measured.p99Ms, unit: 'ms' },
    { name: `${name}: ${referenceName}`, value: reference.perSecond, unit: 'req/s' },
  ]
}
