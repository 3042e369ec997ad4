// Post properties against a peer that is not Blogdesk's service, played on loopback as Movable Type behaves: it
// advertises no scheduling (a post dated in the future would be public at once) and files a post under only the
// first of the categories it is sent (docs/PROTOCOL.md, Movable Type quirks).
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE, readEntry, writeEntry, writeLinkFeed, type AtomEntry } from '../../../src-protocol'
import { ManualClock } from '../testing/manual-clock'
import { openSyncFixture, type SyncFixture } from '../testing/sync-fixture'

interface Received {
  at: number
  entry: AtomEntry
}

/** A weblog server with one weblog that keeps only the first category of a post, and records when posts arrive. */
async function startFirstCategoryPeer(clock: ManualClock): Promise<{ origin: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = []
  const stored = new Map<string, AtomEntry>()
  let origin = ''
  const server: Server = createServer((request: IncomingMessage, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      const answer = (status: number, xml: string, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'Content-Type': `${ATOM_MEDIA_TYPE}; charset=utf-8`, ...headers })
        response.end(xml)
      }
      const weblog = `${origin}/mt-atom.cgi/weblog/blog_id=1`
      if (request.method === 'GET' && request.url === '/mt-atom.cgi/weblog') {
        const link = (rel: string) => ({ rel, href: weblog, type: ATOM_MEDIA_TYPE, title: 'First things first' })
        return answer(200, writeLinkFeed([link('service.post'), link('service.feed')]))
      }
      if (request.method === 'POST' && request.url === '/mt-atom.cgi/weblog/blog_id=1') {
        const entry = readEntry(body)
        received.push({ at: clock.now(), entry })
        const editUri = `${weblog}/entry_id=${received.length}`
        const kept: AtomEntry = { ...entry, subjects: entry.subjects.slice(0, 1) }
        stored.set(editUri, kept)
        const title = entry.title ?? ''
        const written = writeEntry({
          title,
          summary: entry.summary,
          content: entry.content,
          issued: entry.issued,
          subjects: kept.subjects,
          links: [{ rel: 'service.edit', href: editUri, type: ATOM_MEDIA_TYPE, title }],
        })
        return answer(201, written, { Location: editUri })
      }
      answer(404, '<error>No such address</error>')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, received, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

describe('post properties on a peer without scheduling', () => {
  let clock: ManualClock
  let peer: Awaited<ReturnType<typeof startFirstCategoryPeer>>
  let fixture: SyncFixture
  beforeEach(async () => {
    clock = new ManualClock()
    peer = await startFirstCategoryPeer(clock)
    fixture = await openSyncFixture({ account: { atomBase: `${peer.origin}/mt-atom.cgi/weblog`, username: 'Melody', password: 'secret' } })
  })
  afterEach(async () => {
    await fixture.dispose()
    await peer.close()
  })

  it('holds a post dated in the future in the outbox until its time, saying so, then sends it with its date', async () => {
    const { drafts, accountId } = fixture
    const [weblog] = fixture.weblogs
    expect(weblog!.schedulesPosts).toBe(false)
    const issued = new Date(Math.floor(clock.now() / 1000) * 1000 + 3_600_000).toISOString().replace('.000Z', 'Z')
    const draft = drafts.create({ accountId, weblogPostUri: weblog!.postUri, title: 'Tomorrow', content: '<p>Soon.</p>' })
    drafts.save(draft.id, { issued, summary: 'Not yet' })
    const engine = fixture.engine({ clock })
    engine.start()

    const queued = engine.publish(draft.id)
    await engine.flush()
    expect(peer.received).toHaveLength(0)
    expect(engine.heldUntil(draft.id)).toBe(Date.parse(issued))
    expect(engine.operation(queued.id)!.state).toBe('queued')
    // "Send now" does not send it early: the hold is the person's date, not a retry.
    engine.sendNow()
    await engine.flush()
    expect(peer.received).toHaveLength(0)

    clock.advance(3_600_000 - 1_000)
    await engine.flush()
    expect(peer.received).toHaveLength(0)

    clock.advance(1_000)
    await engine.drain()
    expect(peer.received).toHaveLength(1)
    expect(peer.received[0]!.at).toBeGreaterThanOrEqual(Date.parse(issued))
    expect(peer.received[0]!.entry.issued).toBe(issued)
    expect(peer.received[0]!.entry.summary).toBe('Not yet')
    expect(engine.heldUntil(draft.id)).toBe(0)
    expect(drafts.get(draft.id)!.state).toBe('published')
  })

  it('sends a back-dated post at once', async () => {
    const { drafts, accountId } = fixture
    const draft = drafts.create({ accountId, weblogPostUri: fixture.weblogs[0]!.postUri, title: 'From the archive', content: '<p>Old.</p>' })
    drafts.save(draft.id, { issued: '2020-02-02T10:00:00Z' })
    const engine = fixture.engine({ clock })
    engine.publish(draft.id)
    await engine.drain()
    expect(peer.received.map((received) => received.entry.issued)).toEqual(['2020-02-02T10:00:00Z'])
  })

  it('records the categories the server dropped, comparing its answer with what was sent', async () => {
    const { drafts, accountId } = fixture
    const draft = drafts.create({
      accountId,
      weblogPostUri: fixture.weblogs[0]!.postUri,
      title: 'Filed twice',
      content: '<p>Two categories.</p>',
      categories: ['Peer Testing', 'Travel', 'Food'],
    })
    const engine = fixture.engine({ clock })
    engine.publish(draft.id)
    await engine.drain()

    expect(peer.received[0]!.entry.subjects).toEqual(['Peer Testing', 'Travel', 'Food'])
    expect(drafts.get(draft.id)!.droppedCategories).toEqual(['Travel', 'Food'])
  })
})
