// Flushing the outbox: 1,000 queued posts sent by the sync engine to the service running as a child process, as a
// ratio to a bare loop of the same signed POSTs through the same Atom client with the same concurrency (one sender
// per weblog, as the engine's queues), measured in the same run. Target ≥ 0.8: the engine's bookkeeping (each
// operation's state in SQLite before its request and after, the draft kept in step) costs little beside the
// requests. The two alternate over a few rounds and the ratio is the median of the rounds' ratios, since other
// work on a shared machine moves absolute figures between runs. Also the longest event-loop stall while flushing
// (perf_hooks.monitorEventLoopDelay), target none over 10 ms, and the main thread's CPU time per post.
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { accountsForSync, Accounts, Drafts, LocalStore, SyncEngine, type AtomClient, type Vault } from '../src-main/core/index'
import { startServiceProcess } from '../src-service/testing/service-process'
import type { BenchRow } from './table'

const POSTS = 1000
const ROUNDS = 3
const WARM_UP_POSTS = 100

const postText = (n: number) => ({
  title: `Flushed post ${n}`,
  content: `<p>Queued on a train, number ${n}.</p>`,
  categories: [],
})

/** The app's local store with the service's demo account, as the engine sees it. */
interface Desk {
  drafts: Drafts
  accountId: string
  weblogs: string[]
  client: AtomClient
  engine(concurrency: number): SyncEngine
}

interface Measured {
  perSecond: number
  longestStallMs: number
  cpuMsPerPost: number
}

export async function runFlushBench(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-flush-'))
  const service = await startServiceProcess(join(dir, 'service'))
  const store = LocalStore.open(join(dir, 'blogdesk.sqlite'))
  try {
    const desk = await openDesk(store, service.url, service.sandbox)
    await bareLoop(desk, WARM_UP_POSTS)
    await engineFlush(desk, WARM_UP_POSTS)
    const rounds: { engine: Measured; bare: Measured }[] = []
    for (let round = 0; round < ROUNDS; round++) rounds.push({ engine: await engineFlush(desk, POSTS), bare: await bareLoop(desk, POSTS) })
    const engine = rounds.map((round) => round.engine)
    const bare = rounds.map((round) => round.bare)
    const lanes = desk.weblogs.length
    return [
      {
        name: `flush ${POSTS} queued posts (${lanes} weblogs, one queue each): posts/s`,
        value: median(engine.map((measured) => measured.perSecond)),
        unit: 'posts/s',
        ratio: median(rounds.map((round) => round.engine.perSecond / round.bare.perSecond)),
        target: '≥ 0.8 of bare POSTs',
      },
      { name: 'flush: longest event-loop stall', value: Math.max(...engine.map((measured) => measured.longestStallMs)), unit: 'ms', target: '≤ 10 ms' },
      {
        name: 'flush: main-thread CPU per post',
        value: median(engine.map((measured) => measured.cpuMsPerPost)),
        unit: 'ms',
        ratio: median(rounds.map((round) => round.engine.cpuMsPerPost / round.bare.cpuMsPerPost)),
      },
      { name: `bare loop of the same signed POSTs, ${lanes} at a time`, value: median(bare.map((measured) => measured.perSecond)), unit: 'posts/s' },
      { name: 'bare loop: longest event-loop stall', value: Math.max(...bare.map((measured) => measured.longestStallMs)), unit: 'ms' },
      { name: 'bare loop: main-thread CPU per post', value: median(bare.map((measured) => measured.cpuMsPerPost)), unit: 'ms' },
    ]
  } finally {
    store.close()
    await service.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

async function openDesk(store: LocalStore, atomBase: string, sandbox: { username: string; apiPassword: string }): Promise<Desk> {
  const secrets = new Map<string, string>()
  const vault: Vault = {
    get: async (key) => secrets.get(key) ?? null,
    set: async (key, secret) => void secrets.set(key, secret),
    delete: async (key) => void secrets.delete(key),
  }
  const accounts = new Accounts({ store, vault, fetch, onChanged: () => {} })
  const { id: accountId } = await accounts.add({ atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })
  const weblogs = (await accounts.weblogs(accountId)).map((weblog) => weblog.postUri)
  const forSync = accountsForSync(accounts, fetch)
  return {
    drafts: new Drafts(store),
    accountId,
    weblogs,
    client: forSync.atomClient(accountId),
    engine: (concurrency) => new SyncEngine({ store, accounts: forSync, concurrency }),
  }
}

/** Queues `posts` drafts across the weblogs (not timed), then times the engine sending them all. */
async function engineFlush(desk: Desk, posts: number): Promise<Measured> {
  const { drafts, accountId, weblogs } = desk
  const engine = desk.engine(weblogs.length)
  for (let n = 0; n < posts; n++) {
    engine.publish(drafts.create({ accountId, weblogPostUri: weblogs[n % weblogs.length]!, ...postText(n) }).id)
  }
  const measured = await timed(posts, () => engine.flush())
  const { waiting, needsAttention } = engine.counts()
  if (waiting + needsAttention > 0) throw new Error(`The flush left ${waiting} operations waiting and ${needsAttention} needing attention.`)
  await engine.stop()
  return measured
}

/** The same POSTs through the same client: one sender per weblog, each sending its share one after another. */
function bareLoop({ client, weblogs }: Desk, posts: number): Promise<Measured> {
  return timed(posts, async () => {
    await Promise.all(
      weblogs.map(async (postUri, lane) => {
        for (let n = lane; n < posts; n += weblogs.length) {
          await client.createPost(postUri, { ...postText(n), issued: new Date().toISOString() }, { idempotencyKey: randomUUID() })
        }
      }),
    )
  })
}

async function timed(posts: number, work: () => Promise<void>): Promise<Measured> {
  const stalls = monitorEventLoopDelay({ resolution: 1 })
  stalls.enable()
  const cpu = process.cpuUsage()
  const begin = performance.now()
  await work()
  const seconds = (performance.now() - begin) / 1000
  const used = process.cpuUsage(cpu)
  stalls.disable()
  return { perSecond: posts / seconds, longestStallMs: stalls.max / 1e6, cpuMsPerPost: (used.user + used.system) / 1000 / posts }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
