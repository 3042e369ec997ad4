// The only way lookups reach the network. A client chooses the URLs (a homepage, a link), so every request is
// fenced: http and https only; the host's addresses vetted (no private, loopback, link-local… unless allow-listed)
// and the connection made to the vetted address itself, so a second DNS answer cannot swap in another one; few
// redirects, each vetted the same way; a deadline for the whole fetch; a cap on the bytes read; expected types only.
import { lookup as dnsLookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { whyNotPublic } from './addresses'

/** A lookup that could not, or would not, be made; the message says which and why. */
export class LookupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'LookupError'
  }
}

export interface SafeFetcherOptions {
  /** Refuse every request: for tests and machines that must not reach out. */
  offline?: boolean
  /** Host names (or IP literals) that may resolve to private or loopback addresses, e.g. a catalogue on the LAN. */
  allowHosts?: Iterable<string>
  /** The whole fetch, redirects included, must finish within this. */
  timeoutMs?: number
  /** A response body larger than this is cut off and refused. */
  maxBytes?: number
  maxRedirects?: number
}

export interface FetchedDocument {
  /** Where the document was found, after redirects: relative links in it resolve against this. */
  url: string
  /** The media type without parameters, lower case. */
  mediaType: string
  text: string
}

/** One fetchText call: the signal that ends it, and what to say when it does. */
interface Attempt {
  signal: AbortSignal
  whyStopped(): string
}

export const DEFAULT_TIMEOUT_MS = 5000
export const DEFAULT_MAX_BYTES = 1024 * 1024
const DEFAULT_MAX_REDIRECTS = 3
const USER_AGENT = 'Blogdesk-Lookup/1.0 (+list item details)'

export class SafeFetcher {
  readonly #offline: boolean
  readonly #allowHosts: ReadonlySet<string>
  readonly #timeoutMs: number
  readonly #maxBytes: number
  readonly #maxRedirects: number

  constructor(options: SafeFetcherOptions = {}) {
    this.#offline = options.offline ?? false
    this.#allowHosts = new Set([...(options.allowHosts ?? [])].map(normalizeHost))
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
    this.#maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  }

  /**
   * GETs `url` and returns its body as text, if it comes as one of `mediaTypes` within the limits. Throws
   * LookupError otherwise. `signal` can end the fetch sooner than the fetcher's own deadline.
   */
  async fetchText(url: string, mediaTypes: readonly string[], signal?: AbortSignal): Promise<FetchedDocument> {
    if (this.#offline) throw new LookupError(`Not fetching ${url}: this service makes no lookups over the network.`)
    const deadline = AbortSignal.timeout(this.#timeoutMs)
    const attempt: Attempt = {
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      whyStopped: () =>
        deadline.aborted ? `did not answer within ${this.#timeoutMs} ms` : 'took longer than the lookup may take',
    }
    let current = parseHttpUrl(url)
    for (let redirects = 0; ; redirects++) {
      const response = await this.#get(current, mediaTypes, attempt)
      if (response.redirectTo === null) return { url: current.href, ...decode(response.body, response.contentType) }
      if (redirects === this.#maxRedirects) {
        throw new LookupError(`${url} redirects more than ${this.#maxRedirects} times; not following further.`)
      }
      current = parseHttpUrl(response.redirectTo, current)
    }
  }

  async #get(
    url: URL,
    mediaTypes: readonly string[],
    attempt: Attempt,
  ): Promise<{ redirectTo: string | null; contentType: string; body: Buffer }> {
    const addresses = await this.#vettedAddresses(url, attempt)
    const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
      // With autoSelectFamily (Node's default) the socket asks for every address and tries each in turn.
      if (options.all) callback(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    }
    const options: RequestOptions = {
      method: 'GET',
      lookup: pinnedLookup,
      // A fresh connection per request: a pooled socket would skip the vetting of this request's address.
      agent: false,
      signal: attempt.signal,
      headers: { Accept: mediaTypes.join(', '), 'Accept-Encoding': 'identity', 'User-Agent': USER_AGENT },
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest

    return new Promise((resolve, reject) => {
      const fail = (error: unknown) => reject(asLookupError(error, url, attempt))
      const outgoing = send(url, options, (response) => {
        const status = response.statusCode ?? 0
        const location = response.headers.location
        if (status >= 300 && status < 400 && location !== undefined) {
          response.destroy()
          resolve({ redirectTo: location, contentType: '', body: Buffer.alloc(0) })
          return
        }
        const refusal = this.#refusal(url, response, mediaTypes)
        if (refusal !== null) {
          response.destroy()
          reject(new LookupError(refusal))
          return
        }
        this.#readCapped(url, response).then(
          (body) => resolve({ redirectTo: null, contentType: response.headers['content-type'] ?? '', body }),
          fail,
        )
      })
      outgoing.on('error', fail)
      outgoing.end()
    })
  }

  /** The host's addresses, all of them vetted; the connection may only go to these. */
  async #vettedAddresses(url: URL, attempt: Attempt): Promise<{ address: string; family: number }[]> {
    const host = normalizeHost(url.hostname)
    const allowed = this.#allowHosts.has(host)
    let addresses: { address: string; family: number }[]
    if (isIP(host) !== 0) {
      addresses = [{ address: host, family: isIP(host) }]
    } else {
      try {
        addresses = await abortable(dnsLookup(host, { all: true, verbatim: true }), attempt.signal)
      } catch (error) {
        throw asLookupError(error, url, attempt)
      }
    }
    if (!allowed) {
      // Every address must pass: the connection could otherwise be steered to whichever one fails.
      for (const { address } of addresses) {
        const reason = whyNotPublic(address)
        if (reason !== null) {
          throw new LookupError(
            `${url.host} resolves to ${address} (${reason}); lookups only go to public addresses ` +
              'unless the host is allow-listed.',
          )
        }
      }
    }
    if (addresses.length === 0) throw new LookupError(`${url.host} has no address.`)
    return addresses
  }

  #refusal(url: URL, response: IncomingMessage, mediaTypes: readonly string[]): string | null {
    const status = response.statusCode ?? 0
    if (status < 200 || status > 299) return `${url.href} answered ${status} ${response.statusMessage ?? ''}`.trimEnd() + '.'
    const mediaType = mediaTypeOf(response.headers['content-type'] ?? '')
    if (!mediaTypes.includes(mediaType)) {
      return `${url.href} sent ${mediaType || 'no Content-Type'}; expected ${mediaTypes.join(' or ')}.`
    }
    const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
    if (encoding !== 'identity') return `${url.href} sent its body ${encoding}-encoded, though asked for it plain.`
    if (Number(response.headers['content-length'] ?? 0) > this.#maxBytes) {
      return `${url.href} is larger than the lookup limit of ${this.#maxBytes} bytes.`
    }
    return null
  }

