// Thousands of broken versions of real requests (truncated, bit-flipped, wrong namespaces, huge attributes, entity
// bombs, deep nesting, invalid UTF-8): the service answers each one without a 5xx, keeps running, and its database
// stays consistent — every post it acknowledged is in the feed once, and nothing else appeared.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWsseHeader, NS, readEntry, readFeed, readLinkFeed, type WsseCredentials } from '../src-protocol'
import { seededRandom } from '../src-protocol/seeded-random'
import { readFixture } from '../src-protocol/test-fixtures'
import { startService, type RunningService } from './server'
import { SqliteEngine } from './store/sqlite-engine'
import { DATABASE_FILE } from './store'
import { readSandboxFile } from './testing/service-fixture'
import { testDatabaseOption } from './testing/postgres'

const MUTANTS = 2000
const fixture = (name: string) => readFixture(`atom03/${name}`)

/** A tiny valid GIF in place of a seed's photo: most mutations then land in the XML, and some mutants stay decodable. */
const DOT_GIF = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='
const withTinyImage = (xml: string) => xml.replace(/(<content[^>]*mode="base64"[^>]*)type="image\/jpeg"([^>]*>)[^<]*/, `$1type="image/gif"$2${DOT_GIF}`)

type Target = 'post' | 'upload' | 'photo' | 'list'
const seeds: { target: Target; xml: string }[] = [
  ...['mt-docs-create-entry-request.xml', 'written/entry-plain-content.xml', 'written/entry-full.xml',
    'written/entry-utf8-japanese.xml', 'written/entry-content-mode-xml.xml'].map((name) => ({ target: 'post' as const, xml: fixture(name) })),
  { target: 'upload', xml: withTinyImage(fixture('written/upload-service-entry.xml')) },
  { target: 'photo', xml: withTinyImage(fixture('written/gallery-photo-entry.xml')) },
  { target: 'photo', xml: fixture('written/photo-base64-standalone.xml') },
  ...['song', 'book', 'person', 'link'].map((type) => ({ target: 'list' as const, xml: fixture(`written/typelist-${type}-entry.xml`) })),
]

const NAMESPACES = [
  'http://purl.org/atom/ns#', 'http://www.w3.org/2005/Atom', 'http://purl.org/dc/elements/1.1/',
  'http://sixapart.com/atom/photo#', 'http://sixapart.com/atom/book#', 'http://www.w3.org/1999/xhtml', 'urn:x-nonsense', '',
]
const CONTENT_TYPES = ['application/x.atom+xml', 'application/atom+xml', 'application/xml', 'text/xml; charset=utf-8', 'application/json', 'text/plain', '']

/** The same seed breaks the same requests the same way on every run. */
function random(seed: number) {
  const next = seededRandom(seed)
  const below = (n: number) => Math.floor(next() * n)
  return { below, pick: <T>(items: readonly T[]): T => items[below(items.length)]! }
}

