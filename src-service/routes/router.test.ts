import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseXml } from '../../src-protocol'
import { rawRequest } from '../testing/service-fixture'
import { readAtomBody } from './body'
import { atomReply, HttpError } from './reply'
import { MAX_BODY_BYTES, Router } from './router'

let server: Server
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Serves `router` on 127.0.0.1 for one test; the server closes after it. */
async function serve(router: Router): Promise<string> {
  server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on('request', router.listener(origin))
  return origin
}

describe('Router', () => {
  const hello = new Router().get('/hello', ({ origin }) => atomReply(200, `<feed origin="${origin}"/>`))

  it('answers 404 with an <error> for a path it does not know', async () => {
    const origin = await serve(hello)
    const response = await fetch(`${origin}/nowhere?x=1`)
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^text\/xml/)
    expect(parseXml(await response.text()).text).toContain('/nowhere')
  })

  it('answers 405 with Allow for a method the path does not take', async () => {
    const origin = await serve(hello)
    const response = await fetch(`${origin}/hello`, { method: 'POST', body: '<entry/>' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect(parseXml(await response.text()).text).toMatch(/POST/)
  })

  it('ignores the query string when routing', async () => {
    const origin = await serve(hello)
    expect((await fetch(`${origin}/hello?page=2`)).status).toBe(200)
  })

  it('refuses a body over the cap with 413 before reading it', async () => {
    const origin = await serve(hello)
    const response = await rawRequest(`${origin}/hello`, { headers: { 'Content-Length': String(MAX_BODY_BYTES + 1) } })
    expect(response.status).toBe(413)
    expect(parseXml(response.body).name).toBe('error')
  })

  it('answers a handler that throws with 500 and an <error>, and logs the cause', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const origin = await serve(
        new Router().get('/broken', () => {
          throw new Error('the disk caught fire')
        }),
      )
      const response = await fetch(`${origin}/broken`)
      expect(response.status).toBe(500)
      expect(parseXml(await response.text()).name).toBe('error')
      const cause = expect.objectContaining({ message: 'the disk caught fire' })
      expect(log).toHaveBeenCalledWith('GET /broken failed:', cause)
    } finally {
      log.mockRestore()
    }
  })
})

describe('Router patterns and bodies', () => {
  const entries = new Router()
    .get('/t/atom/weblog/blog_id=:blogId/entry_id=:entryId', ({ params }) => atomReply(200, `<entry>${params.blogId}/${params.entryId}</entry>`))
    .put('/t/atom/weblog/blog_id=:blogId/entry_id=:entryId', async ({ request }) => atomReply(200, await readAtomBody(request, 64)))
    .post('/t/atom/weblog/blog_id=:blogId', () => {
      throw new HttpError(403, 'That weblog is not yours.')
    })

  it('hands the named segments of the path to the handler, decoded', async () => {
    const origin = await serve(entries)
    const response = await fetch(`${origin}/t/atom/weblog/blog_id=7/entry_id=caf%C3%A9`)
    expect(parseXml(await response.text()).text).toBe('7/café')
  })

  it('lists every method of a pattern in Allow', async () => {
    const origin = await serve(entries)
    const response = await fetch(`${origin}/t/atom/weblog/blog_id=7/entry_id=1`, { method: 'DELETE' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD, PUT')
  })

  it('answers a thrown HttpError with its status and words', async () => {
    const origin = await serve(entries)
    const response = await fetch(`${origin}/t/atom/weblog/blog_id=7`, { method: 'POST' })
    expect(response.status).toBe(403)
    expect(parseXml(await response.text()).text).toBe('That weblog is not yours.')
  })

  it('refuses a malformed escape in the path with 400', async () => {
    const origin = await serve(entries)
    expect((await fetch(`${origin}/t/atom/weblog/blog_id=%E0%A4%A/entry_id=1`)).status).toBe(400)
  })

  it('refuses a body that grows past the cap even without Content-Length, and a body of the wrong type', async () => {
    const origin = await serve(entries)
    const url = `${origin}/t/atom/weblog/blog_id=7/entry_id=1`
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`<entry>${'x'.repeat(100)}</entry>`))
        controller.close()
      },
    })
    const tooLarge = await fetch(url, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/atom+xml' },
      body: chunked,
      duplex: 'half',
    } as RequestInit)
    expect(tooLarge.status).toBe(413)

    const wrongType = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(wrongType.status).toBe(415)
    expect(parseXml(await wrongType.text()).text).toMatch(/application\/x\.atom\+xml/)

    const fine = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'text/xml; charset=utf-8' }, body: '<entry/>' })
    expect(await fine.text()).toBe('<entry/>')
  })
})
