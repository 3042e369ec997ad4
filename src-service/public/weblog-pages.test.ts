// The pages behind weblog and post `alternate` links, as a browser gets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ivy, melody, startTestService, type ServiceFixture } from '../testing/service-fixture'
import { PAGE_CONTENT_SECURITY_POLICY } from './page'

describe('public weblog pages', () => {
  let service: ServiceFixture
  beforeAll(async () => {
    service = await startTestService([melody, ivy], async (store) => {
      const travel = await store.categories.add(1, 'Travel & <Trips>')
      const post = (weblogId: number, title: string, content: string, contentKind: 'xhtml' | 'text', issued: string) =>
        store.posts.create(weblogId, 1, { title, content, contentKind, summary: null, issued, categories: weblogId === 1 ? [travel] : [] }, issued)
      await post(1, 'Lisbon <by tram>', '<h2>Day one</h2><p>Tiles &amp; <a href="javascript:alert(1)" onclick="x()">trams</a>.</p><script>alert(1)</script><img src="https://example.com/a.jpg" onerror="x()">', 'xhtml', '2026-03-01T10:00:00Z')
      await post(1, 'Shopping list', 'eggs & <milk>\nbread\n\nand later: coffee', 'text', '2026-03-02T10:00:00Z')
      await post(2, 'Elsewhere', '<p>In the other weblog</p>', 'xhtml', '2026-03-03T10:00:00Z')
    })
  })
  afterAll(() => service.dispose())

  const page = async (path: string) => {
    const response = await fetch(`${service.origin}${path}`, { redirect: 'manual' })
    return { response, html: await response.text() }
  }
  const expectSecureHtml = (response: Response) => {
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CONTENT_SECURITY_POLICY)
    expect(PAGE_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'/)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  }

  it('shows a weblog’s latest posts, newest first, linked to their pages, without signing in', async () => {
    const { response, html } = await page('/blogs/hotel-particulier/')
    expect(response.status).toBe(200)
    expectSecureHtml(response)
    expect(html).toContain('<title>L&#39;hôtel particulier &lt;&amp; co&gt;</title>')
    expect(html).toContain('<a href="/blogs/hotel-particulier/3">Elsewhere</a>')

    const first = await page('/blogs/valse-de-melody/')
    expect(first.html.indexOf('Shopping list')).toBeLessThan(first.html.indexOf('Lisbon &lt;by tram&gt;'))
    expect(first.html).toContain('<a href="/blogs/valse-de-melody/1">Lisbon &lt;by tram&gt;</a>')
    expect(first.html).toContain('Travel &amp; &lt;Trips&gt;')
    expect(first.html).toContain('<time datetime="2026-03-02T10:00:00Z">2 March 2026</time>')
  })

  it('shows a post with its title, date, categories and sanitised content', async () => {
    const { response, html } = await page('/blogs/valse-de-melody/1')
    expect(response.status).toBe(200)
    expectSecureHtml(response)
    expect(html).toContain('<h1>Lisbon &lt;by tram&gt;</h1>')
    expect(html).toContain('<time datetime="2026-03-01T10:00:00Z">1 March 2026</time> · Travel &amp; &lt;Trips&gt;')
    expect(html).toContain('<h2>Day one</h2><p>Tiles &amp; <a>trams</a>.</p><img src="https://example.com/a.jpg" />')
    expect(html).not.toMatch(/<script>alert|javascript:|onclick|onerror/)
    expect(html).toContain('<nav><a href="/blogs/valse-de-melody/">Valse de Melody</a></nav>')
  })

  it('shows a plain-text post as escaped paragraphs', async () => {
    const { html } = await page('/blogs/valse-de-melody/2')
    expect(html).toContain('<p>eggs &amp; &lt;milk&gt;<br>\nbread</p>\n<p>and later: coffee</p>')
  })

  it('redirects a weblog address without its slash, and answers 404 pages for what does not exist', async () => {
    const { response } = await page('/blogs/valse-de-melody')
    expect(response.status).toBe(301)
    expect(response.headers.get('location')).toBe('/blogs/valse-de-melody/')

    for (const path of ['/blogs/nobody/', '/blogs/nobody', '/blogs/nobody/1', '/blogs/valse-de-melody/3', '/blogs/valse-de-melody/99', '/blogs/valse-de-melody/x']) {
      const missing = await page(path)
      expect(missing.response.status, path).toBe(404)
      expectSecureHtml(missing.response)
      expect(missing.html).toContain('<h1>Not found</h1>')
    }
  })
})
