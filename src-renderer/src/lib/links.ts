// Links inside HTML Blogdesk shows (post bodies, friends' events): a click on one must never navigate Blogdesk's
// window; it opens in the browser through api.app.openExternal, and only for http(s) addresses.

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
