import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Weblog } from '../../../src-shared/contract'
import type { FeedPage } from '../atom'
import { Caches } from './caches'
import { LocalStore } from './database'

const ORIGIN = 'http://127.0.0.1:4567'
const weblog = (id: number, title: string): Weblog => ({
  title,
  postUri: `${ORIGIN}/t/atom/weblog/blog_id=${id}`,
  feedUri: `${ORIGIN}/t/atom/weblog/blog_id=${id}/svc=feed`,
  uploadUri: `${ORIGIN}/t/atom/weblog/blog_id=${id}/svc=upload`,
  categoriesUri: `${ORIGIN}/t/atom/weblog/blog_id=${id}/svc=categories`,
  homeUrl: `${ORIGIN}/melody/${id}`,
  schedulesPosts: false,
})

describe('Caches', () => {
  let dir: string
  let file: string
  let store: LocalStore
  let now: number
  let caches: Caches

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-caches-'))
    file = join(dir, 'blogdesk.sqlite')
    store = LocalStore.open(file)
    for (const id of ['melody', 'jules']) {
      store.run(
        `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
         VALUES (:id, :origin, :root, :id, '2026-01-01')`,
        { id, origin: ORIGIN, root: `${ORIGIN}/t/atom/weblog` },
      )
    }
    now = Date.parse('2026-03-01T09:00:00.000Z')
    caches = new Caches(store, { now: () => now })
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('has nothing for what was never fetched', () => {
    expect(caches.weblogs('melody')).toBeNull()
    expect(caches.categories('melody', weblog(1, 'Lisbon').postUri)).toBeNull()
    expect(caches.feedPage('melody', `${ORIGIN}/feed`)).toBeNull()
    expect(caches.albums('melody')).toBeNull()
    expect(caches.lists('melody')).toBeNull()
    expect(caches.weblog('melody', weblog(1, 'Lisbon').postUri)).toBeNull()
  })

  it('keeps each account’s weblogs, replaced whole, with when they were fetched, across a restart', () => {
    caches.replaceWeblogs('melody', [weblog(1, 'Lisbon'), weblog(2, 'Porto')])
    caches.replaceWeblogs('jules', [weblog(3, 'Jules’s')])
    now += 60_000
    caches.replaceWeblogs('melody', [weblog(2, 'Porto, renamed')])

    store.close()
    store = LocalStore.open(file)
    caches = new Caches(store)
    expect(caches.weblogs('melody')).toEqual({ value: [weblog(2, 'Porto, renamed')], fetchedAt: '2026-03-01T09:01:00.000Z' })
    expect(caches.weblogs('jules')?.value).toEqual([weblog(3, 'Jules’s')])
    expect(caches.weblog('melody', weblog(2, '').postUri)?.uploadUri).toBe(weblog(2, '').uploadUri)
    expect(caches.weblog('melody', weblog(1, '').postUri)).toBeNull()
  })

  it('keeps categories per weblog, and the first page of each feed', () => {
    const lisbon = weblog(1, 'Lisbon')
    caches.replaceCategories('melody', lisbon.postUri, ['Trams', 'Food'])
    caches.replaceCategories('melody', weblog(2, 'Porto').postUri, ['Wine'])
    expect(caches.categories('melody', lisbon.postUri)).toEqual({ value: ['Trams', 'Food'], fetchedAt: '2026-03-01T09:00:00.000Z' })
    expect(caches.categories('jules', lisbon.postUri)).toBeNull()

    const page: FeedPage = {
      posts: [
        {
          editUri: `${lisbon.postUri}/entry_id=9`,
          id: 'tag:127.0.0.1,2026:9',
          permalink: `${ORIGIN}/melody/1/9`,
          title: 'Tram 28',
          content: '<p>Up the hill</p>',
          categories: ['Trams'],
          issued: '2026-02-28T10:00:00Z',
          modified: '2026-02-28T10:05:00Z',
        },
      ],
      next: `${lisbon.feedUri}/offset=20`,
      prev: null,
    }
    caches.replaceFeedPage('melody', lisbon.feedUri!, page, lisbon.postUri)
    expect(caches.feedPage('melody', lisbon.feedUri!)?.value).toEqual(page)
  })

  it('finds a post in the account’s cached feed pages by its EditURI, as the latest page to show it had it', () => {
    const lisbon = weblog(1, 'Lisbon')
    const post = (title: string) => ({
      editUri: `${lisbon.postUri}/entry_id=9`,
      id: 'tag:127.0.0.1,2026:9',
      permalink: `${ORIGIN}/melody/1/9`,
      title,
      content: '<p>Up the hill</p>',
      categories: ['Trams'],
      issued: '2026-02-28T10:00:00Z',
      modified: null,
    })
    caches.replaceFeedPage('melody', `${lisbon.feedUri}/offset=20`, { posts: [post('Tram 28')], next: null, prev: lisbon.feedUri }, lisbon.postUri)
    now += 60_000
    caches.replaceFeedPage('melody', lisbon.feedUri!, { posts: [post('Tram 28, renamed')], next: null, prev: null }, lisbon.postUri)

    expect(caches.feedPost('melody', post('').editUri)).toEqual({ value: post('Tram 28, renamed'), fetchedAt: '2026-03-01T09:01:00.000Z' })
    expect(caches.feedPost('melody', `${lisbon.postUri}/entry_id=10`)).toBeNull()
    expect(caches.feedPost('jules', post('').editUri)).toBeNull()
  })

  it('keeps an account’s albums and lists apart', () => {
    const album = { title: 'Lisbon, July', postUri: `${ORIGIN}/t/atom/gallery/album_id=1`, homeUrl: `${ORIGIN}/melody/photos/1`, feedUri: null }
    const list = { title: 'Books read', postUri: `${ORIGIN}/t/atom/lists/list_id=4`, homeUrl: null, feedUri: null }
    caches.replaceAlbums('melody', [album])
    caches.replaceLists('melody', [list])
    expect(caches.albums('melody')?.value).toEqual([album])
    expect(caches.lists('melody')?.value).toEqual([list])
  })

  it('keeps what was sent to an album or a list newest first, once per operation, across a restart', () => {
    const albumUri = `${ORIGIN}/t/atom/gallery/set_id=1`
    const photo = (title: string) => ({ title, caption: null, url: `${ORIGIN}/albums/1/${title}`, thumbnailUrl: null, takenAt: null })
    caches.addSentPhoto('melody', albumUri, 7, photo('tram'))
    caches.addSentPhoto('melody', albumUri, 9, photo('sunset'))
    caches.addSentPhoto('melody', albumUri, 7, photo('tram'))
    const listUri = `${ORIGIN}/t/atom/lists/list_id=2`
    const entry = { title: 'Madredeus - O Pastor', fields: { artist: 'Madredeus', title: 'O Pastor' }, rating: 5, notes: null, issued: null }
    caches.addSentListEntry('melody', listUri, 11, entry)
    caches.rememberListType('melody', listUri, 'music')

    store.close()
    store = LocalStore.open(file)
    caches = new Caches(store, { now: () => now })
    expect(caches.sentPhotos('melody', albumUri)).toEqual([photo('sunset'), photo('tram')])
    expect(caches.sentPhotos('jules', albumUri)).toEqual([])
    expect(caches.sentListEntries('melody', listUri)).toEqual([entry])
    expect(caches.listType('melody', listUri)).toBe('music')
    expect(caches.listType('melody', `${ORIGIN}/t/atom/lists/list_id=3`)).toBeNull()
  })

  it('forgets an account’s caches with the account', () => {
    caches.replaceWeblogs('melody', [weblog(1, 'Lisbon')])
    caches.replaceCategories('melody', weblog(1, 'Lisbon').postUri, ['Trams'])
    store.run("DELETE FROM accounts WHERE id = 'melody'")
    expect(caches.weblogs('melody')).toBeNull()
    expect(caches.categories('melody', weblog(1, 'Lisbon').postUri)).toBeNull()
  })
})
