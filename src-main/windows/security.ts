// The window's defences. The renderer shows remote content (post bodies, friends' events), so it is treated as
// hostile: it may not leave our page, open windows, or use any permission the app does not need.
import type { Session, WebContents } from 'electron'
import { isWebLink, openExternal } from '../platform'
import type { AppPage } from './page'

/**
 * The policy of the meta tag in src-renderer/index.html, as a header too: in case a page arrives without the tag, and
 * because frame-ancestors works only in a header.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ')

/**
 * The policy while `npm run dev` serves the page: the dev server injects an inline React-refresh preamble and <style>
 * tags, and talks to the page over a WebSocket. electron.vite.config.ts relaxes the meta tag the same way; a header
 * left strict would still block them, since the page must satisfy both policies.
 */
export const DEV_SERVER_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
  .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
  .replace("connect-src 'self'", "connect-src 'self' ws://localhost:*")

/** Permissions our own page may use. Copying to the clipboard is all it needs so far. */
const grantedPermissions: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

/** What a frame may show without loading anything: an empty document, or one written inline by our own page. */
const INERT_FRAME_URLS: ReadonlySet<string> = new Set(['about:blank', 'about:srcdoc'])

export function guardContents(contents: WebContents, page: AppPage): void {
  const stayOnPage = (event: { preventDefault(): void }, url: string) => {
    if (!page.owns(url)) event.preventDefault()
  }
  contents.on('will-navigate', (event) => stayOnPage(event, event.url))
  contents.on('will-redirect', (event) => stayOnPage(event, event.url))
  // 'will-navigate' is emitted for the main frame only: a frame inside the page (one a post's HTML or an extension
  // slipped in) is stopped here, unless it shows our page or an inert document.
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !INERT_FRAME_URLS.has(event.url)) stayOnPage(event, event.url)
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) openInBrowser(url)
    return { action: 'deny' }
  })
}

export function guardSession(session: Session, page: AppPage): void {
  session.setPermissionRequestHandler((_contents, permission, grant, details) => {
    grant(grantedPermissions.has(permission) && page.owns(details.requestingUrl))
  })
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    return grantedPermissions.has(permission) && page.owns(details.requestingUrl ?? requestingOrigin)
  })
  // Only the dev server's page (never a packaged app's: see appPage) gets the relaxed policy.
  const policy = page.file === null ? DEV_SERVER_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY
  session.webRequest.onHeadersReceived((details, respond) => {
    if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') return respond({})
    respond({ responseHeaders: withPolicy(details.responseHeaders ?? {}, policy) })
  })
}

/** Web links leave for the browser; anything else is dropped (openExternal says why in the log). */
export function openInBrowser(url: string): void {
  openExternal(url).catch((error: unknown) => {
    console.error(`Blogdesk could not open ${url} in the browser:`, error)
  })
}

/** Replaces any policy the response brought, whatever the case of its header name, with ours. */
function withPolicy(headers: Record<string, string[]>, policy: string): Record<string, string[]> {
  const kept = Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-security-policy')
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [policy] }
}
