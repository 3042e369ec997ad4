// The service on PostgreSQL: two instances behind haproxy (deploy/haproxy.cfg) against one instance on the same
// database, for post create and feed page GET, with where the CPU went (each instance, haproxy, this load generator,
// and the whole machine, from /proc); and a 20 MB photo POST to an instance on PostgreSQL, its peak RSS growth as a
// multiple of the photo (measured as bench/photo.ts does on SQLite). It runs itself inside a throwaway cluster of its
// own (scripts/postgres.sh), durable as a real one (fsync on), and stops the cluster, haproxy and instances after.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createWsseHeader, readLinkFeed } from '../src-protocol'
import { freePort, startHaproxy } from '../src-service/testing/haproxy'
import { canMeasureMemory, makeLargeJpeg, measurePhotoPost, photoEntryBody } from '../src-service/testing/photo-post-probe'
import { createTestDatabase } from '../src-service/testing/postgres'
import { startServiceProcess, type ServiceProcess } from '../src-service/testing/service-process'
import { drive, type LoadRequest, type LoadResult } from './load'
import { checked, growthRow } from './photo'
import type { BenchRow } from './table'

const CONCURRENCY = 16
const GET_REQUESTS = 3000
const POST_REQUESTS = 1500
const PHOTO_BYTES = 20 * 1024 * 1024
const MIB = 1024 * 1024
const ROWS_LINE = 'bench rows: '
const repoRoot = join(import.meta.dirname, '..')

