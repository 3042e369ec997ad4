// The sandbox's demo weblog, as a client sees it on first start and after a restart.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readCategories, readFeed, type AtomEntry } from '../../src-protocol'
import { startService } from '../server'
import { readSandboxFile, signedRequest } from '../testing/service-fixture'
import { openTestStore, testDatabaseOption } from '../testing/postgres'

describe('demo weblog posts', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-demo-posts-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  async function readDemoWeblog(): Promise<{ entries: AtomEntry[]; pages: number; categories: string[] }> {
    const service = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true })
    try {
      const sandbox = readSandboxFile(dataDir)
      const credentials = { username: sandbox.username, password: sandbox.apiPassword }
      const feedUri = `${sandbox.atomBase}/t/atom/weblog/blog_id=1`
      const entries: AtomEntry[] = []
      let pages = 0
      for (let next: string | undefined = feedUri; next; pages++) {
        const feed = readFeed(await (await signedRequest(next, credentials)).text())
        entries.push(...feed.entries)
        next = feed.links.find((link) => link.rel === 'next')?.href
      }
      const categories = readCategories(await (await signedRequest(`${feedUri}/svc=categories`, credentials)).text())
      return { entries, pages, categories }
    } finally {
      await service.close()
    }
  }

  it('has categories and dozens of dated, filed posts with varied XHTML, each announced by a NewAsset event', async () => {
    const { entries, pages, categories } = await readDemoWeblog()
    expect(categories.length).toBeGreaterThanOrEqual(4)
    expect(entries.length).toBeGreaterThanOrEqual(45)
    expect(pages).toBeGreaterThanOrEqual(3)
    expect(new Set(entries.map((entry) => entry.title)).size).toBe(entries.length)

    const issued = entries.map((entry) => Date.parse(entry.issued!))
    expect(issued).toEqual([...issued].sort((a, b) => b - a))
    expect(issued[0]!).toBeLessThanOrEqual(Date.now())
    expect(issued[0]! - issued.at(-1)!).toBeGreaterThan(90 * 86_400_000)

    for (const entry of entries) expect(entry.subjects.every((subject) => categories.includes(subject))).toBe(true)
    expect(new Set(entries.flatMap((entry) => entry.subjects))).toEqual(new Set(categories))
    const markup = entries.map((entry) => entry.content?.value ?? '').join('\n')
    for (const element of ['<h2>', '<ul>', '<ol>', '<blockquote>', '<a href="https://']) expect(markup).toContain(element)
    expect(new Set(entries.map((entry) => entry.content?.mode))).toEqual(new Set(['xml', 'escaped']))

    const store = await openTestStore(dataDir)
    try {
      // Photos, list items and the demo account's favourites (demo/social.ts) have their own events.
      const events = (await store.events.streamPage((await store.users.find('melody'))!.id, null, 1000)).filter((event) => event.objectType === 'Post' && event.verb === 'NewAsset')
      expect(events).toHaveLength(entries.length)
      expect(events.map((event) => event.published)).toEqual(entries.map((entry) => entry.issued))
    } finally {
      await store.close()
    }
  })

  it('is seeded once: a restart finds the same posts', async () => {
    const first = await readDemoWeblog()
    const second = await readDemoWeblog()
    expect(second.entries.map((entry) => entry.id)).toEqual(first.entries.map((entry) => entry.id))
  })
})
