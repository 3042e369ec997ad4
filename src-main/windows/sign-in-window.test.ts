import type { HandlerDetails, WebContents } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { OAUTH_CALLBACK_PATH } from '../core'
import { BrowserWindow, fake, shell } from '../platform/testing/fake-electron'
import { SIGN_IN_PARTITION, showSignInPage, signInMayVisit } from '.'

vi.mock('electron', () => import('../platform/testing/fake-electron'))

const authorizeUrl = 'http://127.0.0.1:4567/oauth/authorize?oauth_token=rt-1'
const service = 'http://127.0.0.1:4567'
const callback = `http://127.0.0.1:50123${OAUTH_CALLBACK_PATH}?oauth_token=rt-1&oauth_verifier=v-1`

beforeEach(() => {
  fake.reset()
})

function open(url = authorizeUrl) {
  const page = showSignInPage(url, null)
  const window = BrowserWindow.created.at(-1)!
  return { page, window, contents: window.webContents }
}

function navigate(contents: InstanceType<typeof BrowserWindow>['webContents'], name: string, url: string, extra = {}) {
  const event = { url, preventDefault: vi.fn(), ...extra }
  contents.emit(name, event)
  return event.preventDefault.mock.calls.length === 0
}

describe('the sign-in window', () => {
  it("shows the service's page with no preload, sandboxed, in a session of its own kept in memory", () => {
    const { window } = open()
    const preferences = window.options.webPreferences!
    expect(preferences.preload).toBeUndefined()
    expect(preferences).toMatchObject({
      partition: SIGN_IN_PARTITION,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
    expect(SIGN_IN_PARTITION.startsWith('persist:')).toBe(false)
    expect(window.loadURL).toHaveBeenCalledWith(authorizeUrl)
    window.emit('ready-to-show')
    expect(window.show).toHaveBeenCalled()
  })

  it('names the site in its title, and the page cannot change it', () => {
    const { window, contents } = open()
    expect(window.options.title).toBe('Sign in to 127.0.0.1:4567 — Blogdesk')
    const event = { preventDefault: vi.fn() }
    contents.emit('page-title-updated', event, 'Your bank')
    expect(event.preventDefault).toHaveBeenCalled()
  })

  it("moves about the service's own site and on to core's loopback callback", () => {
    const { contents } = open()
    for (const url of [`${service}/oauth/authorize`, `${service}/oauth/authorize?denied=rt-1`, callback]) {
      expect(navigate(contents, 'will-navigate', url), url).toBe(true)
      expect(navigate(contents, 'will-redirect', url), url).toBe(true)
    }
  })

  it('goes nowhere else', () => {
    const { contents } = open()
    for (const url of [
      'https://evil.example/login',
      'http://127.0.0.1:4568/oauth/authorize',
      'http://127.0.0.1:50123/somewhere-else',
      `https://127.0.0.1:50123${OAUTH_CALLBACK_PATH}`,
      `http://localhost:50123${OAUTH_CALLBACK_PATH}`,
      'file:///etc/passwd',
      'javascript:alert(1)',
    ]) {
      expect(navigate(contents, 'will-navigate', url), url).toBe(false)
      expect(navigate(contents, 'will-redirect', url), url).toBe(false)
    }
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it('loads no frame from elsewhere, attaches no webview, and opens no window (web links go to the browser)', () => {
    const { contents } = open()
    expect(navigate(contents, 'will-frame-navigate', 'https://evil.example/', { isMainFrame: false })).toBe(false)
    expect(navigate(contents, 'will-frame-navigate', `${service}/frame`, { isMainFrame: false })).toBe(true)
    expect(navigate(contents, 'will-attach-webview', 'https://evil.example/')).toBe(false)
    expect(contents.openHandler?.({ url: 'javascript:alert(1)' } as HandlerDetails)).toEqual({ action: 'deny' })
    expect(contents.openHandler?.({ url: 'https://example.com/help' } as HandlerDetails)).toEqual({ action: 'deny' })
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/help']])
  })

  it('grants no permission and downloads nothing', () => {
    open()
    const signInSession = fake.sessions.get(SIGN_IN_PARTITION)!
    let granted: boolean | undefined
    signInSession.permissionRequest?.({} as WebContents, 'notifications', (answer) => (granted = answer), {} as never)
    expect(granted).toBe(false)
    expect(signInSession.permissionCheck?.(null, 'notifications', '', {} as never)).toBe(false)
    const download = { preventDefault: vi.fn() }
    signInSession.emit('will-download', download)
    expect(download.preventDefault).toHaveBeenCalled()
  })

  it('is guarded once however many sign-ins it shows', () => {
    open()
    open()
    expect(fake.sessions.get(SIGN_IN_PARTITION)!.listenerCount('will-download')).toBe(1)
  })

  it('closes when core is done with it, once', () => {
    const { page, window } = open()
    page.close()
    expect(window.isDestroyed()).toBe(true)
    page.close()
  })

  it('refuses a page that is not on the web', () => {
    expect(() => showSignInPage('file:///tmp/authorize.html', null)).toThrow(/must be a web address/)
    expect(BrowserWindow.created).toEqual([])
  })

  it('tells where it may go', () => {
    expect(signInMayVisit(service, `${service}/anything`)).toBe(true)
    expect(signInMayVisit(service, callback)).toBe(true)
    expect(signInMayVisit(service, 'not a url')).toBe(false)
  })
})