/** Runs this file in a throwaway PostgreSQL cluster and returns the rows it measured there. */
export async function runInstancesBench(): Promise<BenchRow[]> {
  const child = spawn('bash', ['scripts/postgres.sh', process.execPath, '--import', 'tsx', 'bench/instances.ts'], {
    cwd: repoRoot,
    env: { ...process.env, BLOGDESK_POSTGRES_DURABLE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  const line = output.split('\n').find((candidate) => candidate.startsWith(ROWS_LINE))
  if (code !== 0 || line === undefined) throw new Error(`bench/instances.ts failed (exit ${code}):\n${output}`)
  return JSON.parse(line.slice(ROWS_LINE.length)) as BenchRow[]
}

const newPost = (n: number) => `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#"><title>Benchmark post ${n}</title>
<content mode="escaped" type="text/html">&lt;p&gt;Written by the benchmark, number ${n}.&lt;/p&gt;</content></entry>`

/** CPU time (user + system) of process `pid` so far, in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  // utime and stime are fields 14 and 15 of the line, counted in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Busy and total time of all the machine's cores so far, in clock ticks. */
function machineTicks(): { busy: number; total: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
  const total = ticks.reduce((sum, tick) => sum + tick, 0)
  return { busy: total - ticks[3]! - ticks[4]!, total }
}

interface Split {
  result: LoadResult
  /** Each named process's CPU time over the run, as a share of one core (1 = a core busy throughout). */
  cores: [string, number][]
  /** The whole machine's busy share of all its cores, whoever used it (other programs and PostgreSQL included). */
  machineBusy: number
}

/** Drives the load and measures the CPU time the named processes (and this load generator) spent meanwhile. */
async function measured(load: () => Promise<LoadResult>, processes: [string, number][]): Promise<Split> {
  const before = processes.map(([, pid]) => cpuSeconds(pid))
  const ownBefore = process.cpuUsage()
  const machineBefore = machineTicks()
  const started = performance.now()
  const result = await load()
  const wall = (performance.now() - started) / 1000
  const own = process.cpuUsage(ownBefore)
  const machineAfter = machineTicks()
  return {
    result,
    cores: [
      ...processes.map(([name, pid], index): [string, number] => [name, (cpuSeconds(pid) - before[index]!) / wall]),
      ['load generator', (own.user + own.system) / 1e6 / wall],
    ],
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
  }
}

/** The rows of one workload: one instance (the reference) and two behind haproxy, with both runs' CPU split. */
function workloadRows(name: string, one: Split, two: Split): BenchRow[] {
  const split = (setup: string, run: Split): BenchRow[] => [
    ...run.cores.map(([process, cores]): BenchRow => ({ name: `${name}, ${setup}: CPU of ${process}`, value: cores * 100, unit: '% of a core' })),
    { name: `${name}, ${setup}: whole machine busy`, value: run.machineBusy * 100, unit: '% of all cores' },
  ]
  return [
    { name: `${name}: one instance`, value: one.result.perSecond, unit: 'req/s' },
    {
      name: `${name}: two instances behind haproxy`,
      value: two.result.perSecond,
      unit: 'req/s',
      ratio: two.result.perSecond / one.result.perSecond,
      target: '≥ 1.0× one instance',
    },
    { name: `${name}: p99, one instance`, value: one.result.p99Ms, unit: 'ms' },
    { name: `${name}: p99, two instances behind haproxy`, value: two.result.p99Ms, unit: 'ms' },
    ...split('one instance', one),
    ...split('two instances', two),
  ]
}

async function measureInstances(dir: string): Promise<BenchRow[]> {
  const database = await createTestDatabase({ migrated: true })
  const instances: ServiceProcess[] = []
  let haproxy: Awaited<ReturnType<typeof startHaproxy>> | undefined
  try {
    const balancerPort = await freePort()
    const start = (name: string) => startServiceProcess(join(dir, name), 0, { database: database.url })
    // b gets a's data dir, for the keys that still live there (issue 16), so one account signs for both.
    await (await start('a')).stop()
    await cp(join(dir, 'a'), join(dir, 'b'), { recursive: true })
    instances.push(await start('a'), await start('b'))
    const [a, b] = instances as [ServiceProcess, ServiceProcess]
    haproxy = await startHaproxy(balancerPort, [a.port, b.port])
    const credentials = { username: a.sandbox.username, password: a.sandbox.apiPassword }
    const root = await fetch(`${a.url}/t/atom/weblog`, { headers: { 'X-WSSE': createWsseHeader(credentials) } })
    const feedPath = new URL(readLinkFeed(await root.text(), a.url).find((link) => link.rel === 'service.feed')!.href).pathname
    let n = 0
    const signed = (request: LoadRequest): LoadRequest => ({ ...request, headers: { ...request.headers, 'X-WSSE': createWsseHeader(credentials) } })
    const post = (origin: string) => () =>
      signed({ method: 'POST', url: `${origin}${feedPath}`, headers: { 'Content-Type': 'application/x.atom+xml' }, body: newPost(++n) })
    const get = (origin: string) => () => signed({ method: 'GET', url: `${origin}${feedPath}` })
    const gets = (origin: string) => () => drive(get(origin), { requests: GET_REQUESTS, concurrency: CONCURRENCY, expectStatus: 200 })
    const posts = (origin: string) => () => drive(post(origin), { requests: POST_REQUESTS, concurrency: CONCURRENCY, expectStatus: 201 })
    const both: [string, number][] = [['instance 1', a.pid], ['instance 2', b.pid], ['haproxy', haproxy.pid]]

    // Warm both instances (their feed caches, connection pools, JIT) before anything is measured.
    await drive(get(haproxy.url), { requests: 200, concurrency: CONCURRENCY, expectStatus: 200 })
    const oneGet = await measured(gets(a.url), [['instance', a.pid]])
    const twoGet = await measured(gets(haproxy.url), both)
    const onePost = await measured(posts(a.url), [['instance', a.pid]])
    const twoPost = await measured(posts(haproxy.url), both)
    return [...workloadRows('feed page GET (20 entries)', oneGet, twoGet), ...workloadRows('post create', onePost, twoPost)]
  } finally {
    await Promise.allSettled([haproxy?.stop(), ...instances.map((instance) => instance.stop())])
    await database.drop()
  }
}

async function measurePhoto(dir: string): Promise<BenchRow[]> {
  if (!canMeasureMemory()) return []
  const database = await createTestDatabase({ migrated: true })
  const photo = await makeLargeJpeg(PHOTO_BYTES)
  const body = photoEntryBody('Benchmark photo', photo)
  const service = await startServiceProcess(join(dir, 'photo'), 0, { database: database.url })
  try {
    const cold = await checked(measurePhotoPost(service, body))
    await checked(measurePhotoPost(service, body))
    const warm = await checked(measurePhotoPost(service, body))
    const growth = growthRow(photo.length)
    return [
      { name: `photo POST on PostgreSQL (${(photo.length / MIB).toFixed(1)} MiB JPEG): throughput`, value: photo.length / MIB / warm.seconds, unit: 'MiB/s' },
      growth('photo POST on PostgreSQL, warmed instance: peak RSS growth', warm.peakGrowthBytes, '≤ 1× the photo'),
      growth('photo POST on PostgreSQL, warmed instance: anonymous memory growth', warm.anonymousGrowthBytes),
      growth('photo POST on PostgreSQL, fresh instance: peak RSS growth', cold.peakGrowthBytes),
    ]
  } finally {
    await service.stop()
    await database.drop()
  }
}

// Run by runInstancesBench inside the cluster: prints the rows as one JSON line.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-instances-'))
  try {
    const rows = [...(await measureInstances(join(dir, 'instances'))), ...(await measurePhoto(dir))]
    process.stdout.write(`${ROWS_LINE}${JSON.stringify(rows)}\n`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
