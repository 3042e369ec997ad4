// The HTML source view's printer, over many documents, in Chromium (it works on the browser's own HTML parser): a post
// taken to the source view and back is the same post, with nothing lost but empty paragraphs, which show nothing;
// local images read as file names there and are their `blogdesk-media:` addresses again afterwards; attributes the
// editor does not know are printed as they were.
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { build } from 'esbuild'
import { seededRandom } from '../src-protocol/seeded-random'

const editorFolder = join(import.meta.dirname, '..', 'src-renderer', 'src', 'features', 'editor')

/** The editor's real schema, its HTML in and out, and the source view's printer, bundled for a blank page. */
const ENTRY = `
import { getSchema } from '@tiptap/core'
import { LOCAL_MEDIA_SCHEME, postExtensions } from './extensions'
import { documentHtml, parseDocument, sanitizeHtml } from './html'
import { fromSourceView, rememberFileName, toSourceView } from './source-html'

const schema = getSchema(postExtensions(
  { importImage: () => Promise.reject(new Error('not here')), previewOf: () => Promise.reject(new Error('not here')), onImageError: () => {} },
  () => ({ top: 0, bottom: 0 }),
))
window.sourceView = {
  rememberFileName,
  toSource: (html) => toSourceView(html, LOCAL_MEDIA_SCHEME),
  /** The post as the editor holds it once opened from this HTML, as saved. */
  saved: (html) => documentHtml(parseDocument(html, schema)),
  /** Rich → source → rich, as the editor does it: the text as shown, and the post afterwards, as saved. */
  roundTrip(html) {
    const { source, names } = toSourceView(documentHtml(parseDocument(html, schema)), LOCAL_MEDIA_SCHEME)
    return { source, after: documentHtml(parseDocument(sanitizeHtml(fromSourceView(source, names)), schema)) }
  },
  /** The source view's text taken back as it is (its file names mapped back), with no editor in between. */
  back: (html) => {
    const { source, names } = toSourceView(html, LOCAL_MEDIA_SCHEME)
    return fromSourceView(source, names)
  },
}
`

interface SourceViewApi {
  rememberFileName(hash: string, name: string): void
  toSource(html: string): { source: string }
  saved(html: string): string
  roundTrip(html: string): { source: string; after: string }
  back(html: string): string
}

declare global {
  interface Window {
    sourceView: SourceViewApi
  }
}

const HASH_A = 'a'.repeat(64)
const HASH_B = 'b'.repeat(64)
const HASH_C = 'c'.repeat(64)

const DOCUMENTS = [
  '<p>Plain words.</p>',
  '<p>One <strong>bold</strong>, <em>leaning</em>, <s>struck</s> and <code>code()</code>; <strong><em>both</em></strong>.</p>',
  '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6><p>After.</p>',
  '<ul><li><p>Tea</p></li><li><p>Coffee</p></li></ul>',
  '<ol start="3"><li><p>Third</p></li><li><p>Fourth <a href="https://example.com/4">link</a></p></li></ol>',
  '<ul><li><p>Outer</p><ul><li><p>Inner</p><ol><li><p>Deepest</p></li></ol></li></ul></li><li><p>Second</p></li></ul>',
  '<ul><li><p>Two paragraphs</p><p>in one item</p></li></ul>',
  '<blockquote><p>Quoted.</p><blockquote><p>Quoted twice.</p></blockquote><ul><li><p>A list, quoted</p></li></ul></blockquote>',
  '<pre><code>  indented\n    more\n&lt;b&gt;not bold&lt;/b&gt; &amp; a tab\there\n\nblank line above</code></pre><p>After the code.</p>',
  '<pre><code class="language-js">const a = 1 &lt; 2 &amp;&amp; "x"</code></pre>',
  '<p>Entities: &amp; &lt; &gt; " \' &nbsp;non-breaking, © ™ — “quotes” ‘single’ … ½</p>',
  '<p>Français, Ελληνικά, Русский, 日本語の文章, 한국어, עברית, العربية, हिन्दी, emoji 🚋🌊👩🏽‍💻</p>',
  '<p>Line one<br>line two<br><br>after an empty line</p>',
  '<p>Before the rule.</p><hr><p>After the rule.</p>',
  `<p>A local photo:</p><img src="blogdesk-media:${HASH_A}" alt="Harbour at dusk"><p>And a remote one:</p><img src="https://example.com/p.jpg" alt="Remote" title="Its title">`,
  `<img src="blogdesk-media:${HASH_A}" alt=""><img src="blogdesk-media:${HASH_B}" alt="Same file name, other bytes"><img src="blogdesk-media:${HASH_C}" alt="Unknown name">`,
  '<p><a href="https://example.com/a?b=1&amp;c=2#d" title="With a title">query and fragment</a>, <a href="mailto:me@example.com">mail</a>, <a href="/about">a path</a></p>',
  '<p><a href="https://example.com"><strong>bold link</strong></a> and <a href="https://example.com/x"><code>code link</code></a></p>',
  '<p>Empty paragraphs follow.</p><p></p><p></p><p>Between them.</p><p></p>',
  '<ul><li><p></p></li><li><p>After an empty item</p></li></ul>',
  '<blockquote><p></p></blockquote><p>After an empty quotation.</p>',
  '<p>   Spaces at the start and end   </p><p>Tabs\tinside</p>',
  '<h2>A <em>heading</em> with <a href="https://example.com/h">a link</a></h2>',
  '<ol><li><p>One</p></li><li><p>Two</p><pre><code>code in an item</code></pre></li></ol>',
  '',
]

