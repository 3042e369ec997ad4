// The sandbox's demo lists, as a client sees them on first start and after a restart.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NS, readEntry, readLinkFeed } from '../../src-protocol'
import { startService } from '../server'
import { readSandboxFile, signedRequest } from '../testing/service-fixture'
import { openTestStore, testDatabaseOption } from '../testing/postgres'

describe('demo lists', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-demo-lists-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  async function readDemoLists(): Promise<{ titles: string[]; firstBook: string | null; pages: string[] }> {
    const service = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true })
    try {
      const sandbox = readSandboxFile(dataDir)
      const credentials = { username: sandbox.username, password: sandbox.apiPassword }
      const root = `${sandbox.atomBase}/t/atom/lists`
      const links = readLinkFeed(await (await signedRequest(root, credentials)).text(), root)
      const pages = await Promise.all(
        links.filter((link) => link.rel === 'alternate').map(async (link) => (await fetch(link.href)).text()),
      )
      const firstBook = readEntry(await (await signedRequest(`${root}/list_id=2/entry_id=5`, credentials)).text())
      return {
        titles: links.filter((link) => link.rel === 'service.post').map((link) => link.title ?? ''),
        firstBook: firstBook.extensions.find((element) => element.ns === NS.book && element.name === 'title')?.text ?? null,
        pages,
      }
    } finally {
      await service.close()
    }
  }

  it('has one list of each type with a few items, books filled in from the local catalogue', async () => {
    const { titles, firstBook, pages } = await readDemoLists()
    expect(titles).toEqual(['Heavy rotation', 'On the desk', 'People I read', 'Specifications'])
    expect(firstBook).toBe('The C Programming Language, Second Edition')
    const kinds = pages.map((html) => /A list of (\w+) · (\d+) items/.exec(html)?.slice(1))
    expect(kinds).toEqual([
      ['music', '4'],
      ['books', '4'],
      ['people', '3'],
      ['links', '4'],
    ])
    expect(pages[0]).toContain('Serge Gainsbourg - Ballade de Melody Nelson')
    expect(pages[1]).toContain('Douglas R. Hofstadter: Gödel, Escher, Bach: An Eternal Golden Braid')
  })

  it('announces every item with a NewAsset event, and seeds nothing twice on a restart', async () => {
    await readDemoLists()
    const store = await openTestStore(dataDir)
    try {
      const user = (await store.users.find('melody'))!
      const lists = await store.lists.ownedBy(user.id)
      const itemIds: number[] = []
      for (const list of lists) itemIds.push(...(await store.lists.itemsOf(list.id)).map((item) => item.id))
      const events = (await store.events.streamPage(user.id, null, 500)).filter((event) => event.objectType === 'ListItem')
      expect(lists).toHaveLength(4)
      expect(itemIds).toHaveLength(15)
      expect(events.map((event) => event.objectId).sort((a, b) => a - b)).toEqual([...itemIds].sort((a, b) => a - b))
      expect(events.every((event) => event.verb === 'NewAsset')).toBe(true)
    } finally {
      await store.close()
    }
  })
})
