// An instance on PostgreSQL killed with SIGKILL mid-write, 20 times: three clients keep posting entries, uploads and photos
// to it; each time it is killed at a random moment and started again on the same data dir (where its media
// live) and database. Afterwards every post it acknowledged with 201 is in the database exactly once, nothing is
// there twice, and every acknowledged photo and upload serves exactly the bytes that were sent. PostgreSQL whatever
// BLOGDESK_TEST_ENGINE says: run it through `bash scripts/postgres.sh`; it fails when there is none.
import { createHash, randomBytes, randomInt } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWsseHeader, NS, readEntry, readLinkFeed } from '../../src-protocol'
import { DEMO_PHOTOS_FOLDER } from '../demo/photos'
import { createTestDatabase, type TestDatabase } from '../testing/postgres'
import { startServiceProcess, type ServiceProcess } from '../testing/service-process'

const KILLS = 20
/** A kill lands this long at most after each writer has had an answer from the new instance. */
const KILL_WINDOW_MS = 400
const TITLE = 'Killed mid-write'
/** 21 starts of the service take ~40 s on a quiet 2-core machine (~10 s each at a load of 20); the limit only guards against a hang. */
const TIME_LIMIT_MS = 300_000

type Kind = 'entry' | 'upload' | 'photo'
const WRITERS: readonly Kind[] = ['entry', 'upload', 'photo']

interface Sent {
  title: string
  /** For photos and uploads: where the file is served, and its bytes' digest. */
  file?: { path: string; sha256: string }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const photos = readdirSync(DEMO_PHOTOS_FOLDER)
  .filter((file) => file.endsWith('.jpg'))
  .map((file) => readFileSync(join(DEMO_PHOTOS_FOLDER, file)))

describe('an instance on PostgreSQL killed with SIGKILL mid-write', () => {
  let dir: string
  let database: TestDatabase
  let instance: ServiceProcess | undefined
  let credentials: { username: string; password: string }
  let albumPath: string

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true })
    dir = await mkdtemp(join(tmpdir(), 'blogdesk-kill-mid-write-'))
    instance = await startServiceProcess(dir, 0, { database: database.url })
    credentials = { username: instance.sandbox.username, password: instance.sandbox.apiPassword }
    const gallery = await fetch(`${instance.url}/t/atom/gallery`, { headers: { 'X-WSSE': createWsseHeader(credentials) } })
    const album = readLinkFeed(await gallery.text(), instance.url).find((link) => link.rel === 'service.post')!
    albumPath = new URL(album.href).pathname
  }, TIME_LIMIT_MS)
  afterAll(async () => {
    await instance?.stop()
    await rm(dir, { recursive: true, force: true })
    await database?.drop()
  })

  /** Request `n` of a writer, which sends one kind: entries, uploads of fresh random bytes, or photos. */
  const write = async (origin: string, n: number, writer: Kind): Promise<Sent> => {
    const title = `${TITLE} ${writer}-${n}-${randomBytes(4).toString('hex')}`
    const send = (path: string, body: string) =>
      fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x.atom+xml', 'X-WSSE': createWsseHeader(credentials) },
        body,
      })
    const entry = (content: string) =>
      `<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://purl.org/atom/ns#"><title>${title}</title>${content}</entry>`
    if (writer === 'photo') {
      const photo = photos[n % photos.length]!
      const answer = await send(albumPath, entry(`<content mode="base64" type="image/jpeg">${photo.toString('base64')}</content>`))
      if (answer.status !== 201) throw new Error(`photo: ${answer.status} ${await answer.text()}`)
      const written = readEntry(await answer.text())
      const photoId = /\/media\/thumbnails\/(\d+)\.jpg$/.exec(written.extensions.find((element) => element.ns === NS.photo && element.name === 'thumbnail')!.text)![1]
      const filename = written.extensions.find((element) => element.ns === NS.photo && element.name === 'filename')!.text
      return { title, file: { path: `/media/photos/${photoId}/${encodeURIComponent(filename)}`, sha256: sha256(photo) } }
    }
    if (writer === 'upload') {
      const bytes = randomBytes(48 * 1024)
      const name = `${title.replaceAll(' ', '-')}.bin`
      const answer = await send('/t/atom/weblog/blog_id=1/svc=upload', `<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://purl.org/atom/ns#"><title>${name}</title><content mode="base64" type="application/octet-stream">${bytes.toString('base64')}</content></entry>`)
      if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${await answer.text()}`)
      await answer.arrayBuffer()
      return { title: name, file: { path: new URL(answer.headers.get('location')!).pathname, sha256: sha256(bytes) } }
    }
    const answer = await send('/t/atom/weblog/blog_id=1', entry(`<content mode="escaped">&lt;p&gt;${title}&lt;/p&gt;</content>`))
    if (answer.status !== 201) throw new Error(`post: ${answer.status} ${await answer.text()}`)
    await answer.arrayBuffer()
    return { title }
  }

  it(`keeps every post, photo and upload it acknowledged, once and intact, across ${KILLS} kills`, async () => {
    const acknowledged: Sent[] = []
    let cutOff = 0
    let n = 0
    for (let kill = 0; kill < KILLS; kill++) {
      const running = instance!
      let killed = false
      const answered = new Set<Kind>()
      let failure: unknown
      const writer = async (kind: Kind) => {
        while (!killed) {
          try {
            acknowledged.push(await write(running.url, n++, kind))
            answered.add(kind)
          } catch (error) {
            // Only the kill may fail a request; anything else is a failure of the test.
            if (!killed) {
              failure ??= error
              return
            }
            cutOff++
          }
        }
      }
      const writers = WRITERS.map(writer)
      // Each kind has been acknowledged by this run of the instance before it is killed.
      while (answered.size < WRITERS.length && failure === undefined) await sleep(2)
      await sleep(randomInt(KILL_WINDOW_MS))
      killed = true
      process.kill(running.pid, 'SIGKILL')
      await running.exited
      await Promise.all(writers)
      if (failure !== undefined) throw failure
      instance = await startServiceProcess(dir, 0, { database: database.url })
    }
    console.info(`kill mid-write: ${KILLS} kills, ${acknowledged.length} writes acknowledged, ${cutOff} cut off by a kill`)
    expect(cutOff).toBeGreaterThan(KILLS / 2)

    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    const counted = new Map<string, number>()
    try {
      const rows = await client.query(
        `SELECT title, COUNT(*) AS n FROM (
           SELECT title FROM posts UNION ALL SELECT title FROM photos UNION ALL SELECT filename AS title FROM uploads
         ) AS written WHERE title LIKE $1 OR title LIKE $2 GROUP BY title`,
        [`${TITLE} %`, `${TITLE.replaceAll(' ', '-')}-%`],
      )
      for (const row of rows.rows as { title: string; n: string }[]) counted.set(row.title, Number(row.n))
    } finally {
      await client.end()
    }
    expect([...counted].filter(([, count]) => count !== 1)).toEqual([])
    expect(acknowledged.filter((sent) => counted.get(sent.title) !== 1)).toEqual([])
    const files = acknowledged.filter((sent) => sent.file)
    expect(files.length).toBeGreaterThanOrEqual(2 * KILLS)
    for (const { title, file } of files) {
      const served = await fetch(`${instance!.url}${file!.path}`)
      expect(served.status, title).toBe(200)
      expect(sha256(new Uint8Array(await served.arrayBuffer())), title).toBe(file!.sha256)
    }
  }, TIME_LIMIT_MS)
})
