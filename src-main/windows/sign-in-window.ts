// The window where the person signs in to a JSON service and approves Blogdesk (OAuth 1.0a). It shows the service's
// own page, so it is built for a stranger's content: no preload, sandboxed, in a session of its own that is never
// written to disk (the service's cookies leave with it). It stays on the service's site, except for the one step
// the flow needs, the redirect to core's loopback callback on 127.0.0.1; its title always names the site.
import { session, type BrowserWindow, type Session, type WebContents } from 'electron'
import { OAUTH_CALLBACK_PATH, type ShownPage } from '../core'
import { isWebLink } from '../platform'
import { createWindow } from './browser-window'
import { openInBrowser } from './security'

/** No `persist:` prefix: an in-memory session, apart from the app's. */
export const SIGN_IN_PARTITION = 'blogdesk-sign-in'

/** Opens the service's authorize page; `parent` is the app window it belongs to, if one is open. */
export function showSignInPage(url: string, parent: BrowserWindow | null): ShownPage {
  if (!isWebLink(url)) throw new Error(`The sign-in page must be a web address, not "${url}".`)
  const page = new URL(url)
  const window = createWindow(
    {
      width: 560,
      height: 720,
      minWidth: 400,
      minHeight: 480,
      title: signInTitle(page),
      parent: parent ?? undefined,
      autoHideMenuBar: true,
    },
    { partition: SIGN_IN_PARTITION, spellcheck: false },
  )
  window.setMenu(null)
  guardSignInSession(session.fromPartition(SIGN_IN_PARTITION))
  guardSignInContents(window.webContents, page.origin)
  window.once('ready-to-show', () => window.show())
  window.loadURL(page.href).catch((error: unknown) => {
    // The page explains nothing if it never loads; the sign-in then times out or the person cancels it in the app.
    console.error(`Blogdesk could not load the sign-in page ${page.href}:`, error)
  })
  return {
    close: () => {
      if (!window.isDestroyed()) window.close()
    },
  }
}

/** Whether the sign-in window may go to `url`: the service's own pages, or core's OAuth callback. */
export function signInMayVisit(serviceOrigin: string, url: string): boolean {
  if (!URL.canParse(url)) return false
  const target = new URL(url)
  if (target.origin === serviceOrigin) return true
  return target.protocol === 'http:' && target.hostname === '127.0.0.1' && target.pathname === OAUTH_CALLBACK_PATH
}

function signInTitle(page: URL): string {
  return `Sign in to ${page.host} — Blogdesk`
}

function guardSignInContents(contents: WebContents, serviceOrigin: string): void {
  const stayOnTheWay = (event: { url: string; preventDefault(): void }) => {
    if (!signInMayVisit(serviceOrigin, event.url)) event.preventDefault()
  }
  contents.on('will-navigate', stayOnTheWay)
  contents.on('will-redirect', stayOnTheWay)
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !signInMayVisit(serviceOrigin, event.url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  // The page may not pose as something else: the title names the site the person is signing in to.
  contents.on('page-title-updated', (event) => event.preventDefault())
  // A link opened in a new window (say, "create an account") goes to the browser, as in the app's own window.
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) openInBrowser(url)
    return { action: 'deny' }
  })
}

const guardedSessions = new WeakSet<Session>()

function guardSignInSession(signInSession: Session): void {
  if (guardedSessions.has(signInSession)) return
  guardedSessions.add(signInSession)
  signInSession.setPermissionRequestHandler((_contents, _permission, grant) => grant(false))
  signInSession.setPermissionCheckHandler(() => false)
  signInSession.on('will-download', (event) => event.preventDefault())
}