  async #readCapped(url: URL, response: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > this.#maxBytes) {
        response.destroy()
        throw new LookupError(`${url.href} is larger than the lookup limit of ${this.#maxBytes} bytes.`)
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, size)
  }
}

function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
}

function parseHttpUrl(text: string, base?: URL): URL {
  let url: URL
  try {
    url = new URL(text, base)
  } catch {
    throw new LookupError(`"${text}" is not a URL.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LookupError(`${url.href} is not an http or https address; lookups use nothing else.`)
  }
  if (url.username !== '' || url.password !== '') {
    throw new LookupError(`${url.host} is given with credentials; lookups never send any.`)
  }
  url.hash = ''
  return url
}

function mediaTypeOf(contentType: string): string {
  return (contentType.split(';', 1)[0] ?? '').trim().toLowerCase()
}

/** The body as text, in the charset the header names, else the one the document declares, else UTF-8. */
function decode(body: Buffer, contentType: string): { mediaType: string; text: string } {
  const mediaType = mediaTypeOf(contentType)
  const head = body.subarray(0, 1024).toString('latin1')
  const charset =
    /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ??
    /^<\?xml[^>]*\sencoding\s*=\s*["']([\w.:-]+)/.exec(head)?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    'utf-8'
  return { mediaType, text: decoderFor(charset).decode(body) }
}

/** A charset the decoder does not know is read as UTF-8, the Web's default. */
function decoderFor(charset: string): InstanceType<typeof TextDecoder> {
  try {
    return new TextDecoder(charset)
  } catch {
    return new TextDecoder('utf-8')
  }
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error)
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason as Error)
    signal.addEventListener('abort', abort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

function asLookupError(error: unknown, url: URL, attempt: Attempt): LookupError {
  if (error instanceof LookupError) return error
  if (attempt.signal.aborted) return new LookupError(`${url.href} ${attempt.whyStopped()}.`, { cause: error })
  const reason = error instanceof Error ? error.message : String(error)
  return new LookupError(`${url.href} could not be fetched: ${reason}`, { cause: error })
}