const mutations: ((xml: string, rng: ReturnType<typeof random>) => string | Buffer)[] = [
  (xml, rng) => xml.slice(0, rng.below(xml.length)),
  (xml, rng) => {
    const bytes = Buffer.from(xml)
    for (let i = 0, flips = 1 + rng.below(8); i < flips; i++) bytes[rng.below(bytes.length)]! ^= 1 << rng.below(8)
    return bytes
  },
  (xml, rng) => {
    const present = NAMESPACES.filter((uri) => uri && xml.includes(uri))
    return present.length ? xml.replaceAll(rng.pick(present), rng.pick(NAMESPACES)) : xml
  },
  (xml, rng) => xml.replace(/<(\w[\w:]*)/, `<$1 huge="${'A'.repeat(1024 * (1 + rng.below(512)))}"`),
  (xml) =>
    `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
    `<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>${xml.replace(/<title>/, '<title>&lol3;')}`,
  (xml) => `<?xml version="1.0"?><!DOCTYPE entry SYSTEM "file:///etc/passwd">${xml.replace(/^<\?xml[^>]*\?>/, '')}`,
  (xml, rng) => {
    const depth = 100 + rng.below(20_000)
    return xml.replace(/<\/title>/, `</title><x>${'<d>'.repeat(depth)}${'</d>'.repeat(depth)}</x>`)
  },
  (xml, rng) => {
    const element = rng.pick([...xml.matchAll(/<([\w:]+)[^>]*>[^<]*<\/\1>/g)].map((match) => match[0]))
    return element ? xml.replace(element, element.repeat(2 + rng.below(200))) : xml
  },
  (xml, rng) => {
    const at = rng.below(xml.length)
    const junk = rng.pick(['\u0000', '\u0007', '\uFFFE', '\uD800', ']]>', '<!--', '&#0;', '&#xD800;', '&bogus;', '<', '&'])
    return xml.slice(0, at) + junk + xml.slice(at)
  },
  (xml, rng) => {
    const bytes = Buffer.from(xml)
    const at = rng.below(bytes.length)
    return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), bytes.subarray(at)])
  },
  (xml, rng) => {
    const elements = [...xml.matchAll(/<([\w:]+)[^>]*>[^<]*<\/\1>/g)]
    return elements.length ? xml.replace(rng.pick(elements)[0], '') : xml
  },
  (xml, rng) => xml.replace(/<entry\b/, `<${rng.pick(['feed', 'atom:entry', 'error', 'entry:entry'])}`).replace(/<\/entry>\s*$/, '</entry>'),
  (xml, rng) => xml.replace(/<title>[^<]*/, `<title>${'Ünïcödé 🎈 '.repeat(1 + rng.below(20_000))}`),
  (xml, rng) => xml.replace(/(<[\w:]*value>)[^<]*/, `$1${rng.pick(['0', '6', '-1', '4.5', 'five', '99999999999999999999'])}`),
  (xml, rng) => xml.replace(/(mode=")[^"]*/, `$1${rng.pick(['xml', 'escaped', 'base64', 'binary', ''])}`),
  (xml, rng) => xml.replace(/<issued>[^<]*/, `<issued>${rng.pick(['2026-13-45T99:99:99Z', 'yesterday', '', '2026-02-30T10:00:00+25:00'])}`),
  // The hostile inputs of the security review: thousands of attributes or categories, a post of empty scripts, and
  // bodies in another encoding than UTF-8, declared or not.
  (xml, rng) => xml.replace(/<(\w[\w:]*)/, `<$1${Array.from({ length: 200 + rng.below(20_000) }, (_, i) => ` a${i}="x"`).join('')}`),
  (xml, rng) => {
    const subjects = Array.from({ length: 100 + rng.below(10_000) }, (_, i) => `<dc:subject xmlns:dc="${NS.dc}">s${i}</dc:subject>`)
    return xml.replace(/<\/title>/, `</title>${subjects.join('')}`)
  },
  (xml, rng) => xml.replace(/<\/title>/, `</title><summary mode="escaped" type="text/html">${'&lt;script&gt;&lt;/script&gt;'.repeat(1 + rng.below(16_000))}</summary>`),
  (xml, rng) => {
    const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '')
    switch (rng.below(3)) {
      case 0:
        return Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>${body}`, 'latin1')
      case 1:
        return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<?xml version="1.0" encoding="UTF-16"?>${body}`, 'utf16le')])
      default:
        return `<?xml version="1.0" encoding="${rng.pick(['x-klingon', 'EBCDIC-US', 'UTF-7'])}"?>${body}`
    }
  },
]

describe('the service under malformed requests', () => {
  let dataDir: string
  let service: RunningService
  let credentials: WsseCredentials
  const targets: Record<Target, string[]> = { post: [], upload: [], photo: [], list: [] }
  const signed = (headers: Record<string, string> = {}) => ({ ...headers, 'X-WSSE': createWsseHeader(credentials) })
  const links = async (root: string) => readLinkFeed(await (await fetch(`${service.origin}${root}`, { headers: signed() })).text(), service.origin)

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-fuzz-'))
    service = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, lookup: { offline: true } })
    const sandbox = readSandboxFile(dataDir)
    credentials = { username: sandbox.username, password: sandbox.apiPassword }
    const weblogLinks = await links('/t/atom/weblog')
    targets.post = weblogLinks.filter((link) => link.rel === 'service.post').map((link) => link.href)
    targets.upload = weblogLinks.filter((link) => link.rel === 'service.upload').map((link) => link.href)
    targets.photo = (await links('/t/atom/gallery')).filter((link) => link.rel === 'service.post').map((link) => link.href)
    targets.list = (await links('/t/atom/lists')).filter((link) => link.rel === 'service.post').map((link) => link.href)
  })
  afterAll(async () => {
    await service.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  async function postsIn(feedUri: string): Promise<string[]> {
    const ids: string[] = []
    for (let page: string | undefined = feedUri; page; ) {
      const feed = readFeed(await (await fetch(page, { headers: signed() })).text(), { baseUrl: service.origin })
      ids.push(...feed.entries.map((entry) => entry.id!))
      page = feed.links.find((link) => link.rel === 'next')?.href
    }
    return ids
  }

  it(`answers ${MUTANTS} mutated requests without a 5xx, and keeps every acknowledged post exactly once`, async () => {
    for (const target of Object.keys(targets) as Target[]) expect(targets[target].length, `${target} URIs`).toBeGreaterThan(0)
    const before = new Map(await Promise.all(targets.post.map(async (uri) => [uri, await postsIn(uri)] as const)))
    const acknowledged = new Map<string, string[]>(targets.post.map((uri) => [uri, []]))
    const failures: string[] = []
    const rng = random(20261122)

    for (let i = 0; i < MUTANTS; i++) {
      const seed = rng.pick(seeds)
      const mutation = rng.below(mutations.length)
      const body = mutations[mutation]!(seed.xml, rng)
      const url = rng.pick(targets[seed.target])
      const response = await fetch(url, { method: 'POST', headers: signed({ 'Content-Type': rng.pick(CONTENT_TYPES) }), body })
      const text = await response.text()
      if (response.status >= 500) failures.push(`#${i} mutation ${mutation} on ${seed.target}: ${response.status} ${text.slice(0, 200)}`)
      if (response.status === 201 && seed.target === 'post') {
        acknowledged.get(url)!.push(readEntry(text).id!)
      }
    }
    expect(failures).toEqual([])

    for (const uri of targets.post) {
      const after = await postsIn(uri)
      expect(new Set(after).size, 'no post listed twice').toBe(after.length)
      expect(after.sort()).toEqual([...before.get(uri)!, ...acknowledged.get(uri)!].sort())
    }
  }, 600_000)

  it('leaves a database that passes SQLite’s own integrity and foreign-key checks', async () => {
    await service.close()
    const db = SqliteEngine.open(join(dataDir, DATABASE_FILE))
    try {
      expect(await db.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }])
      expect(await db.all('PRAGMA foreign_key_check')).toEqual([])
    } finally {
      await db.close()
    }
    service = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, lookup: { offline: true } })
  })
})
