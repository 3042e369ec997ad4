// A list's public page, for the person who follows its alternate link: items with computed titles, ratings as
// stars and notes; everything a client wrote escaped or sanitised, and no email address on show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

describe('public list pages', () => {
  let service: ServiceFixture
  beforeAll(async () => {
    // The items point at made-up sites; the test service looks nothing up.
    service = await startTestService([melody], async (store) => {
      const ownerId = (await store.users.find(melody.username))!.id
      await store.lists.add({ ownerId, title: 'Songs <script>', type: 'music' })
      await store.lists.add({ ownerId, title: 'People', type: 'people' })
      await store.lists.add({ ownerId, title: 'Empty', type: 'links' })
    })
  })
  afterAll(() => service.dispose())

  const add = async (listId: number, elements: string, namespace: string, content = '') => {
    const xml = `<entry xmlns="http://purl.org/atom/ns#" xmlns:x="${namespace}" xmlns:rvw="http://purl.org/NET/RVW/0.1/">${elements}${content}</entry>`
    const response = await signedRequest(`${service.origin}/t/atom/lists/list_id=${listId}`, melody, { method: 'POST', body: xml })
    expect(response.status).toBe(201)
  }

  it('shows each item’s computed title, its rating as stars and its notes, newest first, all escaped', async () => {
    await add(1, '<x:artist>Serge</x:artist><x:title>Melody</x:title><rvw:value>4</rvw:value><issued>2004-01-01T00:00:00Z</issued>', 'http://sixapart.com/atom/song#')
    await add(
      1,
      '<x:artist>&lt;b&gt;Bold&lt;/b&gt;</x:artist><x:album>Cargo</x:album><x:thumbnail>https://covers.example/c.jpg</x:thumbnail>',
      'http://sixapart.com/atom/song#',
      '<content mode="xml" type="application/xhtml+xml"><div xmlns="http://www.w3.org/1999/xhtml"><p onclick="x()">Loud <em>and</em> clear<script>alert(1)</script></p></div></content>',
    )
    const response = await fetch(`${service.origin}/lists/1/`)
    const html = await response.text()

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(html).toContain('<h1>Songs &lt;script&gt;</h1>')
    expect(html).toContain('A list of music · 2 items')
    expect(html).toContain('<strong>Serge - Melody</strong>')
    expect(html).toContain('★★★★☆</span> 4/5')
    expect(html).toContain('<strong>&lt;b&gt;Bold&lt;/b&gt; - Cargo</strong>')
    expect(html).toContain('<img src="https://covers.example/c.jpg"')
    expect(html).toContain('<p>Loud <em>and</em> clear</p>')
    expect(html).not.toMatch(/<script|onclick/)
    expect(html.indexOf('Bold')).toBeLessThan(html.indexOf('Serge - Melody'))
  })

  it('links a person’s homepage and FOAF file, shows the one-line bio, and never the email address', async () => {
    await add(
      2,
      '<x:name>Ana</x:name><x:homepage>https://ana.example/</x:homepage><x:email>ana@example.org</x:email><x:foaf_url>https://ana.example/foaf.rdf</x:foaf_url><b:olb xmlns:b="http://purl.org/vocab/bio/0.1/">Writes &amp; draws.</b:olb>',
      'http://sixapart.com/atom/person#',
    )
    const html = await (await fetch(`${service.origin}/lists/2/`)).text()
    expect(html).toContain('<a href="https://ana.example/" rel="nofollow noopener">Ana</a>')
    expect(html).toContain('<a href="https://ana.example/foaf.rdf" rel="nofollow noopener">FOAF</a>')
    expect(html).toContain('<p>Writes &amp; draws.</p>')
    expect(html).not.toContain('ana@example.org')
  })

  it('says so when a list is empty', async () => {
    expect(await (await fetch(`${service.origin}/lists/3/`)).text()).toContain('Nothing has been added to this list yet.')
  })

  it('redirects the address without its slash, and answers 404 for a list that does not exist', async () => {
    const redirect = await fetch(`${service.origin}/lists/3`, { redirect: 'manual' })
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe('/lists/3/')
    for (const path of ['/lists/99/', '/lists/abc/', '/lists/99']) {
      const missing = await fetch(`${service.origin}${path}`)
      expect(missing.status).toBe(404)
      expect(await missing.text()).toContain('There is no list')
    }
  })
})
