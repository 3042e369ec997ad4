// HTTP for core through Chromium's network stack, so requests honour the system's proxy settings and certificates.
//
// It is fetch as core expects it, built on net.request rather than net.fetch, for two things net.fetch gets wrong:
// with `redirect: 'manual'` it rejects ("Redirect was cancelled") instead of answering with the 3xx, which core
// needs (a username's 302, a write that must not follow a move); and its Response's `url` is empty, so relative
// links could not be resolved against the address a followed redirect ended at.
import { Readable } from 'node:stream'
import { net, type IncomingMessage } from 'electron'

/** Statuses whose answer has no body, whatever the server sends (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304])

export const netFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  request.signal.throwIfAborted()
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : null
  return new Promise<Response>((resolve, reject) => {
    let url = request.url
    // 'manual' for Chromium whatever the caller asked: only then does each hop pass through the 'redirect' event.
    const client = net.request({ method: request.method, url, redirect: 'manual' })
    const answer = (status: number, statusText: string, headers: Headers, stream: ReadableStream | null) => {
      const empty = NULL_BODY_STATUSES.has(status) || request.method === 'HEAD'
      const response = new Response(empty ? null : stream, { status, statusText, headers })
      Object.defineProperty(response, 'url', { value: url })
      resolve(response)
    }
    // Also after the answer came: aborting then cuts its body short.
    request.signal.addEventListener('abort', () => {
      reject(request.signal.reason)
      client.abort()
    })
    for (const [name, value] of request.headers) client.setHeader(name, value)
    client.on('redirect', (status, _method, redirectUrl, responseHeaders) => {
      if (request.redirect === 'follow') {
        url = redirectUrl
        client.followRedirect()
        return
      }
      if (request.redirect === 'error') {
        reject(new TypeError(`${url} redirected to ${redirectUrl}, and redirects were refused`))
      } else {
        answer(status, '', headersOf(responseHeaders), null)
      }
      client.abort()
    })
    client.on('response', (response: IncomingMessage) => {
      const stream = Readable.toWeb(response as unknown as Readable) as ReadableStream
      answer(response.statusCode, response.statusMessage, headersOf(response.headers), stream)
    })
    client.on('error', reject)
    if (body) client.write(body)
    client.end()
  })
}

function headersOf(raw: Record<string, string | string[]>): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    for (const each of [value].flat()) headers.append(name, each)
  }
  return headers
}
