import { NS, readEntry, readFeed, writeEntry, writeFeed, type EntryToWrite } from '../src-protocol/index'
import { seededRandom } from '../src-protocol/seeded-random'
import type { BenchRow } from './table'
import { median } from './stats'

export type { BenchRow } from './table'

// The Atom codec against JSON.parse of the same data: the targets for the codec on fast-xml-parser are a 20-entry
// feed of 5 KB XHTML bodies at most 20× JSON.parse, and a 1 MB entry at most 10×. "The same data" is the parsed
// result itself, as JSON.

const FEED_ENTRIES = 20
const BODY_CHARACTERS = 5 * 1024
const LARGE_BODY_CHARACTERS = 1024 * 1024

const WORDS = (
  'the a weblog post about coffee in Zürich café naïve reader writes every morning before work and after ' +
  'lunch it’s a habit that started years ago with a notebook then moved to Movable Type and TypePad ' +
  'photos of the lake trip readers asked for more links comments were lively'
).split(' ')

/** Blog-like XHTML: paragraphs with links and emphasis, references, lists, quotes, images, code. */
function xhtmlBody(characters: number, seed: number): string {
  const random = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const words = (count: number) => Array.from({ length: count }, () => pick(WORDS)).join(' ')
  const inline = () =>
    pick([
      () => `<a href="https://example.com/${pick(WORDS)}/${Math.floor(random() * 1000)}?ref=feed&amp;page=2">${words(3)}</a>`,
      () => `<em>${words(2)}</em>`,
      () => `<strong>${words(2)}</strong> &#8212;`,
      () => `<code>${pick(WORDS)}()</code>`,
      () => `&quot;${words(3)}&quot; &amp; ${words(1)}`,
      () => words(4),
    ])()
  const paragraph = () => {
    let text = ''
    for (let sentence = 2 + Math.floor(random() * 4); sentence > 0; sentence--) {
      text += `${words(6 + Math.floor(random() * 10))} ${inline()} ${words(3)}. `
    }
    return `<p>${text.trim()}</p>\n`
  }
  const block = () =>
    pick([
      paragraph,
      paragraph,
      paragraph,
      () => `<ul>${Array.from({ length: 3 }, () => `<li>${inline()}</li>`).join('')}</ul>\n`,
      () => `<blockquote><p>${words(14)}</p></blockquote>\n`,
      () => `<p><img src="https://example.com/photos/${pick(WORDS)}.jpg" alt="${words(2)}" width="320" height="240" /></p>\n`,
      () => `<pre><code>if (a &lt; b &amp;&amp; c) {\n  ${pick(WORDS)}();\n}</code></pre>\n`,
    ])()
  let body = ''
  while (body.length < characters) body += block()
  return body
}

function entryToWrite(index: number, body: string): EntryToWrite {
  const origin = 'http://127.0.0.1:5080'
  return {
    title: `Entry ${index}: coffee in Zürich & other notes`,
    summary: 'What happened at the café, and what the readers said about it.',
    content: { mode: 'xml', type: 'application/xhtml+xml', value: body },
    issued: '2026-01-02T03:04:05Z',
    modified: '2026-01-02T04:05:06Z',
    id: `tag:blogdesk.local,2026:post-${index}`,
    author: { name: 'Melody', url: `${origin}/~melody`, email: 'melody@example.com' },
    links: [
      { rel: 'alternate', href: `${origin}/blogs/melody/${index}`, type: 'text/html', title: null },
      { rel: 'service.edit', href: `${origin}/t/atom/weblog/blog_id=1/entry_id=${index}`, type: 'application/x.atom+xml', title: `Entry ${index}` },
    ],
    subjects: ['Coffee', 'Travel'],
    extensions: [{ ns: NS.photo, name: 'thumbnail', text: `${origin}/media/${index}.jpg` }],
  }
}

interface Comparison {
  /** Median milliseconds of one call of the measured function. */
  milliseconds: number
  /** Median of the per-round ratios measured / baseline. */
  ratio: number
}

function millisecondsPerCall(run: () => unknown, calls: number): number {
  const start = performance.now()
  for (let call = 0; call < calls; call++) run()
  return (performance.now() - start) / calls
}


/**
 * Times `measured` against `baseline` in alternating rounds (so a busy machine slows both alike) and takes medians.
 * Each round runs enough calls to last about 40 ms.
 */
function compare(measured: () => unknown, baseline: () => unknown, rounds = 31): Comparison {
  for (let warmUp = 0; warmUp < 30; warmUp++) {
    measured()
    baseline()
  }
  const callsFor = (run: () => unknown) => Math.max(1, Math.ceil(40 / Math.max(millisecondsPerCall(run, 5), 0.001)))
  const measuredCalls = callsFor(measured)
  const baselineCalls = callsFor(baseline)
  const times: number[] = []
  const ratios: number[] = []
  for (let round = 0; round < rounds; round++) {
    const time = millisecondsPerCall(measured, measuredCalls)
    const baselineTime = millisecondsPerCall(baseline, baselineCalls)
    times.push(time)
    ratios.push(time / baselineTime)
  }
  return { milliseconds: median(times), ratio: median(ratios) }
}

/** Throws unless the codec read back exactly the bodies that were written: a benchmark of a broken reader is void. */
function checkBodies(read: readonly (string | undefined)[], written: readonly string[]): void {
  written.forEach((body, index) => {
    if (read[index] !== body.trim()) throw new Error(`The codec did not read back body ${index} as written.`)
  })
}

export async function runCodecBench(): Promise<BenchRow[]> {
  const bodies = Array.from({ length: FEED_ENTRIES }, (_, index) => xhtmlBody(BODY_CHARACTERS, index + 1))
  const feedXml = writeFeed({
    title: 'Melody’s weblog',
    links: [{ rel: 'alternate', href: 'http://127.0.0.1:5080/blogs/melody/', type: 'text/html', title: 'Melody’s weblog' }],
    entries: bodies.map((body, index) => entryToWrite(index + 1, body)),
  })
  const feed = readFeed(feedXml)
  checkBodies(
    feed.entries.map((entry) => entry.content?.value),
    bodies,
  )
  const feedJson = JSON.stringify(feed)
  const feedComparison = compare(
    () => readFeed(feedXml),
    () => JSON.parse(feedJson),
  )

  const largeBody = xhtmlBody(LARGE_BODY_CHARACTERS, 99)
  const largeXml = writeEntry(entryToWrite(1, largeBody))
  const largeEntry = readEntry(largeXml)
  checkBodies([largeEntry.content?.value], [largeBody])
  const largeJson = JSON.stringify(largeEntry)
  const largeComparison = compare(
    () => readEntry(largeXml),
    () => JSON.parse(largeJson),
    15,
  )

  const kibibytes = (text: string) => Math.round(Buffer.byteLength(text) / 1024)
  return [
    {
      name: `codec: readFeed, ${FEED_ENTRIES} entries × 5 KB XHTML (${kibibytes(feedXml)} KiB)`,
      value: feedComparison.milliseconds,
      unit: 'ms',
      ratio: feedComparison.ratio,
      target: '≤ 20× JSON.parse of the same data',
    },
    {
      name: `codec: readEntry, one 1 MB XHTML entry (${kibibytes(largeXml)} KiB)`,
      value: largeComparison.milliseconds,
      unit: 'ms',
      ratio: largeComparison.ratio,
      target: '≤ 10× JSON.parse of the same data',
    },
  ]
}
