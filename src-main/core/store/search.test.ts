import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RemotePost } from '../atom'
import { Caches } from './caches'
import { LocalStore } from './database'
import { Drafts } from './drafts'
import { migrations } from './migrations'
import { MATCH_END, MATCH_START, Search, matchQueryOf } from './search'

const WEBLOG = 'http://127.0.0.1:4567/t/atom/weblog/blog_id=1'
const FEED = 'http://127.0.0.1:4567/t/atom/weblog/blog_id=1/feed'

/** A marked result as the person reads it: matched words in [brackets]. */
const shown = (marked: string) => marked.replaceAll(MATCH_START, '[').replaceAll(MATCH_END, ']')

function post(id: number, title: string, content: string): RemotePost {
  return {
    editUri: `${WEBLOG}/entry_id=${id}`,
    id: `tag:127.0.0.1,2026:${id}`,
    permalink: `http://127.0.0.1:4567/melody/${id}`,
    title,
    content,
    categories: [],
    issued: '2026-02-28T10:00:00Z',
    modified: null,
  }
}

describe('matchQueryOf', () => {
  it('quotes each word, so FTS syntax typed is only text, and matches the last word as a prefix while it is typed', () => {
    expect(matchQueryOf('tram hil')).toBe('"tram" "hil"*')
    expect(matchQueryOf('tram hill ')).toBe('"tram" "hill"')
    expect(matchQueryOf('NOT "quoted" OR title:x*')).toBe('"NOT" """quoted""" "OR" "title:x*"*')
    expect(matchQueryOf('tram h'), 'one letter is not yet a prefix').toBe('"tram" "h"')
    expect(matchQueryOf('  -- ** ')).toBeNull()
  })
})

