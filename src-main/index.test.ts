// The app's lifecycle, with Electron faked and the real core on a temp dir: what a person sees when Blogdesk starts,
// is started twice, fails to start, and quits.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { channels, type Envelope } from '../src-preload/contract'

/** ipcMain.handle's listener, as far as this test plays the renderer. */
type InvokeHandler = (event: object, request: unknown) => Promise<Envelope<unknown>> | Envelope<unknown>

const electron = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events')
  const { pathToFileURL: toUrl } = await import('node:url')

  let frameIds = 0
  class FakeWebContents extends EventEmitter {
    readonly mainFrame = { processId: 1, routingId: ++frameIds, url: '', detached: false }
    readonly session = {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    }
    readonly send = vi.fn()
    setWindowOpenHandler = vi.fn()
    isDestroyed = () => false
  }
  class FakeBrowserWindow extends EventEmitter {
    static readonly created: FakeBrowserWindow[] = []
    readonly webContents = new FakeWebContents()
    readonly focus = vi.fn()
    readonly show = vi.fn()
    readonly restore = vi.fn()
    constructor() {
      super()
      FakeBrowserWindow.created.push(this)
    }
    async loadFile(file: string) {
      this.webContents.mainFrame.url = toUrl(file).href
      this.emit('ready-to-show')
    }
    isMinimized = () => false
    isDestroyed = () => false
  }

  class FakeApp extends EventEmitter {
    isPackaged = true
    hasLock = true
    userData = ''
    quitting = false
    exitCode: number | null = null
    #ready: () => void = () => undefined
    #whenReady = new Promise<void>((resolve) => (this.#ready = resolve))
    readonly requestSingleInstanceLock = vi.fn(() => this.hasLock)
    readonly enableSandbox = vi.fn()
    readonly whenReady = vi.fn(() => this.#whenReady)
    readonly getPath = (name: string) => (name === 'userData' ? this.userData : `/unexpected/${name}`)
    /** Like Electron: `before-quit` first, and a listener may postpone the quit by preventing it. */
    readonly quit = vi.fn(() => {
      let prevented = false
      this.emit('before-quit', { preventDefault: () => (prevented = true) })
      if (!prevented) this.quitting = true
    })
    readonly exit = vi.fn((code: number) => {
      this.exitCode = code
    })
    becomeReady() {
      this.#ready()
      return this.#whenReady
    }
  }

  const ipcHandlers = new Map<string, InvokeHandler>()
  return {
    app: new FakeApp(),
    FakeApp,
    FakeBrowserWindow,
    ipcHandlers,
    ipcMain: {
      handle: (channel: string, handler: InvokeHandler) => ipcHandlers.set(channel, handler),
      removeHandler: (channel: string) => ipcHandlers.delete(channel),
    },
    showErrorBox: vi.fn((_title: string, _content: string) => undefined),
  }
})

vi.mock('electron', () => ({
  // Each test starts a fresh app: index.ts is loaded anew (resetModules) and reads this then.
  get app() {
    return electron.app
  },
  BrowserWindow: electron.FakeBrowserWindow,
  dialog: { showErrorBox: electron.showErrorBox },
  ipcMain: electron.ipcMain,
  nativeTheme: { shouldUseDarkColors: false },
  net: { fetch: (input: string | Request, init?: RequestInit) => globalThis.fetch(input, init) },
  safeStorage: {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (plain: string) => Buffer.from(plain, 'utf8').reverse(),
    decryptString: (sealed: Buffer) => Buffer.from(sealed).reverse().toString('utf8'),
  },
  shell: { openExternal: vi.fn() },
}))

let userData: string

beforeEach(() => {
  vi.resetModules()
  userData = mkdtempSync(join(tmpdir(), 'blogdesk-app-'))
  electron.app = Object.assign(new electron.FakeApp(), { userData })
  electron.FakeBrowserWindow.created.length = 0
  electron.ipcHandlers.clear()
  electron.showErrorBox.mockClear()
})

afterEach(async () => {
  // Let a test's app close its store before its folder goes.
  if (electron.ipcHandlers.size > 0) electron.app.quit()
  await vi.waitFor(() => expect(electron.ipcHandlers.size).toBe(0))
  rmSync(userData, { recursive: true, force: true })
})

/** Loads the main process as Electron would, with the fake app of this test. */
async function launch(): Promise<void> {
  await import('.')
}

async function start(): Promise<void> {
  await launch()
  await electron.app.becomeReady()
  await vi.waitFor(() => expect(electron.FakeBrowserWindow.created).toHaveLength(1))
}

function invokeFromWindow(channel: string, request: unknown) {
  const window = electron.FakeBrowserWindow.created[0]
  const handler = electron.ipcHandlers.get(channel)
  if (!window || !handler) throw new Error(`no window or no handler for ${channel}`)
  const event = { sender: window.webContents, senderFrame: window.webContents.mainFrame }
  return handler(event, request)
}

describe('starting', () => {
  it('sandboxes every renderer before anything else', async () => {
    await launch()
    expect(electron.app.enableSandbox).toHaveBeenCalledOnce()
  })

  it('opens one window on our page, answering every channel from the store in user data', async () => {
    await start()
    const [window] = electron.FakeBrowserWindow.created
    expect(window?.show).toHaveBeenCalled()
    expect(window?.webContents.mainFrame.url).toMatch(/^file:.*\/renderer\/index\.html$/)
    expect([...electron.ipcHandlers.keys()].sort()).toEqual([...channels].sort())
    expect(await invokeFromWindow('accounts:list', null)).toEqual({ ok: true, value: [] })
  })

  it('tells the person and exits when the store cannot be opened', async () => {
    const notAFolder = join(userData, 'occupied')
    writeFileSync(notAFolder, '')
    electron.app.userData = join(notAFolder, 'Blogdesk')
    await launch()
    await electron.app.becomeReady()
    await vi.waitFor(() => expect(electron.app.exitCode).toBe(1))
    expect(electron.showErrorBox).toHaveBeenCalledWith('Blogdesk could not start', expect.stringContaining('will close now'))
    expect(electron.FakeBrowserWindow.created).toHaveLength(0)
  })
})

describe('a second Blogdesk', () => {
  it('quits at once when another one is running', async () => {
    electron.app.hasLock = false
    await launch()
    expect(electron.app.quitting).toBe(true)
    expect(electron.app.whenReady).not.toHaveBeenCalled()
  })

  it('brings the running window to the front instead of opening another', async () => {
    await start()
    electron.app.emit('second-instance')
    expect(electron.FakeBrowserWindow.created).toHaveLength(1)
    expect(electron.FakeBrowserWindow.created[0]?.focus).toHaveBeenCalled()
  })
})

describe('quitting', () => {
  it('closes the store before the app goes', async () => {
    await start()
    electron.app.quit()
    expect(electron.app.quitting).toBe(false)
    await vi.waitFor(() => expect(electron.app.quitting).toBe(true))
    expect(electron.ipcHandlers.size).toBe(0)
  })

  it.runIf(process.platform !== 'darwin')('follows the last window closed', async () => {
    await start()
    electron.app.emit('window-all-closed')
    await vi.waitFor(() => expect(electron.app.quitting).toBe(true))
  })
})
