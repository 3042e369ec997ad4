// Web pages open in the person's browser (openInBrowser), never in Blogdesk's window. A click on a link inside HTML
// Blogdesk shows (post bodies, friends' events) must not navigate the window either, and opens only http(s) addresses.
import { api } from './api'

/** Opens a web page in the person's browser; rejects with an ApiError when the main process refuses. */
export async function openInBrowser(url: string): Promise<void> {
  await api.app.openExternal({ url })
}

/** The link a click landed on, if any. */
export function linkOf(target: EventTarget | null): HTMLAnchorElement | null {
  return target instanceof Element ? target.closest('a[href]') : null
}

/**
 * The address as an absolute http(s) URL, the only kind opened in the browser; null for anything else. A relative
 * address is read against `base`, the page the HTML came from.
 */
export function openableUrl(href: string | null, base?: string | null): string | null {
  if (href === null) return null
  try {
    const url = new URL(href, base ?? undefined)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}
