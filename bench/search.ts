// Search: an account's 1,000 drafts and 5,000 cached posts, queried as a person types (prefixes of one word, common
// and rare words, two words), through the store's Search as the search:query handler calls it. Target: p95 ≤ 30 ms.
// Reference in the same run: a draft read by its id (an indexed SELECT through the same store).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Caches, Drafts, LocalStore, Search } from '../src-main/core/index'
import { seededRandom } from '../src-protocol/seeded-random'
import type { BenchRow } from './table'
import { percentile } from './stats'

const ACCOUNT_ID = 'bench-account'
const WEBLOG = 'http://127.0.0.1:4567/t/atom/weblog/blog_id=1'
const DRAFTS = 1_000
const POSTS = 5_000
const POSTS_PER_PAGE = 20
const WORDS_PER_TEXT = 300
const VOCABULARY = 8_000
const ROUNDS = 15
const RESULTS = 50

/** The queries of one round: a word typed letter by letter, then common, rare and two-word searches. */
const QUERIES = ['t', 'tr', 'tra', 'tram', 'tram ', 'lisbon', 'the', 'qoruvik', 'tram hill', 'hill tra', 'café', 'nothingmatches']

export async function runSearchBench(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-search-'))
  const store = LocalStore.open(join(dir, 'blogdesk.sqlite'))
  try {
    const draftIds = fill(store)
    const search = new Search(store)
    const searchTimes: number[] = []
    const referenceTimes: number[] = []
    let matched = 0
    // A first round warms the statement cache and V8's compilation of SQLite's WebAssembly; it is not counted.
    for (let round = -1; round < ROUNDS; round++) {
      for (const [index, query] of QUERIES.entries()) {
        let started = performance.now()
        matched += search.find(ACCOUNT_ID, query, RESULTS).documents.length
        const searched = performance.now() - started
        started = performance.now()
        store.get('SELECT * FROM drafts WHERE id = :id', { id: draftIds[(round * QUERIES.length + index + DRAFTS) % DRAFTS]! })
        const read = performance.now() - started
        if (round >= 0) {
          searchTimes.push(searched)
          referenceTimes.push(read)
        }
      }
    }
    if (matched === 0) throw new Error('The benchmark’s queries matched nothing: the corpus is not what it should be.')
    const [p50, p95] = [percentile(searchTimes, 0.5), percentile(searchTimes, 0.95)]
    const [reference50, reference95] = [percentile(referenceTimes, 0.5), percentile(referenceTimes, 0.95)]
    return [
      { name: `search ${DRAFTS} drafts + ${POSTS} cached posts, p50`, value: p50, unit: 'ms', ratio: p50 / reference50, target: '× a draft read by id' },
      { name: `search ${DRAFTS} drafts + ${POSTS} cached posts, p95`, value: p95, unit: 'ms', ratio: p95 / reference95, target: '≤ 30 ms; × a draft read by id' },
      { name: 'reference: a draft read by id (indexed SELECT), p50', value: reference50, unit: 'ms' },
      { name: 'reference: a draft read by id (indexed SELECT), p95', value: reference95, unit: 'ms' },
    ]
  } finally {
    store.close()
    await rm(dir, { recursive: true, force: true })
  }
}

/** Writes the drafts and the cached pages of posts as the app does (so the triggers index them); answers the drafts' ids. */
function fill(store: LocalStore): string[] {
  store.run(
    `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
     VALUES (:id, 'http://127.0.0.1:4567', 'http://127.0.0.1:4567/t/atom/weblog', 'bench', '2026-01-01')`,
    { id: ACCOUNT_ID },
  )
  const random = seededRandom(14)
  const words = vocabulary(random)
  // Zipf-like: a few words are in nearly every text, most in a few.
  const word = () => words[Math.floor(VOCABULARY * random() ** 3)]!
  const text = () => Array.from({ length: WORDS_PER_TEXT }, word).join(' ')
  const html = () => `<p>${text()}</p><p>Up the <strong>hill</strong> on the tram to the café in Lisbon.</p>`
  const drafts = new Drafts(store)
  const ids = store.transaction(() =>
    Array.from({ length: DRAFTS }, (_, index) => drafts.create({ accountId: ACCOUNT_ID, weblogPostUri: WEBLOG, title: `${word()} ${word()} ${index}`, content: html() }).id),
  )
  const caches = new Caches(store)
  for (let page = 0; page < POSTS / POSTS_PER_PAGE; page++) {
    const posts = Array.from({ length: POSTS_PER_PAGE }, (_, index) => {
      const number = page * POSTS_PER_PAGE + index
      return {
        editUri: `${WEBLOG}/entry_id=${number}`,
        id: `tag:bench,2026:${number}`,
        permalink: null,
        title: `${word()} ${word()} ${word()}`,
        content: html(),
        categories: [],
        issued: '2026-01-01T00:00:00Z',
        modified: null,
      }
    })
    caches.replaceFeedPage(ACCOUNT_ID, `${WEBLOG}/feed?page=${page}`, { posts, next: null, prev: null }, WEBLOG)
  }
  return ids
}

/** Made-up words of 2 to 9 letters, 'tram', 'the' and 'qoruvik' (in exactly the rare place) among them. */
function vocabulary(random: () => number): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  const words = Array.from({ length: VOCABULARY }, () =>
    Array.from({ length: 2 + Math.floor(random() * 8) }, () => letters[Math.floor(random() * letters.length)]).join(''),
  )
  words[0] = 'the'
  words[40] = 'tram'
  words[VOCABULARY - 1] = 'qoruvik'
  return words
}