/** Documents made of random pieces, the same every run: the pieces above, nested and mixed. */
function generatedDocuments(count: number): string[] {
  const next = seededRandom(14)
  const random = (below: number) => Math.floor(next() * below)
  const inline = () =>
    ['words', '<strong>bold</strong>', '<em>it</em>', '&amp; &lt;tag&gt;', 'é ß 中 🚋', '<a href="https://example.com/g">g</a>', '<code>x &lt; y</code>', '<br>'][random(8)]!
  const paragraph = () => `<p>${Array.from({ length: 1 + random(4) }, inline).join(' ')}</p>`
  const block = (depth: number): string => {
    const kind = depth > 2 ? 0 : random(7)
    const children = () => Array.from({ length: 1 + random(3) }, () => block(depth + 1)).join('')
    switch (kind) {
      case 1:
        return `<ul>${Array.from({ length: 1 + random(3) }, () => `<li>${paragraph()}${random(3) === 0 ? `<ol><li>${paragraph()}</li></ol>` : ''}</li>`).join('')}</ul>`
      case 2:
        return `<blockquote>${children()}</blockquote>`
      case 3:
        return `<h${1 + random(6)}>${inline()}</h${1 + random(6)}>`
      case 4:
        return `<pre><code>  ${inline().replace(/</g, '&lt;')}\n\tnext</code></pre>`
      case 5:
        return random(2) ? `<img src="blogdesk-media:${random(2) ? HASH_A : HASH_B}" alt="a">` : '<p></p>'
      default:
        return paragraph()
    }
  }
  return Array.from({ length: count }, () => Array.from({ length: 1 + random(6) }, () => block(0)).join(''))
}

test.describe('the source view’s HTML', () => {
  test.beforeEach(async ({ page }) => {
    const bundle = await build({
      stdin: { contents: ENTRY, resolveDir: editorFolder, loader: 'ts' },
      bundle: true,
      write: false,
      format: 'iife',
      loader: { '.css': 'empty' },
      logLevel: 'silent',
    })
    await page.setContent('<!doctype html><html><head></head><body></body></html>')
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text })
  })

  test('rich → source → rich keeps the post, over hand-written and 300 generated documents', async ({ page }) => {
    const documents = [...DOCUMENTS, ...generatedDocuments(300)]
    const results = await page.evaluate((documents) => {
      window.sourceView.rememberFileName('a'.repeat(64), 'harbour.jpg')
      window.sourceView.rememberFileName('b'.repeat(64), 'harbour.jpg')
      return documents.map((html) => ({ html, saved: window.sourceView.saved(html), ...window.sourceView.roundTrip(html) }))
    }, documents)
    // Empty paragraphs are all the source view leaves out; the editor puts back those a list item or quotation needs.
    const withoutEmptyParagraphs = (html: string) =>
      html
        .replaceAll('<p></p>', '')
        .split('\n')
        .filter((line) => line !== '')
        .join('\n')
    for (const { html, saved, source, after } of results) {
      expect(withoutEmptyParagraphs(after), `round trip of ${html}\nshown as\n${source}`).toBe(withoutEmptyParagraphs(saved))
      expect(source, 'no internal image address is shown').not.toContain('blogdesk-media:')
      expect(source).not.toMatch(/<p><\/p>|<li><p>[^]*?<\/p><\/li>/)
    }
  })

  test('is one block per line, indented by nesting, with local images by their file names', async ({ page }) => {
    const html = [
      '<h2>Lisbon</h2>',
      `<ul><li><p>Trams</p><ul><li><p>The <strong>28</strong></p></li></ul></li><li><p>Tiles</p></li></ul>`,
      `<p></p><img src="blogdesk-media:${HASH_A}" alt="Harbour"><img src="blogdesk-media:${HASH_B}" alt="Harbour again"><img src="blogdesk-media:${HASH_C}" alt="">`,
      '<pre><code>  kept\n as is</code></pre><p></p>',
    ].join('')
    const source = await page.evaluate((html) => {
      window.sourceView.rememberFileName('a'.repeat(64), 'harbour.jpg')
      window.sourceView.rememberFileName('b'.repeat(64), 'harbour.jpg')
      return window.sourceView.toSource(html).source
    }, html)
    expect(source).toBe(
      [
        '<h2>Lisbon</h2>',
        '<ul>',
        '  <li>',
        '    Trams',
        '    <ul>',
        '      <li>The <strong>28</strong></li>',
        '    </ul>',
        '  </li>',
        '  <li>Tiles</li>',
        '</ul>',
        `<img src="harbour.jpg" alt="Harbour"><img src="harbour-2.jpg" alt="Harbour again"><img src="image-cccccccc" alt="">`,
        '<pre><code>  kept\n as is</code></pre>',
      ].join('\n'),
    )
  })

  test('keeps attributes and elements the editor does not know, and links to local images, as they were', async ({ page }) => {
    const html = [
      `<figure class="image image--left" data-width="480"><a href="blogdesk-media:${HASH_A}"><img src="blogdesk-media:${HASH_A}" alt="Harbour" width="480" class="framed"></a>`,
      '<figcaption lang="pt">O porto ao <em>anoitecer</em></figcaption></figure>',
      '<p class="lead" dir="auto" data-anything="kept">Lead</p><div class="aside"><p>In a div</p></div>',
    ].join('')
    const back = await page.evaluate((html) => window.sourceView.back(html), html)
    const normalise = async (markup: string) =>
      page.evaluate((markup) => {
        const body = new DOMParser().parseFromString(markup, 'text/html').body
        // The printer's line breaks and indentation between blocks are whitespace only.
        const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT)
        const blank: Text[] = []
        while (walker.nextNode()) if ((walker.currentNode as Text).data.trim() === '') blank.push(walker.currentNode as Text)
        blank.forEach((text) => text.remove())
        return body.innerHTML
      }, markup)
    expect(await normalise(back)).toBe(await normalise(html))
  })
})
