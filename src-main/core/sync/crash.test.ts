// Crash safety: a child process runs the sync engine on a persistent data dir and is killed with SIGKILL at random
// (seeded) moments, 50 times, restarted each time, then left to drain the outbox. No operation is lost and none is
// applied twice: the service holds exactly what was queued.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { seededRandom } from '../../../src-protocol/seeded-random'
import { DEMO_PHOTOS_FOLDER } from '../../../src-service/demo/photos'
import { melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import { LocalStore, type Draft } from '../store'
import { openSyncFixture, type SyncFixture } from '../testing/sync-fixture'

const KILLS = 50
/** A kill lands this long at most after the worker says it started (it sends a few operations in that time). */
const KILL_WINDOW_MS = 50
const WEBLOGS = 3
const CREATES = 240
const UPDATES = 30
const DELETES = 20
const PHOTOS = 10
/** 51 worker starts (Node, tsx, the core) take ~100 s on a quiet 2-core machine; the limit only guards against a hang. */
const TIME_LIMIT_MS = 300_000

const repoRoot = join(import.meta.dirname, '..', '..', '..')
const workerScript = join(import.meta.dirname, '..', 'testing', 'sync-worker.ts')

interface Worker {
  child: ChildProcess
  /** Resolves with the worker's `drained` line, or null when it exits without one. */
  drained: Promise<string | null>
}

/** Starts the worker and waits for its `started` line. */
async function startWorker(dataDir: string, seed: number): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', workerScript, dataDir, String(seed)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const errors: string[] = []
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => errors.push(chunk))
  const lines = createInterface({ input: child.stdout! })
  let drainedLine: string | null = null
  const exited = once(child, 'exit')
  const started = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'started') resolve()
      if (line.startsWith('drained ')) drainedLine = line
    })
    void exited.then(() => reject(new Error(`The sync worker exited before starting:\n${errors.join('')}`)))
  })
  await started
  return { child, drained: exited.then(() => drainedLine) }
}

/** How many operations a killed worker left mid-request, read from its store while nothing runs. */
function interruptedOperations(dataDir: string): number {
  const store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
  try {
    return Number(store.get("SELECT COUNT(*) AS n FROM outbox WHERE state = 'sending'")!['n'])
  } finally {
    store.close()
  }
}

function openOperations(dataDir: string): number {
  const store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
  try {
    return Number(store.get("SELECT COUNT(*) AS n FROM outbox WHERE state != 'done'")!['n'])
  } finally {
    store.close()
  }
}

describe('sync engine killed mid-flight', () => {
  let service: ServiceFixture | null = null
  let fixture: SyncFixture | null = null
  let running: ChildProcess | null = null

  afterEach(async () => {
    if (running && running.exitCode === null && running.signalCode === null) {
      const exited = once(running, 'exit')
      running.kill('SIGKILL')
      await exited
    }
    await fixture?.dispose()
    await service?.dispose()
  })

  it('loses no operation and applies none twice across 50 SIGKILLs at random moments', async () => {
    service = await startTestService(
      [{ ...melody, weblogs: Array.from({ length: WEBLOGS }, (_, n) => ({ title: `Weblog ${n + 1}`, slug: `weblog-${n + 1}` })) }],
      async (store) => { await store.albums.add((await store.users.find('melody'))!.id, 'Crash test') },
    )
    fixture = await openSyncFixture({ account: { atomBase: service.origin, username: 'melody', password: melody.password } })
    const { drafts, accountId, client } = fixture
    const [album] = await client.listCollections(`${service.origin}/t/atom/gallery`)
    const photo = await fixture.media.add(join(DEMO_PHOTOS_FOLDER, 'belem-pastries.jpg'))
    const engine = fixture.engine()
    const posts: Draft[] = []
    for (let n = 0; n < CREATES; n++) {
      const post = drafts.create({ accountId, weblogPostUri: fixture.weblogs[n % WEBLOGS]!.postUri, title: `Post ${n}`, content: `<p>Post ${n}</p>` })
      posts.push(post)
      engine.publish(post.id)
    }
    const edited = posts.filter((_, n) => n % 8 === 1).slice(0, UPDATES)
    for (const post of edited) {
      drafts.save(post.id, { content: `<p>${post.title}, edited</p>` })
      engine.publish(post.id)
    }
    const deleted = posts.filter((_, n) => n % 12 === 5).slice(0, DELETES)
    for (const post of deleted) engine.enqueueDelete(post.id)
    for (let n = 0; n < PHOTOS; n++) engine.enqueuePhoto({ accountId, albumUri: album!.postUri, hash: photo.hash, title: `Photo ${n}` })
    const queued = engine.counts().waiting
    expect(queued).toBe(CREATES + UPDATES + DELETES + PHOTOS)
    await fixture.close()

    const random = seededRandom(50)
    let kills = 0
    let caughtMidRequest = 0
    while (kills < KILLS && openOperations(fixture.dataDir) > 0) {
      const worker = await startWorker(fixture.dataDir, kills)
      running = worker.child
      await sleep(Math.floor(random() * KILL_WINDOW_MS))
      const exited = once(worker.child, 'exit')
      worker.child.kill('SIGKILL')
      await exited
      kills++
      caughtMidRequest += interruptedOperations(fixture.dataDir)
    }
    const last = await startWorker(fixture.dataDir, KILLS)
    running = last.child
    expect(await last.drained).toBe('drained {"waiting":0,"needsAttention":0}')
    console.info(`crash test: ${kills} kills, ${caughtMidRequest} operations caught mid-request, ${queued} operations`)
    expect(kills).toBe(KILLS)
    expect(caughtMidRequest).toBeGreaterThan(KILLS / 4)

    const landed = await service.withStore(async (store) => {
      const user = (await store.users.find('melody'))!
      const all = (await Promise.all((await store.weblogs.ownedBy(user.id)).map((weblog) => store.posts.page(weblog.id, 0, 10_000)))).flat()
      return {
        titles: all.map((post) => post.title),
        contents: new Map(all.map((post) => [post.title, post.content])),
        photos: (await store.photos.inAlbum((await store.albums.ownedBy(user.id))[0]!.id)).map((entry) => entry.title).sort(),
      }
    })
    const kept = posts.filter((post) => !deleted.includes(post)).map((post) => post.title)
    expect([...landed.titles].sort()).toEqual([...kept].sort())
    for (const post of edited) if (!deleted.includes(post)) expect(landed.contents.get(post.title)).toBe(`<p>${post.title}, edited</p>`)
    expect(landed.photos).toEqual(Array.from({ length: PHOTOS }, (_, n) => `Photo ${n}`).sort())

    const reopened = await openSyncFixture({ dataDir: fixture.dataDir })
    fixture = reopened
    for (const post of posts) expect(reopened.drafts.get(post.id)!.state).toBe(deleted.includes(post) ? 'deleted' : 'published')
  }, TIME_LIMIT_MS)
})
