import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseXml } from '../../src-protocol'
import { rawRequest } from '../testing/service-fixture'
import { atomReply } from './reply'
import { MAX_BODY_BYTES, Router } from './router'

describe('Router', () => {
  let server: Server
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())))

  async function serve(router: Router): Promise<string> {
    server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    server.on('request', router.listener(origin))
    return origin
  }

  const hello = new Router().get('/hello', ({ origin }) => atomReply(`<feed origin="${origin}"/>`))

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
