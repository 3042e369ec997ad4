// The desktop core against two service instances on one PostgreSQL database behind haproxy (deploy/haproxy.cfg), all
// real processes: the sync engine publishes 300 operations through haproxy while an instance is killed with SIGKILL
// and restarted, and every one lands exactly once; one Idempotency-Key sent to both instances at once makes one post;
// a post created on one instance is in the other's feed at once. Needs PostgreSQL and haproxy, whatever
// BLOGDESK_TEST_ENGINE says: run it through `bash scripts/postgres.sh`; it fails when either is missing.
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWsseHeader, readEntry, readFeed, type WsseCredentials } from '../../../src-protocol'
import { seededRandom } from '../../../src-protocol/seeded-random'
import { startBalancedInstances, type BalancedInstances, type Haproxy } from '../../../src-service/testing/haproxy'
import { createTestDatabase, type TestDatabase } from '../../../src-service/testing/postgres'
import type { ServiceProcess } from '../../../src-service/testing/service-process'
import type { Draft } from '../store'
import { openSyncFixture, walkFeed, type SyncFixture } from '../testing/sync-fixture'

const CREATES = 240
const EDITS = 40
const DELETES = 20
/** Kill the first instance once this many operations are done, and again after its restart while some remain. */
const FIRST_KILL_AFTER = 30
/** Each kill and restart costs a start of the service (~5 s on a busy 2-core machine). */
const KILLS = 2
const TITLE = 'Through haproxy'
/** Five starts of the service, ~3 s each on a quiet 2-core machine (~10 s at a load of 20); the limit only guards against a hang. */
const TIME_LIMIT_MS = 180_000

