import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { AppWindows, CONTENT_SECURITY_POLICY, appPage, canvasColors, isWebLink, type AppPage } from '.'

type Listener = (...args: unknown[]) => void
type PermissionRequestHandler = NonNullable<Parameters<Session['setPermissionRequestHandler']>[0]>
type PermissionCheckHandler = NonNullable<Parameters<Session['setPermissionCheckHandler']>[0]>
type HeadersListener = NonNullable<Parameters<Session['webRequest']['onHeadersReceived']>[0]>
type WindowOpenHandler = Parameters<WebContents['setWindowOpenHandler']>[0]

// A stand-in for the parts of Electron the window factory touches, recording what it was told.
const electron = vi.hoisted(() => {
  class Emitter {
    readonly listeners = new Map<string, Listener[]>()
    on(name: string, listener: Listener) {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener])
      return this
    }
    once(name: string, listener: Listener) {
      const once: Listener = (...args) => {
        this.listeners.set(name, (this.listeners.get(name) ?? []).filter((entry) => entry !== once))
        listener(...args)
      }
      return this.on(name, once)
    }
    emit(name: string, ...args: unknown[]) {
      for (const listener of this.listeners.get(name) ?? []) listener(...args)
    }
  }
  class FakeSession {
    permissionRequest: PermissionRequestHandler | null = null
    permissionCheck: PermissionCheckHandler | null = null
    headersReceived: HeadersListener | null = null
    setPermissionRequestHandler(handler: PermissionRequestHandler) {
      this.permissionRequest = handler
    }
    setPermissionCheckHandler(handler: PermissionCheckHandler) {
      this.permissionCheck = handler
    }
    readonly webRequest = {
      onHeadersReceived: (listener: HeadersListener) => {
        this.headersReceived = listener
      },
    }
  }
  class FakeWebContents extends Emitter {
    readonly session = new FakeSession()
    openHandler: WindowOpenHandler | null = null
    setWindowOpenHandler(handler: WindowOpenHandler) {
      this.openHandler = handler
    }
  }
  class FakeBrowserWindow extends Emitter {
    static readonly created: FakeBrowserWindow[] = []
    static loadOutcome: () => Promise<void> = () => Promise.resolve()
    readonly webContents = new FakeWebContents()
    readonly loadFile = vi.fn((_file: string) => FakeBrowserWindow.loadOutcome())
    readonly loadURL = vi.fn((_url: string) => FakeBrowserWindow.loadOutcome())
    readonly show = vi.fn()
    readonly focus = vi.fn()
    readonly restore = vi.fn()
    minimized = false
    destroyed = false
    constructor(readonly options: BrowserWindowConstructorOptions) {
      super()
      FakeBrowserWindow.created.push(this)
    }
    isMinimized() {
      return this.minimized
    }
    isDestroyed() {
      return this.destroyed
    }
    destroy() {
      this.destroyed = true
      this.emit('closed')
    }
  }
  return {
    FakeBrowserWindow,
    nativeTheme: { shouldUseDarkColors: false },
    openExternal: vi.fn((_url: string) => Promise.resolve()),
    showErrorBox: vi.fn((_title: string, _content: string) => undefined),
  }
})

vi.mock('electron', () => ({
  app: { isPackaged: true },
  BrowserWindow: electron.FakeBrowserWindow,
  dialog: { showErrorBox: electron.showErrorBox },
  nativeTheme: electron.nativeTheme,
  shell: { openExternal: electron.openExternal },
}))

const mainDir = resolve('/opt/blogdesk/out/main')
const pageFile = resolve('/opt/blogdesk/out/renderer/index.html')
const pageUrl = pathToFileURL(pageFile).href
const productionPage = appPage({ mainDir, isPackaged: true })

beforeEach(() => {
  electron.FakeBrowserWindow.created.length = 0
  electron.FakeBrowserWindow.loadOutcome = () => Promise.resolve()
  electron.nativeTheme.shouldUseDarkColors = false
  electron.openExternal.mockClear()
  electron.showErrorBox.mockClear()
})

function openWindow(page: AppPage = productionPage) {
  const windows = new AppWindows(page)
  windows.open()
  const window = electron.FakeBrowserWindow.created.at(-1)
  if (!window) throw new Error('no BrowserWindow was created')
  return { windows, window, contents: window.webContents, session: window.webContents.session }
}

