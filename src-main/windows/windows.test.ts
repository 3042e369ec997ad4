import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type {
  ContextMenuParams,
  MenuItemConstructorOptions,
  Session,
  WebContents,
  WebPreferences,
} from 'electron'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { app, BrowserWindow as FakeBrowserWindow, clipboard, dialog, fake, nativeTheme, shell } from '../platform/testing/fake-electron'
import {
  AppWindows,
  CONTENT_SECURITY_POLICY,
  DEV_SERVER_CONTENT_SECURITY_POLICY,
  WindowStateFile,
  appPage,
  canvasColors,
  isReachable,
  showSignInPage,
  type AppPage,
} from '.'

type PermissionRequestHandler = NonNullable<Parameters<Session['setPermissionRequestHandler']>[0]>
type PermissionCheckHandler = NonNullable<Parameters<Session['setPermissionCheckHandler']>[0]>
type HeadersListener = NonNullable<Parameters<Session['webRequest']['onHeadersReceived']>[0]>

vi.mock('electron', () => import('../platform/testing/fake-electron'))

const mainDir = resolve('/opt/blogdesk/out/main')
const pageFile = resolve('/opt/blogdesk/out/renderer/index.html')
const pageUrl = pathToFileURL(pageFile).href
const productionPage = appPage({ mainDir, isPackaged: true })

beforeEach(() => {
  fake.reset()
  app.isPackaged = true
})

