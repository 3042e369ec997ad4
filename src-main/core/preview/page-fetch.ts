// Reading a weblog's public page and its stylesheets: plain GETs without the account's credentials, bounded in time
// and size, and only at the places the account points to (its server, its weblog's public page). Redirects are
// followed by hand so that each hop is checked too: a page must not lead Blogdesk to an address on the person's
// network that the account never named.
import type { Fetch } from '../atom'

export const PAGE_TIMEOUT_MS = 15_000
const MAX_REDIRECTS = 5

export class LookFailure extends Error {
  override name = 'LookFailure'
}

export interface AllowedFetch {
  /** The body as text, decoded by its charset (UTF-8 when none is named); a LookFailure says why it could not be read. */
  text(url: string, options: { maxBytes: number; accept: string }): Promise<{ url: string; contentType: string; body: string }>
  allows(url: string): boolean
}

export function allowedFetch(fetch: Fetch, allowedOrigins: readonly string[]): AllowedFetch {
  const origins = new Set(allowedOrigins.map(originOf).filter((origin): origin is string => origin !== null))
  const allows = (url: string) => {
    const origin = originOf(url)
    return origin !== null && origins.has(origin)
  }
  return {
    allows,
    async text(url, { maxBytes, accept }) {
      let current = url
      for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
        if (!allows(current)) throw new LookFailure(`${current} is not on the weblog’s own server, so Blogdesk did not read it`)
        let response: Response
        try {
          response = await fetch(current, {
            headers: { Accept: accept },
            redirect: 'manual',
            signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
          })
        } catch (error) {
          throw new LookFailure(`${hostOf(current)} could not be reached (${(error as Error).message})`, { cause: error })
        }
        const location = response.headers.get('location')
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel()
          current = new URL(location, current).href
          continue
        }
        if (response.status !== 200) {
          await response.body?.cancel()
          throw new LookFailure(`${current} answered ${response.status}`)
        }
        const contentType = response.headers.get('content-type') ?? ''
        return { url: current, contentType, body: await limitedText(response, current, maxBytes, contentType) }
      }
      throw new LookFailure(`${url} redirected more than ${MAX_REDIRECTS} times`)
    },
  }
}

async function limitedText(response: Response, url: string, maxBytes: number, contentType: string): Promise<string> {
  const tooLarge = () => new LookFailure(`${url} is larger than ${Math.round(maxBytes / 1024)} KB, so Blogdesk stopped reading it`)
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel()
    throw tooLarge()
  }
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength
      if (size > maxBytes) throw tooLarge()
      chunks.push(chunk)
    }
  } catch (error) {
    if (error instanceof LookFailure) throw error
    throw new LookFailure(`${url} stopped sending (${(error as Error).message})`, { cause: error })
  }
  return new TextDecoder(charsetOf(contentType)).decode(Buffer.concat(chunks))
}

/** The charset a Content-Type names, when TextDecoder knows it; UTF-8 otherwise (HTML5's default for the web). */
function charsetOf(contentType: string): string {
  const named = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]
  if (!named) return 'utf-8'
  try {
    return new TextDecoder(named).encoding
  } catch {
    return 'utf-8'
  }
}

export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
  } catch {
    return null
  }
}

function hostOf(url: string): string {
  return new URL(url).host
}