function navigationEvent(url: string) {
  return { url, preventDefault: vi.fn() }
}

describe('appPage', () => {
  it('loads the built renderer and preload from beside the built main file', () => {
    expect(productionPage.file).toBe(pageFile)
    expect(productionPage.url).toBe(pageUrl)
    expect(productionPage.preload).toBe(resolve('/opt/blogdesk/out/preload/index.cjs'))
  })

  it('owns its own file, whatever the route in the query or fragment', () => {
    expect(productionPage.owns(pageUrl)).toBe(true)
    expect(productionPage.owns(`${pageUrl}#/accounts`)).toBe(true)
    expect(productionPage.owns(`${pageUrl}?view=feed`)).toBe(true)
  })

  it('owns no other file, site or scheme', () => {
    for (const url of [
      pathToFileURL(resolve('/opt/blogdesk/out/renderer/other.html')).href,
      pathToFileURL(resolve('/etc/passwd')).href,
      'https://example.com/index.html',
      'http://127.0.0.1:5173/',
      'about:blank',
      'not a url',
      '',
    ]) {
      expect(productionPage.owns(url), url).toBe(false)
    }
  })

  it('uses the dev server while developing, owning only its origin', () => {
    const page = appPage({ mainDir, isPackaged: false, devServerUrl: 'http://localhost:5173' })
    expect(page.file).toBeNull()
    expect(page.url).toBe('http://localhost:5173/')
    expect(page.preload).toBe(resolve('/opt/blogdesk/out/preload/index.cjs'))
    expect(page.owns('http://localhost:5173/#/accounts')).toBe(true)
    expect(page.owns('http://localhost:5174/')).toBe(false)
    expect(page.owns(pageUrl)).toBe(false)
  })

  it('never trusts a dev server URL in a packaged app', () => {
    const page = appPage({ mainDir, isPackaged: true, devServerUrl: 'https://evil.example' })
    expect(page.url).toBe(pageUrl)
    expect(page.owns('https://evil.example/')).toBe(false)
  })

  it('refuses a dev server URL that is not http(s)', () => {
    expect(() => appPage({ mainDir, isPackaged: false, devServerUrl: 'file:///tmp/index.html' })).toThrow(
      /dev server's http\(s\) address/,
    )
  })
})

describe('the window', () => {
  it('runs the page sandboxed, isolated and without Node', () => {
    const { window } = openWindow()
    const preferences = window.options.webPreferences
    expect(preferences?.contextIsolation).toBe(true)
    expect(preferences?.sandbox).toBe(true)
    expect(preferences?.nodeIntegration).toBe(false)
    expect(preferences?.nodeIntegrationInWorker).toBe(false)
    expect(preferences?.nodeIntegrationInSubFrames).toBe(false)
    expect(preferences?.webSecurity).toBe(true)
    expect(preferences?.allowRunningInsecureContent).toBe(false)
    expect(preferences?.webviewTag).toBe(false)
    expect(preferences?.navigateOnDragDrop).toBe(false)
    expect(preferences?.spellcheck).toBe(true)
    expect(preferences?.preload).toBe(productionPage.preload)
  })

  it('loads the built page from disk in production and the dev server while developing', () => {
    const { window } = openWindow()
    expect(window.loadFile).toHaveBeenCalledWith(pageFile)
    expect(window.loadURL).not.toHaveBeenCalled()

    const dev = openWindow(appPage({ mainDir, isPackaged: false, devServerUrl: 'http://localhost:5173' }))
    expect(dev.window.loadURL).toHaveBeenCalledWith('http://localhost:5173/')
    expect(dev.window.loadFile).not.toHaveBeenCalled()
  })

  it("stays hidden on the page's own background until the page is ready to show", () => {
    const { window } = openWindow()
    expect(window.options.show).toBe(false)
    expect(window.options.backgroundColor).toBe(canvasColors.light)
    expect(window.options.width).toBeGreaterThanOrEqual(window.options.minWidth ?? 0)
    expect(window.show).not.toHaveBeenCalled()
    window.emit('ready-to-show')
    expect(window.show).toHaveBeenCalledOnce()
  })

  it('starts dark when the system is dark', () => {
    electron.nativeTheme.shouldUseDarkColors = true
    expect(openWindow().window.options.backgroundColor).toBe(canvasColors.dark)
  })

  it('tells the person when the page cannot be loaded, instead of leaving an invisible window', async () => {
    electron.FakeBrowserWindow.loadOutcome = () => Promise.reject(new Error('ERR_FILE_NOT_FOUND (-6)'))
    const { windows, window } = openWindow()
    await vi.waitFor(() => expect(electron.showErrorBox).toHaveBeenCalledOnce())
    expect(electron.showErrorBox.mock.calls[0]?.[1]).toContain('ERR_FILE_NOT_FOUND')
    expect(window.isDestroyed()).toBe(true)
    expect(windows.webContents()).toEqual([])
  })

  it('brings an open window back to the front, restoring it when minimised', () => {
    const windows = new AppWindows(productionPage)
    expect(windows.focus()).toBeNull()
    windows.open()
    const window = electron.FakeBrowserWindow.created[0]!
    window.minimized = true
    expect(windows.focus()).toBe(window)
    expect(window.restore).toHaveBeenCalledOnce()
    expect(window.focus).toHaveBeenCalledOnce()
  })

  it('lists the web contents of open windows only', () => {
    const windows = new AppWindows(productionPage)
    windows.open()
    windows.open()
    const [first, second] = electron.FakeBrowserWindow.created
    first!.emit('closed')
    expect(windows.webContents()).toEqual([second!.webContents])
    expect(windows.ownsUrl(pageUrl)).toBe(true)
    expect(windows.ownsUrl('https://example.com/')).toBe(false)
  })
})