function openWindow(page: AppPage = productionPage) {
  const windows = new AppWindows(page)
  windows.open()
  const window = FakeBrowserWindow.created.at(-1)
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

  it('has the very defences of the sign-in window, which differs only in its page: no preload, its own session', () => {
    const preferences = openWindow().window.options.webPreferences
    showSignInPage('http://127.0.0.1:4567/oauth/authorize', null)
    const signIn = FakeBrowserWindow.created.at(-1)!.options.webPreferences
    const defences = ({ preload: _preload, partition: _partition, spellcheck: _spellcheck, ...rest }: WebPreferences) => rest
    expect(defences(signIn ?? {})).toEqual(defences(preferences ?? {}))
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
    nativeTheme.shouldUseDarkColors = true
    expect(openWindow().window.options.backgroundColor).toBe(canvasColors.dark)
  })

  it('tells the person when the page cannot be loaded, instead of leaving an invisible window', async () => {
    FakeBrowserWindow.loadOutcome = () => Promise.reject(new Error('ERR_FILE_NOT_FOUND (-6)'))
    const { windows, window } = openWindow()
    await vi.waitFor(() => expect(dialog.showErrorBox).toHaveBeenCalledOnce())
    expect(dialog.showErrorBox.mock.calls[0]?.[1]).toContain('ERR_FILE_NOT_FOUND')
    expect(window.isDestroyed()).toBe(true)
    expect(windows.webContents()).toEqual([])
  })

  it('brings an open window back to the front, restoring it when minimised', () => {
    const windows = new AppWindows(productionPage)
    expect(windows.focus()).toBeNull()
    windows.open()
    const window = FakeBrowserWindow.created[0]!
    window.minimized = true
    expect(windows.focus()).toBe(window)
    expect(window.restore).toHaveBeenCalledOnce()
    expect(window.focus).toHaveBeenCalledOnce()
  })

  it('lists the web contents of open windows only', () => {
    const windows = new AppWindows(productionPage)
    windows.open()
    windows.open()
    const [first, second] = FakeBrowserWindow.created
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

  it('stops a frame inside our page from going anywhere but our page or an inert document', () => {
    const { contents } = openWindow()
    const frameNavigation = (url: string) => {
      const event = { ...navigationEvent(url), isMainFrame: false }
      contents.emit('will-frame-navigate', event)
      return event.preventDefault.mock.calls.length === 0
    }
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'javascript:alert(1)']) expect(frameNavigation(url), url).toBe(false)
    for (const url of [pageUrl, 'about:blank', 'about:srcdoc']) expect(frameNavigation(url), url).toBe(true)
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
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/post/1'], ['http://example.org/']])
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
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it('reports, rather than throws, when the browser cannot be opened', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    shell.openExternal.mockImplementationOnce(() => Promise.reject(new Error('no browser')))
    const { contents } = openWindow()
    contents.openHandler?.(openRequest('https://example.com/'))
    await vi.waitFor(() => expect(error).toHaveBeenCalled())
    error.mockRestore()
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

  it('admits the dev server\'s inline preamble, styles and WebSocket only while the page comes from the dev server', async () => {
    const dev = openWindow(appPage({ mainDir, isPackaged: false, devServerUrl: 'http://localhost:5173' }))
    const response = respond(dev.session, { url: 'http://localhost:5173/', resourceType: 'mainFrame', responseHeaders: {} })
    expect(response?.responseHeaders).toEqual({ 'Content-Security-Policy': [DEV_SERVER_CONTENT_SECURITY_POLICY] })
    // The dev build relaxes the page's meta tag (electron.vite.config.ts) exactly as far: both policies apply.
    const config = (await import(resolve(import.meta.dirname, '../../electron.vite.config.ts'))) as {
      default: { renderer: { plugins: { name: string; transformIndexHtml?: (html: string) => string }[] } }
    }
    const relax = config.default.renderer.plugins.find((plugin) => plugin?.name === 'blogdesk-dev-server-csp')?.transformIndexHtml
    const html = await readFile(resolve(import.meta.dirname, '../../src-renderer/index.html'), 'utf8')
    const devMeta = metaPolicy(relax?.(html) ?? '')
    expect(devMeta).toEqual(directives(DEV_SERVER_CONTENT_SECURITY_POLICY).filter((directive) => !headerOnly(directive)))

    const production = openWindow()
    const strict = respond(production.session, { url: pageUrl, resourceType: 'mainFrame', responseHeaders: {} })
    expect(strict?.responseHeaders).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
  })

  it('is the policy the design asks for', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https: http:; " +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    )
  })
})

const directives = (policy: string) =>
  policy
    .split(';')
    .map((directive) => directive.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
// Chromium ignores frame-ancestors in a meta tag, so the header is where it takes effect.
const headerOnly = (directive: string) => directive.startsWith('frame-ancestors ')
const metaPolicy = (html: string) =>
  directives(html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i)?.[1] ?? '')

describe('the renderer page', () => {
  it('has the canvas colours the window starts with', async () => {
    const theme = await readFile(resolve(import.meta.dirname, '../../src-renderer/src/ui/theme.css'), 'utf8')
    const [light, dark] = [...theme.matchAll(/--canvas:\s*(#[0-9a-f]{3,8})\b/gi)].map((match) => match[1]?.toLowerCase())
    expect({ light, dark }).toEqual(canvasColors)
  })

  it('declares the same policy in its meta tag as the header, less what only a header can carry', async () => {
    const html = await readFile(resolve(import.meta.dirname, '../../src-renderer/index.html'), 'utf8')
    expect(directives(CONTENT_SECURITY_POLICY)).toContain("frame-ancestors 'none'")
    expect(metaPolicy(html)).toEqual(directives(CONTENT_SECURITY_POLICY).filter((d) => !headerOnly(d)))
  })
})

describe('the window remembers where it was', () => {
  let dir: string
  let stateFile: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-window-state-'))
    stateFile = join(dir, 'window-state.json')
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  function openRemembering() {
    const windows = new AppWindows(productionPage, { state: new WindowStateFile(stateFile) })
    windows.open()
    return FakeBrowserWindow.created.at(-1)!
  }

  it('opens at the default size, centred, the first time', () => {
    const window = openRemembering()
    expect(window.options).toMatchObject({ width: 1200, height: 800 })
    expect(window.options.x).toBeUndefined()
    expect(window.options.y).toBeUndefined()
  })

  it('opens where it was closed, at the same size', () => {
    const first = openRemembering()
    first.normalBounds = { x: 200, y: 120, width: 1000, height: 700 }
    first.emit('close')

    const next = openRemembering()
    expect(next.options).toMatchObject({ x: 200, y: 120, width: 1000, height: 700 })
    next.emit('ready-to-show')
    expect(next.maximize).not.toHaveBeenCalled()
    expect(next.show).toHaveBeenCalled()
  })

  it('can go full screen on macOS, and opens in full screen when it was closed in full screen', () => {
    fake.platform = 'darwin'
    const first = openRemembering()
    expect(first.isFullScreenable()).toBe(true)
    first.normalBounds = { x: 200, y: 120, width: 1000, height: 700 }
    first.setFullScreen(true)
    first.emit('close')

    const next = openRemembering()
    expect(next.isFullScreen()).toBe(true)
    next.setFullScreen(false)
    next.emit('close')
    expect(openRemembering().isFullScreenable()).toBe(true)
  })

  it('opens maximised when it was closed maximised, keeping the size to return to', () => {
    const first = openRemembering()
    first.normalBounds = { x: 40, y: 60, width: 900, height: 650 }
    first.maximized = true
    first.emit('close')

    const next = openRemembering()
    expect(next.options).toMatchObject({ x: 40, y: 60, width: 900, height: 650 })
    next.emit('ready-to-show')
    expect(next.maximize).toHaveBeenCalledOnce()
  })

  it('opens at the default place when its display is no longer connected', () => {
    const first = openRemembering()
    first.normalBounds = { x: 2300, y: 100, width: 1000, height: 700 }
    first.emit('close')
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).bounds).toEqual(first.normalBounds)

    const next = openRemembering()
    expect(next.options).toMatchObject({ width: 1200, height: 800 })
    expect(next.options.x).toBeUndefined()
  })

  it('ignores a damaged file', () => {
    writeFileSync(stateFile, '{"bounds": {"x": "left"}')
    expect(openRemembering().options).toMatchObject({ width: 1200, height: 800 })
  })

  it('counts a window as visible only when its title bar can be grabbed', () => {
    const displays = [
      { x: 0, y: 25, width: 1440, height: 875 },
      { x: 1440, y: 0, width: 1920, height: 1080 },
    ]
    const at = (x: number, y: number) => isReachable({ x, y, width: 800, height: 600 }, displays)
    expect(at(100, 100)).toBe(true)
    expect(at(1300, 100)).toBe(true) // straddles both displays
    expect(at(2000, 900)).toBe(true) // the second display, near its bottom
    expect(at(-750, 100)).toBe(false) // only 50 pixels on screen
    expect(at(100, 0)).toBe(false) // title bar under the menu bar
    expect(at(100, 880)).toBe(false) // title bar below the first display's work area
    expect(at(3400, 100)).toBe(false) // past the last display
  })
})

describe('the context menu', () => {
  function params(overrides: Partial<ContextMenuParams>): ContextMenuParams {
    return {
      misspelledWord: '',
      dictionarySuggestions: [],
      linkURL: '',
      selectionText: '',
      isEditable: false,
      editFlags: { canCut: false, canCopy: false, canPaste: false, canSelectAll: false },
      ...overrides,
    } as ContextMenuParams
  }

  function rightClick(overrides: Partial<ContextMenuParams>) {
    const { contents } = openWindow()
    contents.emit('context-menu', { preventDefault: vi.fn() }, params(overrides))
    return { contents, menu: fake.popups.at(-1) ?? null }
  }

  const labels = (menu: MenuItemConstructorOptions[] | null) =>
    (menu ?? []).map((item) => item.label ?? item.role ?? item.type)

  const click = (menu: MenuItemConstructorOptions[] | null, label: string) => {
    const item = menu?.find((candidate) => candidate.label === label)
    if (!item?.click) throw new Error(`no item "${label}" in ${labels(menu).join(', ')}`)
    ;(item.click as () => void)()
  }

  it('offers spelling suggestions that replace the misspelled word', () => {
    const { contents, menu } = rightClick({
      misspelledWord: 'publsh',
      dictionarySuggestions: ['publish', 'publishes'],
      isEditable: true,
      editFlags: { canCut: false, canCopy: false, canPaste: true, canSelectAll: true } as ContextMenuParams['editFlags'],
    })
    expect(labels(menu)).toEqual([
      'publish',
      'publishes',
      'separator',
      'Add to Dictionary',
      'separator',
      'cut',
      'copy',
      'paste',
      'separator',
      'selectAll',
    ])
    click(menu, 'publishes')
    expect(contents.replaceMisspelling).toHaveBeenCalledWith('publishes')
    expect(menu?.find((item) => item.role === 'cut')?.enabled).toBe(false)
    expect(menu?.find((item) => item.role === 'paste')?.enabled).toBe(true)
  })

  it('adds a word to the dictionary', () => {
    const { contents, menu } = rightClick({ misspelledWord: 'Blogdesk', isEditable: true })
    expect(labels(menu).slice(0, 3)).toEqual(['No Guesses Found', 'separator', 'Add to Dictionary'])
    expect(menu?.[0]?.enabled).toBe(false)
    click(menu, 'Add to Dictionary')
    expect(contents.session.addWordToSpellCheckerDictionary).toHaveBeenCalledWith('Blogdesk')
  })

  it('opens or copies a web link, and offers nothing for other links', () => {
    const { menu } = rightClick({ linkURL: 'https://example.com/post' })
    expect(labels(menu)).toEqual(['Open Link in Browser', 'Copy Link'])
    click(menu, 'Open Link in Browser')
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/post')
    click(menu, 'Copy Link')
    expect(clipboard.writeText).toHaveBeenCalledWith('https://example.com/post')

    fake.popups.length = 0
    rightClick({ linkURL: 'file:///etc/passwd' })
    expect(fake.popups).toEqual([])
  })

  it('copies selected text on the page', () => {
    const { menu } = rightClick({
      selectionText: 'a sentence',
      editFlags: { canCopy: true } as ContextMenuParams['editFlags'],
    })
    expect(labels(menu)).toEqual(['copy'])
  })

  it('shows no empty menu', () => {
    rightClick({})
    expect(fake.popups).toEqual([])
  })
})

describe('events for the window the person is working in', () => {
  it('go to the focused window', () => {
    const windows = new AppWindows(productionPage)
    windows.open()
    windows.open()
    const [, second] = FakeBrowserWindow.created
    FakeBrowserWindow.focused = second!
    expect(windows.focused()).toBe(second)
    expect(windows.sendToFront('app:command', 'save')).toBe(true)
    expect(second!.webContents.send).toHaveBeenCalledWith('app:command', 'save')
    expect(FakeBrowserWindow.created[0]!.webContents.send).not.toHaveBeenCalled()
  })

  it('go to the first window when the app is not focused', () => {
    const { windows, contents } = openWindow()
    expect(windows.sendToFront('app:command', 'new-post')).toBe(true)
    expect(contents.send).toHaveBeenCalledWith('app:command', 'new-post')
  })

  it('go nowhere while another window of the app has the focus, or to a page not ours', () => {
    const { windows, window, contents } = openWindow()
    FakeBrowserWindow.focused = new FakeBrowserWindow({})
    expect(windows.sendToFront('app:command', 'publish')).toBe(false)
    FakeBrowserWindow.focused = window
    contents.mainFrame.url = 'https://evil.example/'
    expect(windows.sendToFront('app:command', 'publish')).toBe(false)
    expect(contents.send).not.toHaveBeenCalled()
  })
})