describe('Search', () => {
  let dir: string
  let store: LocalStore
  let drafts: Drafts
  let caches: Caches
  let search: Search

  const addAccount = (id: string) =>
    store.run(
      `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
       VALUES (:id, 'http://127.0.0.1:4567', 'http://127.0.0.1:4567/t/atom/weblog', :id, '2026-01-01')`,
      { id },
    )
  const found = (typed: string, accountId = 'melody') =>
    search.find(accountId, typed, 50).documents.map((document) => ({ kind: document.kind, title: shown(document.title), snippet: shown(document.snippet) }))

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-search-'))
    store = LocalStore.open(join(dir, 'blogdesk.sqlite'))
    addAccount('melody')
    drafts = new Drafts(store)
    caches = new Caches(store)
    search = new Search(store)
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('finds drafts by title and text as plain words, marks the matches, and ignores markup and accents', () => {
    drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Tram 28', content: '<p>Up the <strong>hill</strong> to the café</p>' })
    drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Bakeries', content: '<p>Pastéis de nata</p>' })
    expect(found('hill')).toEqual([{ kind: 'draft', title: 'Tram 28', snippet: 'Up the [hill] to the café' }])
    expect(found('cafe')).toEqual([{ kind: 'draft', title: 'Tram 28', snippet: 'Up the hill to the [café]' }])
    expect(found('tram')).toEqual([{ kind: 'draft', title: '[Tram] 28', snippet: '' }])
    expect(found('strong'), 'markup is not text').toEqual([])
    expect(found('pas'), 'the last word as a prefix').toEqual([{ kind: 'draft', title: 'Bakeries', snippet: '[Pastéis] de nata' }])
    expect(found('pas '), 'a finished word whole').toEqual([])
    expect(found('hill nata'), 'every word must match').toEqual([])
  })

  it('follows every write of a draft: saves, the Trash, deletion for good, and its account going', () => {
    const draft = drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Tram 28', content: '<p>Up the hill</p>' })
    drafts.save(draft.id, { content: '<p>Down to the river</p>' })
    expect(found('hill')).toEqual([])
    expect(found('river')).toHaveLength(1)
    drafts.moveToTrash(draft.id)
    expect(found('river'), 'not in the Trash').toEqual([])
    drafts.restoreFromTrash(draft.id)
    expect(found('river')).toHaveLength(1)
    drafts.moveToTrash(draft.id)
    drafts.deleteFromTrash(draft.id)
    drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Ferry', content: '<p>Across the river</p>' })
    expect(found('river')).toHaveLength(1)
    store.run("DELETE FROM accounts WHERE id = 'melody'")
    expect(store.get('SELECT count(*) AS n FROM search_documents')?.['n']).toBe(0)
    expect(store.get("SELECT count(*) AS n FROM search_index WHERE search_index MATCH 'river'")?.['n']).toBe(0)
  })

  it('finds the cached posts of a feed page, forgets those no longer on it, and finds a post with a local draft once, as that draft', () => {
    caches.replaceFeedPage('melody', FEED, { posts: [post(1, 'Lisbon trams', '<p>Yellow and old</p>'), post(2, 'Porto', '<p>Bridges</p>')], next: null, prev: null }, WEBLOG)
    expect(found('yellow')).toEqual([{ kind: 'post', title: 'Lisbon trams', snippet: '[Yellow] and old' }])
    caches.replaceFeedPage('melody', FEED, { posts: [post(2, 'Porto', '<p>Bridges over the Douro</p>')], next: null, prev: null }, WEBLOG)
    expect(found('yellow')).toEqual([])
    expect(found('douro')).toHaveLength(1)

    const porto = post(2, 'Porto', '<p>Bridges over the Douro, and wine</p>')
    drafts.create({
      accountId: 'melody',
      weblogPostUri: WEBLOG,
      title: porto.title,
      content: porto.content,
      state: 'published',
      remote: { editUri: porto.editUri, id: porto.id, permalink: porto.permalink, baseModified: null, baseContentHash: null },
    })
    const [hit, ...others] = search.find('melody', 'douro', 50).documents
    expect(others).toEqual([])
    expect(hit).toMatchObject({ kind: 'post', editUri: porto.editUri, state: 'published' })
    expect(hit!.draftId).not.toBeNull()
    expect(shown(hit!.snippet)).toBe('Bridges over the [Douro], and wine')
  })

  it('keeps each account’s search to its own drafts and posts', () => {
    addAccount('nuno')
    drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: 'Tram 28', content: '' })
    drafts.create({ accountId: 'nuno', weblogPostUri: WEBLOG, title: 'Tram 15', content: '' })
    expect(found('tram', 'melody')).toEqual([{ kind: 'draft', title: '[Tram] 28', snippet: '' }])
    expect(found('tram', 'nuno')).toEqual([{ kind: 'draft', title: '[Tram] 15', snippet: '' }])
  })

  it('says when more matched than it answered', () => {
    for (let index = 0; index < 5; index++) drafts.create({ accountId: 'melody', weblogPostUri: WEBLOG, title: `Tram ${index}`, content: '' })
    expect(search.find('melody', 'tram', 3)).toMatchObject({ more: true, documents: { length: 3 } })
    expect(search.find('melody', 'tram', 5)).toMatchObject({ more: false, documents: { length: 5 } })
  })

  it('indexes the drafts already written when a store of the version before opens', () => {
    const file = join(dir, 'older.sqlite')
    const older = LocalStore.open(file, migrations.slice(0, 7))
    older.run(
      `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
       VALUES ('melody', 'http://127.0.0.1:4567', 'http://127.0.0.1:4567/t/atom/weblog', 'melody', '2026-01-01')`,
    )
    // As the code of that version wrote them: a draft restored once, and one in the Trash.
    const draft = (id: string, title: string, trashedAt: string | null) =>
      older.run(
        `INSERT INTO drafts (id, account_id, weblog_post_uri, title, content, categories, state, created_at, updated_at, trashed_at)
         VALUES (:id, 'melody', :weblog, :title, '<p>Before search</p>', '[]', 'draft', '2026-01-01', '2026-01-01', :trashedAt)`,
        { id, weblog: WEBLOG, title, trashedAt },
      )
    draft('kept', 'Written last year', null)
    draft('thrown', 'Thrown away before search', '2026-01-02')
    for (const restoredFrom of [null, 1]) {
      older.run(
        `INSERT INTO draft_revisions (draft_id, title, content, categories, started_at, saved_at, restored_from)
         VALUES ('kept', 'Written last year', '<p>Before search</p>', '[]', '2026-01-01', '2026-01-01', :restoredFrom)`,
        { restoredFrom },
      )
    }
    older.close()

    const reopened = LocalStore.open(file)
    try {
      const documents = new Search(reopened).find('melody', 'search', 50).documents
      expect(documents.map((document) => shown(document.title))).toEqual(['Written last year'])
      expect(new Drafts(reopened).revisions('kept').map((revision) => revision.reason)).toEqual(['restored', 'edited'])
    } finally {
      reopened.close()
    }
  })
})
