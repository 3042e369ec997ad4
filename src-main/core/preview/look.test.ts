// Reading a weblog's look from pages a real HTTP server sends: the theme's sheets inlined, the frame found by a known
// post or by common class names, and nothing read from anywhere the account does not point to.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LookFailure, readWeblogLook } from '.'

interface Site {
  origin: string
  requests: string[]
  pages: Map<string, { type: string; body: string; status?: number; location?: string }>
  server: Server
}

async function startSite(): Promise<Site> {
  const site = { requests: [] as string[], pages: new Map() } as Site
  site.server = createServer((request, response) => {
    site.requests.push(request.url!)
    const page = site.pages.get(request.url!)
    if (!page) return void response.writeHead(404).end('not here')
    response.writeHead(page.status ?? 200, { 'Content-Type': page.type, ...(page.location ? { Location: page.location } : {}) }).end(page.body)
  })
  await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve))
  site.origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`
  return site
}

const html = (body: string) => ({ type: 'text/html; charset=utf-8', body })
const css = (body: string) => ({ type: 'text/css', body })

/** A Movable Type-like frontpage: every entry whole, its title a link inside a heading. */
const MT_FRONTPAGE = `<!DOCTYPE html><html lang="en" class="mt"><head>
<link rel="stylesheet" href="/styles.css" type="text/css">
<link rel="stylesheet" href="/print.css" media="print">
<style>.entry-header a { color: #c00 }</style>
</head><body id="classic-blog" class="layout-two-column">
<div id="container"><div id="content"><div class="content-inner">
<div id="entry-2" class="entry-asset asset hentry"><div class="asset-header"><h2 class="asset-name entry-title"><a href="/2.html">Second &amp; newest</a></h2></div>
<div class="asset-content entry-content"><div class="asset-body"><p>Another day of writing.</p><p>And then it rained.</p></div></div></div>
<div id="entry-1" class="entry-asset asset hentry"><div class="asset-header"><h2 class="asset-name entry-title"><a href="/1.html">First post</a></h2></div>
<div class="asset-content entry-content"><div class="asset-body"><p>Hello</p></div></div></div>
</div></div></div></body></html>`

describe('readWeblogLook', () => {
  let site: Site
  let elsewhere: Site

  beforeEach(async () => {
    site = await startSite()
    elsewhere = await startSite()
  })

  afterEach(async () => {
    await new Promise((resolve) => site.server.close(resolve))
    await new Promise((resolve) => elsewhere.server.close(resolve))
  })

  const read = (knownPosts = [{ title: 'Second & newest', content: '<p>Another day of writing.</p>\n<p>And then it rained.</p>', permalink: `${site.origin}/2.html` }]) =>
    readWeblogLook({ fetch, pageUrl: `${site.origin}/`, allowedOrigins: [site.origin], knownPosts })

  it('finds the frame around a known post and inlines the theme’s sheets, imports included, in order', async () => {
    site.pages.set('/', html(MT_FRONTPAGE))
    site.pages.set('/styles.css', css('@import url("theme/base.css");\nbody { font-family: Georgia, serif }'))
    site.pages.set('/theme/base.css', css('#container { background: url(img/paper.png) }'))
    site.pages.set('/print.css', css('body { color: black }'))

    const { style, skipped } = await read()

    expect(skipped).toEqual([])
    expect(style.css).toBe(
      `#container { background: url("${site.origin}/theme/img/paper.png") }\nbody { font-family: Georgia, serif }\n.entry-header a { color: #c00 }`,
    )
    expect(site.requests).not.toContain('/print.css')
    expect(style.frame.root).toEqual({ tag: 'html', id: null, className: 'mt' })
    expect(style.frame.body).toEqual({ tag: 'body', id: 'classic-blog', className: 'layout-two-column' })
    expect(style.frame.entry.map((element) => element.id ?? element.className)).toEqual(['container', 'content', 'content-inner', 'entry-2'])
    expect(style.frame.title).toEqual([
      { tag: 'div', id: null, className: 'asset-header' },
      { tag: 'h2', id: null, className: 'asset-name entry-title' },
      { tag: 'a', id: null, className: null },
    ])
    expect(style.frame.content).toEqual([
      { tag: 'div', id: null, className: 'asset-content entry-content' },
      { tag: 'div', id: null, className: 'asset-body' },
    ])
  })

  it('finds the post itself, not a page of posts, where its opening is also shown as an excerpt elsewhere', async () => {
    const excerpt = '<aside class="recent"><h3>Recent</h3><p>Another day of writing. And then it rained.</p></aside>'
    site.pages.set('/', html(MT_FRONTPAGE.replace('<div id="container">', `<div id="container">${excerpt}`)))
    site.pages.set('/styles.css', css('body { margin: 0 }'))
    const { style } = await read()
    expect(style.frame.entry.at(-1)?.id).toBe('entry-2')
    expect(style.frame.content.at(-1)?.className).toBe('asset-body')
  })

  it('falls back on the class names weblog engines give an entry when no known post is on the page', async () => {
    site.pages.set('/', html(MT_FRONTPAGE))
    site.pages.set('/styles.css', css('body { margin: 0 }'))
    const { style } = await read([])
    expect(style.frame.entry.at(-1)).toEqual({ tag: 'div', id: 'entry-2', className: 'entry-asset asset hentry' })
    expect(style.frame.content).toEqual([{ tag: 'div', id: null, className: 'asset-content entry-content' }])
    expect(style.frame.title.at(-1)?.tag).toBe('a')
  })

  it('reads nothing on a server the account does not point to, and follows no redirect there', async () => {
    elsewhere.pages.set('/theme.css', css('body { color: red }'))
    site.pages.set('/', html(`<link rel="stylesheet" href="${elsewhere.origin}/theme.css"><link rel="stylesheet" href="/moved.css"><style>p { margin: 0 }</style>`))
    site.pages.set('/moved.css', { type: 'text/plain', body: '', status: 302, location: `${elsewhere.origin}/theme.css` })

    const { style, skipped } = await read([])

    expect(elsewhere.requests).toEqual([])
    expect(skipped).toEqual([`${elsewhere.origin}/theme.css`, `${site.origin}/moved.css`])
    expect(style.css).toBe('p { margin: 0 }')
  })

  it('keeps a stylesheet from closing the preview’s style element', async () => {
    site.pages.set('/', html('<link rel="stylesheet" href="/a.css">'))
    site.pages.set('/a.css', css('p::after { content: "</style><script>alert(1)</script>" }'))
    const { style } = await read([])
    expect(style.css).not.toMatch(/<\/style/i)
    expect(style.css).toContain('\\3c /style>')
  })

  it('says why when the page cannot give a look: no stylesheet, not HTML, too large, not there', async () => {
    site.pages.set('/', html('<p>Plain</p>'))
    await expect(read([])).rejects.toThrow(new LookFailure('its public page has no stylesheet'))
    site.pages.set('/', { type: 'application/json', body: '{}' })
    await expect(read([])).rejects.toThrow(/is not an HTML page/)
    site.pages.set('/', html(`<style>p {}</style>${'x'.repeat(2 * 1024 * 1024)}`))
    await expect(read([])).rejects.toThrow(/is larger than 2048 KB/)
    site.pages.delete('/')
    await expect(read([])).rejects.toThrow(/answered 404/)
  })
})
