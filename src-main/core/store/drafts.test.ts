import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RemotePost } from '../atom'
import { LocalStore } from './database'
import { Drafts, REVISION_PAUSE_MS, REVISION_SPAN_MS, TRASH_KEEP_MS } from './drafts'

const WEBLOG = 'http://127.0.0.1:4567/t/atom/weblog/blog_id=1'
const OTHER_WEBLOG = 'http://127.0.0.1:4567/t/atom/weblog/blog_id=2'

describe('Drafts', () => {
  let dir: string
  let store: LocalStore
  let now: number
  let drafts: Drafts
  const later = (ms: number) => (now += ms)

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-drafts-'))
    store = LocalStore.open(join(dir, 'blogdesk.sqlite'))
    store.run(
      `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
       VALUES ('melody', 'http://127.0.0.1:4567', 'http://127.0.0.1:4567/t/atom/weblog', 'melody', '2026-01-01')`,
    )
    now = Date.parse('2026-03-01T09:00:00.000Z')
    drafts = new Drafts(store, { now: () => now })
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps a new draft with its first revision, and finds it again after a restart', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Tram 28', content: '<p>Up the hill</p>', categories: ['Lisbon'] })
    expect(draft).toMatchObject({
      accountId: 'melody',
      weblogPostUri: WEBLOG,
      title: 'Tram 28',
      content: '<p>Up the hill</p>',
      categories: ['Lisbon'],
      state: 'draft',
      remote: null,
      conflict: null,
      lastError: null,
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-01T09:00:00.000Z',
    })
    expect(drafts.revisions(draft.id)).toMatchObject([{ title: 'Tram 28', content: '<p>Up the hill</p>', restoredFrom: null }])

    store.close()
    store = LocalStore.open(join(dir, 'blogdesk.sqlite'))
    expect(new Drafts(store).get(draft.id)).toEqual(draft)
  })

  it('turns an autosave every second for ten minutes into a handful of revisions, not six hundred', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG })
    for (let second = 1; second <= 600; second++) {
      later(1000)
      drafts.save(draft.id, { content: `<p>${'word '.repeat(second)}</p>` })
    }
    const revisions = drafts.revisions(draft.id)
    // The first (empty) draft, then one revision per REVISION_SPAN_MS of unbroken typing.
    expect(revisions).toHaveLength(1 + Math.ceil((600 * 1000) / REVISION_SPAN_MS))
    expect(revisions[0]!.content).toBe(drafts.get(draft.id)!.content)
  })

  it('starts a new revision after a pause in saving', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, content: '<p>one</p>' })
    later(1000)
    drafts.save(draft.id, { content: '<p>one two</p>' })
    later(REVISION_PAUSE_MS - 1)
    drafts.save(draft.id, { content: '<p>one two three</p>' })
    expect(drafts.revisions(draft.id).map((revision) => revision.content)).toEqual(['<p>one two three</p>'])

    later(REVISION_PAUSE_MS)
    drafts.save(draft.id, { title: 'Counting' })
    expect(drafts.revisions(draft.id).map((revision) => [revision.title, revision.content])).toEqual([
      ['Counting', '<p>one two three</p>'],
      ['', '<p>one two three</p>'],
    ])
  })

  it('keeps text the person did not type apart in the history, however soon it comes', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Shared', content: '<p>mine</p>' })
    later(1_000)
    drafts.save(draft.id, { content: '<p>theirs</p>' }, { newRevision: true })
    later(1_000)
    drafts.save(draft.id, { content: '<p>theirs, and mine</p>' })
    expect(drafts.revisions(draft.id).map((revision) => revision.content)).toEqual(['<p>theirs, and mine</p>', '<p>mine</p>'])
  })

  it('does nothing for a save that changes nothing', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Same' })
    later(REVISION_PAUSE_MS * 2)
    expect(drafts.save(draft.id, { title: 'Same', categories: [] })).toEqual(draft)
    expect(drafts.revisions(draft.id)).toHaveLength(1)
  })

  it('restores an old revision as a new one, so the text it replaces stays in the history', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'First', content: '<p>first</p>' })
    const [original] = drafts.revisions(draft.id)
    later(REVISION_PAUSE_MS)
    drafts.save(draft.id, { title: 'Second', content: '<p>second</p>', categories: ['Edits'] })

    later(1000)
    const restored = drafts.restore(draft.id, original!.id)
    expect(restored).toMatchObject({ title: 'First', content: '<p>first</p>', categories: [] })
    expect(drafts.revisions(draft.id).map((revision) => [revision.title, revision.restoredFrom])).toEqual([
      ['First', original!.id],
      ['Second', null],
      ['First', null],
    ])

    // Typing straight after a restore starts its own revision: the restored one keeps the text it brought back.
    later(1000)
    drafts.save(draft.id, { title: 'First, again' })
    expect(drafts.revisions(draft.id).map((revision) => revision.title)).toEqual(['First, again', 'First', 'Second', 'First'])
  })

  it('refuses to restore a revision of another draft', () => {
    const mine = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG })
    const other = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG })
    const [foreign] = drafts.revisions(other.id)
    expect(() => drafts.restore(mine.id, foreign!.id)).toThrow(/That revision is not in this draft’s history/)
  })

  it('lists a weblog’s drafts, or all of an account’s, the most recently changed first', () => {
    const older = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Older' })
    later(1000)
    const elsewhere = drafts.create({ accountId: 'melody', weblogPostUri: OTHER_WEBLOG, title: 'Elsewhere' })
    later(1000)
    const newer = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Newer' })
    later(1000)
    drafts.save(older.id, { content: '<p>touched</p>' })

    expect(drafts.list('melody', WEBLOG).map((draft) => draft.title)).toEqual(['Older', 'Newer'])
    expect(drafts.list('melody').map((draft) => draft.id)).toEqual([older.id, newer.id, elsewhere.id])
    expect(drafts.list('nobody')).toEqual([])
  })

  it('records the remote post and moves through states, clearing an error once the state moves on', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Going out' })
    drafts.setState(draft.id, 'queued')
    drafts.setState(draft.id, 'sending')
    drafts.setState(draft.id, 'needs-attention', { lastError: 'The server refused the category “Lisbon”.' })
    expect(drafts.get(draft.id)).toMatchObject({
      state: 'needs-attention',
      lastError: 'The server refused the category “Lisbon”.',
    })
    const remote = {
      editUri: `${WEBLOG}/entry_id=7`,
      id: 'tag:127.0.0.1,2026:7',
      permalink: 'http://127.0.0.1:4567/melody/2026/03/going-out',
      baseModified: '2026-03-01T09:00:05Z',
      baseContentHash: 'c0ffee',
    }
    drafts.setState(draft.id, 'published', { remote })
    expect(drafts.get(draft.id)).toMatchObject({ state: 'published', lastError: null, remote })

    const moved = { ...remote, baseModified: '2026-03-02T10:00:00Z', baseContentHash: 'beef' }
    expect(drafts.setRemote(draft.id, moved).remote).toEqual(moved)
  })

  it('keeps the server’s copy beside ours in a conflict, until the draft moves on', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Ours', content: '<p>ours</p>' })
    const server: RemotePost = {
      editUri: `${WEBLOG}/entry_id=7`,
      id: null,
      permalink: null,
      title: 'Theirs',
      content: '<p>theirs</p>',
      categories: ['Edited elsewhere'],
      issued: '2026-03-01T09:00:00Z',
      modified: '2026-03-01T10:00:00Z',
    }
    later(5000)
    const conflicted = drafts.setConflict(draft.id, server)
    expect(conflicted).toMatchObject({ state: 'conflict', title: 'Ours', content: '<p>ours</p>', conflict: { server, detectedAt: '2026-03-01T09:00:05.000Z' } })

    drafts.save(draft.id, { content: '<p>ours and theirs</p>' })
    expect(drafts.get(draft.id)!.conflict).toEqual(conflicted.conflict)
    drafts.setState(draft.id, 'queued')
    expect(drafts.get(draft.id)).toMatchObject({ state: 'queued', conflict: null })
  })

  it('refuses edits to a deleted post, saying why', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Gone' })
    drafts.setState(draft.id, 'deleted')
    expect(() => drafts.save(draft.id, { title: 'Back?' })).toThrow('“Gone” was deleted from the weblog, so it can no longer be edited.')
    expect(() => drafts.setState('no-such-draft', 'queued')).toThrow('That draft is no longer in Blogdesk')
  })

  it('moves a draft to the Trash with its history, out of the lists, and brings it back first in its list', () => {
    const kept = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Kept' })
    const trashed = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Second thoughts', content: '<p>one</p>' })
    later(REVISION_PAUSE_MS)
    drafts.save(trashed.id, { content: '<p>two</p>' })

    later(1000)
    expect(drafts.moveToTrash(trashed.id).trashedAt).toBe(new Date(now).toISOString())
    expect(drafts.list('melody').map((draft) => draft.id)).toEqual([kept.id])
    expect(drafts.page('melody', WEBLOG, null, 10).drafts.map((draft) => draft.id)).toEqual([kept.id])
    expect(drafts.trash('melody', WEBLOG).map((draft) => draft.title)).toEqual(['Second thoughts'])
    expect(drafts.trash('melody', OTHER_WEBLOG)).toEqual([])
    expect(() => drafts.save(trashed.id, { title: 'Edited?' })).toThrow('“Second thoughts” is in the Trash. Restore it from there to edit it.')

    later(1000)
    const restored = drafts.restoreFromTrash(trashed.id)
    expect(restored).toMatchObject({ trashedAt: null, content: '<p>two</p>', updatedAt: new Date(now).toISOString() })
    expect(drafts.revisions(trashed.id).map((revision) => revision.content)).toEqual(['<p>two</p>', '<p>one</p>'])
    expect(drafts.list('melody').map((draft) => draft.id)).toEqual([trashed.id, kept.id])
    expect(drafts.trash('melody')).toEqual([])
    expect(() => drafts.restoreFromTrash(trashed.id)).toThrow('“Second thoughts” is not in the Trash')
  })

  it('deletes for good only a draft in the Trash, with its history', () => {
    const dropped = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Dropped' })
    expect(() => drafts.deleteFromTrash(dropped.id)).toThrow('“Dropped” is not in the Trash')

    drafts.moveToTrash(dropped.id)
    drafts.deleteFromTrash(dropped.id)
    expect(drafts.get(dropped.id)).toBeNull()
    expect(drafts.revisions(dropped.id)).toEqual([])
    expect(() => drafts.deleteFromTrash(dropped.id)).toThrow('That draft is no longer in Blogdesk')
  })

  it('empties one weblog’s Trash for good, and only it', () => {
    const kept = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Kept' })
    const [first, second, elsewhere] = [WEBLOG, WEBLOG, OTHER_WEBLOG].map((weblogPostUri) => drafts.moveToTrash(drafts.create({ accountId: 'melody', weblogPostUri }).id))
    expect(drafts.emptyTrash('melody', WEBLOG)).toBe(2)
    expect([first, second].map((draft) => drafts.get(draft!.id))).toEqual([null, null])
    expect(store.get('SELECT count(*) AS n FROM draft_revisions WHERE draft_id IN (:a, :b)', { a: first!.id, b: second!.id })?.['n']).toBe(0)
    expect(drafts.trash('melody', OTHER_WEBLOG).map((draft) => draft.id)).toEqual([elsewhere!.id])
    expect(drafts.get(kept.id)).not.toBeNull()
  })

  it('purges drafts in the Trash for more than 30 days when the store opens again, and no others', () => {
    const old = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Trashed a month ago' })
    drafts.moveToTrash(old.id)
    later(TRASH_KEEP_MS / 2)
    const recent = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Trashed a fortnight ago' })
    drafts.moveToTrash(recent.id)
    const untouched = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Never trashed' })

    store.close()
    store = LocalStore.open(join(dir, 'blogdesk.sqlite'))
    later(TRASH_KEEP_MS / 2 - 1000)
    expect(new Drafts(store, { now: () => now }).purgeTrash()).toBe(0)
    later(2000)
    drafts = new Drafts(store, { now: () => now })
    expect(drafts.purgeTrash()).toBe(1)
    expect(drafts.get(old.id)).toBeNull()
    expect(drafts.trash('melody').map((draft) => draft.id)).toEqual([recent.id])
    expect(drafts.list('melody').map((draft) => draft.id)).toEqual([untouched.id])
  })

  it('works inside a caller’s transaction, and is undone with it', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Queued with its operation' })
    expect(() =>
      store.transaction(() => {
        drafts.setState(draft.id, 'queued')
        throw new Error('the outbox insert failed')
      }),
    ).toThrow('the outbox insert failed')
    expect(drafts.get(draft.id)!.state).toBe('draft')
  })

  it('refuses a draft for an account that is not in Blogdesk', () => {
    expect(() => drafts.create({ accountId: 'stranger', weblogPostUri: WEBLOG })).toThrow(/FOREIGN KEY constraint failed/)
  })
})