describe('navigation', () => {
  it.each(['will-navigate', 'will-redirect'])('%s is stopped for any page but ours', (eventName) => {
    const { contents } = openWindow()
    for (const url of ['https://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'blogdesk://x']) {
      const event = navigationEvent(url)
      contents.emit(eventName, event, url)
      expect(event.preventDefault, url).toHaveBeenCalled()
    }
  })

  it('lets our own page reload or change its route', () => {
    const { contents } = openWindow()
    for (const url of [pageUrl, `${pageUrl}#/feed`]) {
      const event = navigationEvent(url)
      contents.emit('will-navigate', event, url)
      expect(event.preventDefault, url).not.toHaveBeenCalled()
    }
  })

  it('never attaches a webview', () => {
    const { contents } = openWindow()
    const event = navigationEvent('https://example.com/')
    contents.emit('will-attach-webview', event)
    expect(event.preventDefault).toHaveBeenCalled()
  })
})

describe('new windows and links', () => {
  const openRequest = (url: string) => ({
    url,
    frameName: '',
    features: '',
    disposition: 'foreground-tab' as const,
    referrer: { url: pageUrl, policy: 'strict-origin-when-cross-origin' as const },
  })

  it('denies every new window and opens web links in the browser instead', () => {
    const { contents } = openWindow()
    for (const url of ['https://example.com/post/1', 'http://example.org/']) {
      expect(contents.openHandler?.(openRequest(url))).toEqual({ action: 'deny' })
    }
    expect(electron.openExternal.mock.calls).toEqual([['https://example.com/post/1'], ['http://example.org/']])
  })

  it('opens nothing outside the web: local files, scripts, other apps or garbage', () => {
    const { contents } = openWindow()
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'blogdesk://settings',
      'ms-msdt:/id PCWDiagnostic',
      'smb://attacker/share',
      'mailto:someone@example.com',
      'not a url',
      '',
    ]) {
      expect(contents.openHandler?.(openRequest(url)), url).toEqual({ action: 'deny' })
    }
    expect(electron.openExternal).not.toHaveBeenCalled()
  })

  it('reports, rather than throws, when the browser cannot be opened', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    electron.openExternal.mockImplementationOnce(() => Promise.reject(new Error('no browser')))
    const { contents } = openWindow()
    contents.openHandler?.(openRequest('https://example.com/'))
    await vi.waitFor(() => expect(error).toHaveBeenCalled())
    error.mockRestore()
  })

  it('tells web links from everything else', () => {
    expect(isWebLink('HTTPS://EXAMPLE.COM/')).toBe(true)
    expect(isWebLink(' javascript:alert(1)')).toBe(false)
    expect(isWebLink('//example.com')).toBe(false)
  })
})

