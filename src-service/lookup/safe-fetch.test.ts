// The fence around every lookup, against a real server on 127.0.0.1: what it refuses (and then never asks), what it
// follows, and what it cuts off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LookupError, SafeFetcher } from './safe-fetch'
import { page, redirect, startTestWebServer, type TestWebServer } from './test-web-server'

const HTML = ['text/html']

describe('SafeFetcher', () => {
  let web: TestWebServer
  let allowed: SafeFetcher
  beforeAll(async () => {
    web = await startTestWebServer()
    allowed = new SafeFetcher({ allowHosts: ['127.0.0.1'], timeoutMs: 1000, maxBytes: 4096 })
  })
  afterAll(() => web.close())

  const refusal = async (fetching: Promise<unknown>): Promise<string> => {
    const error: unknown = await fetching.then(
      () => null,
      (reason: unknown) => reason,
    )
    expect(error).toBeInstanceOf(LookupError)
    return (error as LookupError).message
  }

  it('fetches an allow-listed loopback host, decoding the charset the page declares', async () => {
    web.route('/latin1', page('text/html; charset=iso-8859-1', Buffer.from('<title>Caf\xe9</title>', 'latin1')))
    const document = await allowed.fetchText(`${web.origin}/latin1`, HTML)
    expect(document).toEqual({ url: `${web.origin}/latin1`, mediaType: 'text/html', text: '<title>Café</title>' })
  })

  it('connects to the addresses it vetted for an allow-listed host name, naming the host in the request', async () => {
    let host: string | undefined
    web.route('/named', (request, response) => {
      host = request.headers.host
      page('text/html', '<title>Named</title>')(request, response)
    })
    const byName = new SafeFetcher({ allowHosts: ['LOCALHOST'], timeoutMs: 1000 })
    const document = await byName.fetchText(`http://localhost:${new URL(web.origin).port}/named`, HTML)
    expect(document.text).toBe('<title>Named</title>')
    expect(host).toBe(`localhost:${new URL(web.origin).port}`)
  })

  it('refuses loopback, private and other non-public addresses unless allow-listed, without connecting', async () => {
    web.route('/secret', page('text/html', 'secret'))
    const fenced = new SafeFetcher({ timeoutMs: 1000 })
    const before = web.requested.length

    expect(await refusal(fenced.fetchText(`${web.origin}/secret`, HTML))).toMatch(/127\.0\.0\.1 \(loopback\)/)
    expect(await refusal(fenced.fetchText('http://localhost/', HTML))).toMatch(/loopback/)
    expect(await refusal(fenced.fetchText('http://10.1.2.3/', HTML))).toMatch(/private network/)
    expect(await refusal(fenced.fetchText('http://169.254.169.254/latest/meta-data/', HTML))).toMatch(/link-local/)
    expect(await refusal(fenced.fetchText('http://[::ffff:127.0.0.1]/', HTML))).toMatch(/loopback/)
    expect(await refusal(fenced.fetchText('http://0x7f.1/', HTML))).toMatch(/loopback/)
    // NAT64 for local use and SIIT translate to whatever IPv4 address the network chooses, private ones included.
    expect(await refusal(fenced.fetchText('http://[64:ff9b:1::7f00:1]/', HTML))).toMatch(/local-use NAT64/)
    expect(await refusal(fenced.fetchText('http://[::ffff:0:7f00:1]/', HTML))).toMatch(/IPv4-translated/)
    expect(web.requested.length).toBe(before)
  })

  it('fetches nothing at all when offline, allow-listed or not', async () => {
    web.route('/offline', page('text/html', 'never'))
    const offline = new SafeFetcher({ offline: true, allowHosts: ['127.0.0.1'] })
    expect(await refusal(offline.fetchText(`${web.origin}/offline`, HTML))).toMatch(/no lookups over the network/)
    expect(web.requested).not.toContain('/offline')
  })

  it('uses nothing but http and https, and never sends credentials', async () => {
    expect(await refusal(allowed.fetchText('file:///etc/passwd', HTML))).toMatch(/not an http or https address/)
    expect(await refusal(allowed.fetchText('ftp://127.0.0.1/', HTML))).toMatch(/not an http or https address/)
    expect(await refusal(allowed.fetchText(`http://user:pw@127.0.0.1:1/`, HTML))).toMatch(/credentials/)
  })

  it('follows up to three redirects and reports where the document was found', async () => {
    web.route('/hop1', redirect('/hop2'))
    web.route('/hop2', redirect(`${web.origin}/hop3`, 301))
    web.route('/hop3', redirect('/landing', 307))
    web.route('/landing', page('text/html', '<title>Landed</title>'))
    const document = await allowed.fetchText(`${web.origin}/hop1`, HTML)
    expect(document.url).toBe(`${web.origin}/landing`)
    expect(document.text).toBe('<title>Landed</title>')
  })

  it('stops at a fourth redirect', async () => {
    web.route('/loop0', redirect('/hop1'))
    expect(await refusal(allowed.fetchText(`${web.origin}/loop0`, HTML))).toMatch(/redirects more than 3 times/)
  })

  it('vets every redirect: a redirect to a private address is refused and never followed', async () => {
    web.route('/to-private', redirect('http://192.168.1.1/admin'))
    web.route('/to-other-loopback', redirect(`http://127.0.0.2:${new URL(web.origin).port}/secret`))
    const before = web.requested.filter((path) => path === '/secret').length

    expect(await refusal(allowed.fetchText(`${web.origin}/to-private`, HTML))).toMatch(/192\.168\.1\.1 \(a private network\)/)
    expect(await refusal(allowed.fetchText(`${web.origin}/to-other-loopback`, HTML))).toMatch(/127\.0\.0\.2 \(loopback\)/)
    expect(web.requested.filter((path) => path === '/secret').length).toBe(before)
  })

  it('refuses a response of a type it did not ask for, an error status, and a compressed body', async () => {
    web.route('/image', page('image/png', 'PNG'))
    expect(await refusal(allowed.fetchText(`${web.origin}/image`, HTML))).toMatch(/sent image\/png; expected text\/html/)
    expect(await refusal(allowed.fetchText(`${web.origin}/missing`, HTML))).toMatch(/answered 404 Not Found\./)
    web.route('/gzipped', (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' })
      response.end('\x1f\x8b')
    })
    expect(await refusal(allowed.fetchText(`${web.origin}/gzipped`, HTML))).toMatch(/gzip-encoded/)
  })

  it('cuts off a body larger than the cap, whether or not its length is declared', async () => {
    web.route('/declared', page('text/html', 'x'.repeat(5000)))
    web.route('/streamed', (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' })
      const chunk = 'y'.repeat(1024)
      let sent = 0
      const more = () => {
        // Keeps sending until the fetcher hangs up.
        if (response.destroyed || sent++ > 1000) return response.end()
        response.write(chunk, () => setImmediate(more))
      }
      more()
    })
    expect(await refusal(allowed.fetchText(`${web.origin}/declared`, HTML))).toMatch(/larger than the lookup limit of 4096 bytes/)
    expect(await refusal(allowed.fetchText(`${web.origin}/streamed`, HTML))).toMatch(/larger than the lookup limit of 4096 bytes/)
  })

  it('gives up on a server that is too slow, whether it never answers or trickles', async () => {
    const quick = new SafeFetcher({ allowHosts: ['127.0.0.1'], timeoutMs: 300 })
    web.route('/silent', () => {})
    web.route('/trickle', (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' })
      const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write('.')), 50)
    })
    const started = Date.now()
    expect(await refusal(quick.fetchText(`${web.origin}/silent`, HTML))).toMatch(/did not answer within 300 ms/)
    expect(await refusal(quick.fetchText(`${web.origin}/trickle`, HTML))).toMatch(/did not answer within 300 ms/)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('stops when the caller’s own deadline passes first', async () => {
    web.route('/silent', () => {})
    const message = await refusal(allowed.fetchText(`${web.origin}/silent`, HTML, AbortSignal.timeout(100)))
    expect(message).toMatch(/took longer than the lookup may take/)
  })
})
