import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE, createWsseHeader, readLinkFeed } from '../../src-protocol'
import { ivy, melody, rawRequest, signedGet, startTestService, type ServiceFixture } from '../testing/service-fixture'

describe('GET /t/atom/weblog', () => {
  let service: ServiceFixture
  let root: string
  beforeAll(async () => {
    service = await startTestService([melody, ivy])
    root = `${service.origin}/t/atom/weblog`
  })
  afterAll(() => service.dispose())

  it('lists each of the signed-in user’s weblogs with its service links and public page', async () => {
    const response = await signedGet(root, melody)

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(`${ATOM_MEDIA_TYPE}; charset=utf-8`)
    const [first, second] = melody.weblogs.map((weblog, index) => ({ ...weblog, id: index + 1 }))
    const linksOf = (weblog: { id: number; title: string; slug: string }) => {
      const feed = `${service.origin}/t/atom/weblog/blog_id=${weblog.id}`
      return [
        { rel: 'service.post', href: feed, type: ATOM_MEDIA_TYPE, title: weblog.title },
        { rel: 'service.feed', href: feed, type: ATOM_MEDIA_TYPE, title: weblog.title },
        { rel: 'service.upload', href: `${feed}/svc=upload`, type: ATOM_MEDIA_TYPE, title: weblog.title },
        { rel: 'service.categories', href: `${feed}/svc=categories`, type: ATOM_MEDIA_TYPE, title: weblog.title },
        { rel: 'x-blogdesk.scheduling', href: feed, type: ATOM_MEDIA_TYPE, title: weblog.title },
        { rel: 'alternate', href: `${service.origin}/blogs/${weblog.slug}/`, type: 'text/html', title: weblog.title },
      ]
    }
    expect(readLinkFeed(await response.text(), root)).toEqual([...linksOf(first!), ...linksOf(second!)])
  })

  it('never shows another user’s weblogs', async () => {
    const melodysLinks = readLinkFeed(await (await signedGet(root, melody)).text(), root)
    const ivysLinks = readLinkFeed(await (await signedGet(root, ivy)).text(), root)

    expect(new Set(ivysLinks.map((link) => link.title))).toEqual(new Set(['Cargo culte']))
    expect(melodysLinks.map((link) => link.title)).not.toContain('Cargo culte')
    expect(ivysLinks.map((link) => link.href)).toContain(`${service.origin}/t/atom/weblog/blog_id=3`)
  })

  it('builds hrefs from its own origin, whatever Host the client sent', async () => {
    const response = await rawRequest(root, {
      headers: { Host: 'attacker.example', 'X-WSSE': createWsseHeader(melody) },
    })
    expect(response.status).toBe(200)
    const hrefs = readLinkFeed(response.body, root).map((link) => link.href)
    expect(hrefs.every((href) => href.startsWith(`${service.origin}/`))).toBe(true)
  })

  it('answers an empty feed to a user without weblogs', async () => {
    const lonely = await startTestService([{ ...ivy, weblogs: [] }])
    try {
      const response = await signedGet(`${lonely.origin}/t/atom/weblog`, ivy)
      expect(response.status).toBe(200)
      expect(readLinkFeed(await response.text(), root)).toEqual([])
    } finally {
      await lonely.dispose()
    }
  })

  it('answers HEAD like GET, without a body', async () => {
    const response = await fetch(root, { method: 'HEAD', headers: { 'X-WSSE': createWsseHeader(melody) } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(`${ATOM_MEDIA_TYPE}; charset=utf-8`)
    expect(await response.text()).toBe('')
  })
})