describe('the desktop core publishing through haproxy to two instances on one PostgreSQL database', () => {
  let database: TestDatabase
  let balanced: BalancedInstances
  let instances: ServiceProcess[]
  let haproxy: Haproxy
  let fixture: SyncFixture | undefined
  let credentials: WsseCredentials

  const postEntry = (title: string) =>
    `<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://purl.org/atom/ns#"><title>${title}</title><content mode="escaped">&lt;p&gt;${title}&lt;/p&gt;</content></entry>`
  const createOn = (instance: ServiceProcess, title: string, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${instance.port}/t/atom/weblog/blog_id=1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x.atom+xml', 'X-WSSE': createWsseHeader(credentials), ...headers },
      body: postEntry(title),
    })
  /** How many posts titled `title` the database holds, whichever instance made them. */
  const rowsTitled = async (title: string) => {
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      return Number((await client.query('SELECT COUNT(*) AS n FROM posts WHERE title = $1', [title])).rows[0].n)
    } finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true })
    balanced = await startBalancedInstances(database.url)
    ;({ instances, haproxy, credentials } = balanced)
  }, TIME_LIMIT_MS)
  afterAll(async () => {
    await fixture?.dispose()
    await balanced?.stop()
    await database?.drop()
  })

  it(`lands each of ${CREATES + EDITS + DELETES} operations exactly once while an instance is killed with SIGKILL and restarted`, async () => {
    fixture = await openSyncFixture({ account: { atomBase: haproxy.url, ...credentials } })
    const { drafts, accountId, weblogs } = fixture
    const engine = fixture.engine({ concurrency: weblogs.length, random: seededRandom(16), retry: { baseMs: 10, capMs: 100 } })
    const posts: Draft[] = []
    for (let n = 0; n < CREATES; n++) {
      const post = drafts.create({ accountId, weblogPostUri: weblogs[n % weblogs.length]!.postUri, title: `${TITLE} ${n}`, content: `<p>Post ${n}</p>` })
      posts.push(post)
      engine.publish(post.id)
    }
    const edited = posts.filter((_, n) => n % 6 === 1).slice(0, EDITS)
    for (const post of edited) {
      drafts.save(post.id, { content: `<p>${post.title}, edited</p>` })
      engine.publish(post.id)
    }
    const deleted = posts.filter((_, n) => n % 12 === 4).slice(0, DELETES)
    for (const post of deleted) engine.enqueueDelete(post.id)
    const queued = engine.counts().waiting
    expect(queued).toBe(CREATES + EDITS + DELETES)

    let drained = false
    const draining = engine.drain().finally(() => (drained = true))
    const done = () => queued - engine.counts().waiting
    // Each time (KILLS at most): a SIGKILL with operations still waiting, then a restart on the same port, serving once haproxy says so.
    const waitingAtKills: number[] = []
    let restartedServed = 0
    for (let threshold = FIRST_KILL_AFTER; !drained && waitingAtKills.length < KILLS; threshold = done() + 1) {
      while (!drained && done() < threshold) await sleep(5)
      if (drained) break
      const [a] = instances as [ServiceProcess]
      const logged = haproxy.output().length
      process.kill(a.pid, 'SIGKILL')
      await a.exited
      waitingAtKills.push(engine.counts().waiting)
      instances[0] = await balanced.start('a', a.port)
      await balanced.waitForState('app1', 'UP', logged)
      const before = done()
      while (!drained && done() < before + 10) await sleep(5)
      restartedServed += writesLogged(instances[0]!)
    }
    await draining
    console.info(`multi-instance: ${queued} operations; operations waiting at each SIGKILL: ${waitingAtKills.join(', ')}; writes the restarted instance served: ${restartedServed}`)
    expect(waitingAtKills.length).toBeGreaterThan(0)
    expect(waitingAtKills[0]).toBeGreaterThan(0)
    expect(restartedServed).toBeGreaterThan(0)
    expect(engine.counts()).toEqual({ waiting: 0, needsAttention: 0 })

    // Read back through the other instance, and counted in the database: each kept post once, edited as last saved.
    const kept = posts.filter((post) => !deleted.includes(post))
    const b = instances[1]!
    const landed = new Map<string, string>()
    const seen: string[] = []
    for (const weblog of weblogs) {
      const feedUri = weblog.postUri.replace(haproxy.url, `http://127.0.0.1:${b.port}`)
      for (const post of await walkFeed(fixture.client, feedUri)) {
        if (!post.title.startsWith(TITLE)) continue
        seen.push(post.title)
        landed.set(post.title, post.content)
      }
    }
    expect(seen.sort()).toEqual(kept.map((post) => post.title).sort())
    for (const post of edited) if (!deleted.includes(post)) expect(landed.get(post.title)).toBe(`<p>${post.title}, edited</p>`)
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      const rows = await client.query("SELECT title, COUNT(*) AS n FROM posts WHERE title LIKE $1 GROUP BY title HAVING COUNT(*) > 1", [`${TITLE} %`])
      expect(rows.rows).toEqual([])
    } finally {
      await client.end()
    }
    for (const post of posts) expect(drafts.get(post.id)!.state).toBe(deleted.includes(post) ? 'deleted' : 'published')
  }, TIME_LIMIT_MS)

  it('makes one post of one Idempotency-Key sent to both instances at once', async () => {
    const title = 'One key, two instances'
    const headers = { 'Idempotency-Key': 'both-instances-at-once' }
    const answers = await Promise.all(instances.flatMap((instance) => [1, 2, 3, 4].map(() => createOn(instance, title, headers))))
    const bodies = await Promise.all(answers.map((answer) => answer.text()))
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201))
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1)
    expect(new Set(bodies.map((body) => readEntry(body).id)).size).toBe(1)
    expect(await rowsTitled(title)).toBe(1)
  })

  it('shows a post created on one instance in the other\'s feed at once', async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess]
    const feedOfB = `http://127.0.0.1:${b.port}/t/atom/weblog/blog_id=1`
    // B has the feed's first page in its cache before A writes.
    const titlesOnB = async () => readFeed(await (await fetch(feedOfB, { headers: { 'X-WSSE': createWsseHeader(credentials) } })).text()).entries.map((entry) => entry.title)
    expect(await titlesOnB()).not.toContain('Written on A')
    expect((await createOn(a, 'Written on A')).status).toBe(201)
    expect((await titlesOnB())[0]).toBe('Written on A')
  })
})

/** How many writes an instance started with `--log json` logged (haproxy's checks are reads). */
function writesLogged(instance: ServiceProcess): number {
  return instance
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { event?: string; method?: string })
    .filter((line) => line.event === 'request' && line.method !== 'GET').length
}