describe('permissions', () => {
  const fromOurPage = { requestingUrl: pageUrl, isMainFrame: true }
  const fromElsewhere = { requestingUrl: 'https://example.com/', isMainFrame: false }

  function request(session: { permissionRequest: PermissionRequestHandler | null }, permission: string, details: object) {
    let granted: boolean | undefined
    session.permissionRequest?.(
      {} as WebContents,
      permission as Parameters<PermissionRequestHandler>[1],
      (answer) => (granted = answer),
      details as Parameters<PermissionRequestHandler>[3],
    )
    return granted
  }

  function check(session: { permissionCheck: PermissionCheckHandler | null }, permission: string, details: object) {
    return session.permissionCheck?.(
      null,
      permission as Parameters<PermissionCheckHandler>[1],
      'file:///',
      details as Parameters<PermissionCheckHandler>[3],
    )
  }

  it('denies what the app does not use, even to our own page', () => {
    const { session } = openWindow()
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'usb', 'hid']) {
      expect(request(session, permission, fromOurPage), permission).toBe(false)
      expect(check(session, permission, fromOurPage), permission).toBe(false)
    }
  })

  it('lets only our own page write to the clipboard', () => {
    const { session } = openWindow()
    expect(request(session, 'clipboard-sanitized-write', fromOurPage)).toBe(true)
    expect(check(session, 'clipboard-sanitized-write', fromOurPage)).toBe(true)
    expect(request(session, 'clipboard-sanitized-write', fromElsewhere)).toBe(false)
    expect(check(session, 'clipboard-sanitized-write', fromElsewhere)).toBe(false)
    expect(check(session, 'clipboard-sanitized-write', { isMainFrame: true })).toBe(false)
  })
})

describe('content security policy header', () => {
  function respond(session: { headersReceived: HeadersListener | null }, details: object) {
    let response: Parameters<Parameters<HeadersListener>[1]>[0] | undefined
    session.headersReceived?.(details as Parameters<HeadersListener>[0], (answer) => (response = answer))
    return response
  }

  it("puts the renderer's policy on every document the window loads", () => {
    const { session } = openWindow()
    for (const resourceType of ['mainFrame', 'subFrame']) {
      const response = respond(session, {
        url: 'http://localhost:5173/',
        resourceType,
        responseHeaders: { 'content-type': ['text/html'] },
      })
      expect(response?.responseHeaders).toEqual({
        'content-type': ['text/html'],
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      })
    }
  })

  it('replaces a policy the response brought, whatever its spelling', () => {
    const { session } = openWindow()
    const response = respond(session, {
      url: 'http://localhost:5173/',
      resourceType: 'mainFrame',
      responseHeaders: { 'content-security-policy': ["script-src 'unsafe-inline'"] },
    })
    expect(response?.responseHeaders).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
  })

  it('leaves responses that are not documents alone (core uses the same session for HTTP)', () => {
    const { session } = openWindow()
    const response = respond(session, {
      url: 'http://127.0.0.1:4567/t/atom/weblog',
      resourceType: 'xhr',
      responseHeaders: { 'content-type': ['application/x.atom+xml'] },
    })
    expect(response).toEqual({})
  })

  it('is the policy the design asks for', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https: http:; " +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    )
  })
})

describe('the renderer page', () => {
  it('has the canvas colours the window starts with', async () => {
    const theme = await readFile(resolve(import.meta.dirname, '../../src-renderer/src/ui/theme.css'), 'utf8')
    const [light, dark] = [...theme.matchAll(/--canvas:\s*(#[0-9a-f]{3,8})\b/gi)].map((match) => match[1]?.toLowerCase())
    expect({ light, dark }).toEqual(canvasColors)
  })

  it('declares the same policy in its meta tag as the header, less what only a header can carry', async () => {
    const html = await readFile(resolve(import.meta.dirname, '../../src-renderer/index.html'), 'utf8')
    const meta = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i)
    const directives = (policy: string) =>
      policy
        .split(';')
        .map((directive) => directive.trim().replace(/\s+/g, ' '))
        .filter(Boolean)
    // Chromium ignores frame-ancestors in a meta tag, so the header is where it takes effect.
    const headerOnly = (directive: string) => directive.startsWith('frame-ancestors ')
    expect(directives(CONTENT_SECURITY_POLICY)).toContain("frame-ancestors 'none'")
    expect(directives(meta?.[1] ?? '')).toEqual(directives(CONTENT_SECURITY_POLICY).filter((d) => !headerOnly(d)))
  })
})
