// The app's lifecycle, with Electron faked and the real core on a temp dir: what a person sees when Blogdesk starts,
// is started twice, fails to start, and quits — and the built-in sandbox, the real service in a child process
// standing in for Electron's utility process.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { channels, type AccountSummary, type Envelope } from '../src-shared/contract'
import { startServiceProcess } from '../src-service/testing/service-process'

/** ipcMain.handle's listener, as far as this test plays the renderer. */
type InvokeHandler = (event: object, request: unknown) => Promise<Envelope<unknown>> | Envelope<unknown>

/** A menu item as this test reads the application menu's template (index.ts alone may name Electron's types). */
interface MenuItem {
  label?: string
  click?: () => void
  submenu?: MenuItem[] | object
}

const electron = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events')
  const { spawn } = await import('node:child_process')
  const { join: joinPath } = await import('node:path')
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
    static getFocusedWindow = (): FakeBrowserWindow | null => null
    readonly webContents = new FakeWebContents()
    readonly focus = vi.fn()
    readonly restore = vi.fn()
    readonly maximize = vi.fn()
    visible = false
    readonly show = vi.fn(() => {
      this.visible = true
      this.emit('show')
    })
    constructor(readonly options: object) {
      super()
      FakeBrowserWindow.created.push(this)
    }
    async loadFile(file: string) {
      this.webContents.mainFrame.url = toUrl(file).href
      // As in Electron, the page is ready some time after the window was made.
      setImmediate(() => this.emit('ready-to-show'))
    }
    getNormalBounds = () => ({ x: 10, y: 40, width: 1000, height: 700 })
    isMaximized = () => false
    isFullScreen = () => false
    isMinimized = () => false
    isDestroyed = () => false
    isVisible = () => this.visible
  }

  /** Blogdesk as `npm start` runs it: from the built sources, reading the repo's resources/. */
  class FakeApp extends EventEmitter {
    isPackaged = false
    hasLock = true
    quitting = false
    exitCode: number | null = null
    readonly paths = new Map<string, string>()
    #ready: () => void = () => undefined
    #whenReady = new Promise<void>((resolve) => (this.#ready = resolve))
    readonly requestSingleInstanceLock = vi.fn(() => this.hasLock)
    readonly enableSandbox = vi.fn()
    readonly setAppUserModelId = vi.fn()
    readonly setBadgeCount = vi.fn(() => true)
    readonly whenReady = vi.fn(() => this.#whenReady)
    getPath(name: string) {
      const path = this.paths.get(name)
      if (!path) throw new Error(`unexpected app.getPath('${name}')`)
      return path
    }
    readonly setPath = vi.fn((name: string, path: string) => this.paths.set(name, path))
    getAppPath = () => joinPath(import.meta.dirname, '..')
    /** Like Electron: `before-quit` first, and a listener may postpone the quit by preventing it; then windows close. */
    readonly quit = vi.fn(() => {
      let prevented = false
      this.emit('before-quit', { preventDefault: () => (prevented = true) })
      if (prevented) return
      for (const window of FakeBrowserWindow.created) window.emit('close', { preventDefault: () => undefined })
      this.quitting = true
    })
    readonly exit = vi.fn((code: number) => {
      this.exitCode = code
    })
    becomeReady() {
      this.#ready()
      return this.#whenReady
    }
  }

  /** utilityProcess.fork as a Node child process running the service from its sources. */
  const forks: { modulePath: string; args: string[]; exited: Promise<void> }[] = []
  function fork(modulePath: string, args: string[]) {
    const sources = joinPath(import.meta.dirname, '..', 'src-service', 'server.ts')
    const child = spawn(process.execPath, ['--import', 'tsx', sources, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const utility = Object.assign(new EventEmitter(), {
      stdout: child.stdout,
      stderr: child.stderr,
      kill: () => child.kill('SIGTERM'),
    })
    const exited = new Promise<void>((resolve) => child.on('exit', (code) => {
      utility.emit('exit', code ?? 1)
      resolve()
    }))
    forks.push({ modulePath, args, exited })
    return utility
  }

  const ipcHandlers = new Map<string, InvokeHandler>()
  const state = {
    app: new FakeApp(),
    keyring: 'gnome_libsecret',
    applicationMenu: null as MenuItem[] | null,
    messageBoxAnswer: { response: 0, checkboxChecked: false },
  }
  return {
    state,
    FakeApp,
    FakeBrowserWindow,
    ipcHandlers,
    forks,
    fork,
    ipcMain: {
      handle: (channel: string, handler: InvokeHandler) => ipcHandlers.set(channel, handler),
      removeHandler: (channel: string) => ipcHandlers.delete(channel),
    },
    showErrorBox: vi.fn((_title: string, _content: string) => undefined),
    showMessageBox: vi.fn(async (..._args: unknown[]) => state.messageBoxAnswer),
    powerMonitor: new EventEmitter(),
  }
})

vi.mock('electron', () => ({
  // Each test starts a fresh app: index.ts is loaded anew (resetModules) and reads this then.
  get app() {
    return electron.state.app
  },
  BrowserWindow: electron.FakeBrowserWindow,
  dialog: { showErrorBox: electron.showErrorBox, showMessageBox: electron.showMessageBox },
  ipcMain: electron.ipcMain,
  Menu: {
    buildFromTemplate: (template: MenuItem[]) => template,
    setApplicationMenu: (menu: MenuItem[]) => (electron.state.applicationMenu = menu),
  },
  nativeTheme: { shouldUseDarkColors: false },
  net: { fetch: (input: string | Request, init?: RequestInit) => globalThis.fetch(input, init), isOnline: () => true },
  Notification: { isSupported: () => false },
  powerMonitor: electron.powerMonitor,
  safeStorage: {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => electron.state.keyring,
    encryptString: (plain: string) => Buffer.from(plain, 'utf8').reverse(),
    decryptString: (sealed: Buffer) => Buffer.from(sealed).reverse().toString('utf8'),
  },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  shell: { openExternal: vi.fn(), openPath: vi.fn() },
  utilityProcess: { fork: electron.fork },
}))

let appData: string
/** Where Blogdesk keeps its data: appData/Blogdesk. */
let userData: string

beforeEach(() => {
  vi.resetModules()
  appData = mkdtempSync(join(tmpdir(), 'blogdesk-app-'))
  userData = join(appData, 'Blogdesk')
  electron.state.app = new electron.FakeApp()
  electron.state.app.paths.set('appData', appData)
  electron.state.app.paths.set('userData', join(appData, 'blogdesk'))
  electron.state.keyring = 'gnome_libsecret'
  electron.state.applicationMenu = null
  electron.state.messageBoxAnswer = { response: 0, checkboxChecked: false }
  electron.FakeBrowserWindow.created.length = 0
  electron.forks.length = 0
  electron.ipcHandlers.clear()
  electron.showErrorBox.mockClear()
  electron.showMessageBox.mockClear()
})

afterEach(async () => {
  // Let a test's app close its store, and its sandbox, before its folder goes.
  await quit()
  rmSync(appData, { recursive: true, force: true })
})

/** Loads the main process as Electron would, with the fake app of this test. */
async function launch(): Promise<void> {
  await import('.')
}

async function start(): Promise<void> {
  await launch()
  await electron.state.app.becomeReady()
  await vi.waitFor(() => expect(electron.FakeBrowserWindow.created).toHaveLength(1))
}

/** Quits, as the person would, and waits until the store is closed and the sandbox has stopped. */
async function quit(): Promise<void> {
  if (electron.ipcHandlers.size > 0) electron.state.app.quit()
  await vi.waitFor(() => expect(electron.ipcHandlers.size).toBe(0))
  await Promise.all(electron.forks.map((fork) => fork.exited))
}

/** Starts the same app again on the same data, as a person reopening Blogdesk would. */
async function restart(): Promise<void> {
  await quit()
  vi.resetModules()
  electron.state.app = Object.assign(new electron.FakeApp(), { paths: electron.state.app.paths })
  electron.FakeBrowserWindow.created.length = 0
  await start()
}

async function invokeFromWindow(channel: string, request: unknown): Promise<Envelope<unknown>> {
  const window = electron.FakeBrowserWindow.created[0]
  const handler = electron.ipcHandlers.get(channel)
  if (!window || !handler) throw new Error(`no window or no handler for ${channel}`)
  const event = { sender: window.webContents, senderFrame: window.webContents.mainFrame }
  return handler(event, request)
}

function menuItem(label: string): MenuItem {
  const items = (menu: MenuItem[]): MenuItem[] =>
    menu.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])])
  const item = items(electron.state.applicationMenu ?? []).find((candidate) => candidate.label === label)
  if (!item) throw new Error(`no menu item "${label}"`)
  return item
}

describe('starting', () => {
  it('sandboxes every renderer, in a data folder named after the product, before anything else', async () => {
    await launch()
    expect(electron.state.app.enableSandbox).toHaveBeenCalledOnce()
    expect(electron.state.app.setPath).toHaveBeenCalledWith('userData', userData)
  })

  it('opens one window on our page, answering every channel from the store in user data', async () => {
    await start()
    const [window] = electron.FakeBrowserWindow.created
    await vi.waitFor(() => expect(window?.show).toHaveBeenCalled())
    expect(window?.webContents.mainFrame.url).toMatch(/^file:.*\/renderer\/index\.html$/)
    expect([...electron.ipcHandlers.keys()].sort()).toEqual([...channels].sort())
    expect(await invokeFromWindow('accounts:list', null)).toEqual({ ok: true, value: [] })
    expect(existsSync(join(userData, 'blogdesk.sqlite'))).toBe(true)
  })

  it('tells the person and exits when the store cannot be opened', async () => {
    const notAFolder = join(appData, 'occupied')
    writeFileSync(notAFolder, '')
    electron.state.app.paths.set('appData', notAFolder)
    await launch()
    await electron.state.app.becomeReady()
    await vi.waitFor(() => expect(electron.state.app.exitCode).toBe(1))
    expect(electron.showErrorBox).toHaveBeenCalledWith('Blogdesk could not start', expect.stringContaining('will close now'))
    expect(electron.FakeBrowserWindow.created).toHaveLength(0)
  })

  it('says plainly when another Blogdesk holds the data', async () => {
    mkdirSync(userData, { recursive: true })
    // A live process that is not this one owns the store.
    writeFileSync(join(userData, 'blogdesk.sqlite.pid'), `${process.ppid}\n`)
    await launch()
    await electron.state.app.becomeReady()
    await vi.waitFor(() => expect(electron.state.app.exitCode).toBe(1))
    expect(electron.showErrorBox).toHaveBeenCalledWith(
      'Blogdesk is already open',
      expect.stringMatching(new RegExp(`Blogdesk is already running \\(process ${process.ppid}\\)[^]*will close now`)),
    )
  })
})

describe('a second Blogdesk', () => {
  it('quits at once when another one is running', async () => {
    electron.state.app.hasLock = false
    await launch()
    expect(electron.state.app.quitting).toBe(true)
    expect(electron.state.app.whenReady).not.toHaveBeenCalled()
  })

  it('brings the running window to the front instead of opening another', async () => {
    await start()
    electron.state.app.emit('second-instance')
    expect(electron.FakeBrowserWindow.created).toHaveLength(1)
    expect(electron.FakeBrowserWindow.created[0]?.focus).toHaveBeenCalled()
  })
})

describe('the menu', () => {
  it("sends the editor's commands to the window", async () => {
    await start()
    menuItem('Publish').click?.()
    expect(electron.FakeBrowserWindow.created[0]?.webContents.send).toHaveBeenCalledWith('app:command', 'publish')
  })
})

describe('the window', () => {
  it('opens where it was when Blogdesk last quit', async () => {
    await start()
    await restart()
    expect(JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8')).bounds).toEqual({
      x: 10,
      y: 40,
      width: 1000,
      height: 700,
    })
    expect(electron.FakeBrowserWindow.created[0]?.options).toMatchObject({ x: 10, y: 40, width: 1000, height: 700 })
  })
})

describe('without a keyring', () => {
  beforeEach(() => {
    electron.state.keyring = 'basic_text'
  })

  it.runIf(process.platform === 'linux')('warns that passwords are only obfuscated, until told not to', async () => {
    await start()
    await vi.waitFor(() => expect(electron.showMessageBox).toHaveBeenCalledOnce())
    expect(electron.showMessageBox.mock.calls[0]?.at(-1)).toMatchObject({
      type: 'warning',
      message: expect.stringContaining('can only obfuscate your passwords'),
      checkboxLabel: expect.any(String),
    })

    await restart()
    await vi.waitFor(() => expect(electron.showMessageBox).toHaveBeenCalledTimes(2))

    electron.state.messageBoxAnswer = { response: 0, checkboxChecked: true }
    await restart()
    await vi.waitFor(() => expect(electron.showMessageBox).toHaveBeenCalledTimes(3))
    await restart()
    await vi.waitFor(() => expect(electron.FakeBrowserWindow.created[0]?.show).toHaveBeenCalled())
    expect(electron.showMessageBox).toHaveBeenCalledTimes(3)
  })

  it('says nothing where the keyring works', async () => {
    electron.state.keyring = 'gnome_libsecret'
    await start()
    await vi.waitFor(() => expect(electron.FakeBrowserWindow.created[0]?.show).toHaveBeenCalled())
    expect(electron.showMessageBox).not.toHaveBeenCalled()
  })
})

describe('the built-in sandbox', () => {
  it('starts with Blogdesk again, on its port, while an account uses it — and stops when Blogdesk quits', async () => {
    // A sandbox that ran before in this data folder, and the account Blogdesk added for it.
    const earlier = await startServiceProcess(join(userData, 'sandbox'))
    await start()
    const added = await invokeFromWindow('accounts:add', {
      atomBase: earlier.sandbox.atomBase,
      username: earlier.sandbox.username,
      apiPassword: earlier.sandbox.apiPassword,
    })
    expect(added).toMatchObject({ ok: true })
    const account = (added as { value: AccountSummary }).value
    await earlier.stop()

    await restart()
    await vi.waitFor(() => expect(electron.forks).toHaveLength(1), { timeout: 10_000 })
    expect(electron.forks[0]?.modulePath).toMatch(/service\.js$/)
    expect(electron.forks[0]?.args).toEqual(expect.arrayContaining(['--port', String(earlier.port), '--demo']))
    await vi.waitFor(
      async () => expect(await invokeFromWindow('weblogs:list', { accountId: account.id, refresh: true })).toMatchObject({ ok: true }),
      { timeout: 20_000, interval: 200 },
    )

    await quit()
    await expect(fetch(`${earlier.sandbox.atomBase}/t/atom/weblog`)).rejects.toThrow()
  }, 60_000)

  it('stays off while no account uses it', async () => {
    await start()
    await invokeFromWindow('accounts:list', null)
    expect(electron.forks).toEqual([])
  })
})

describe('quitting', () => {
  it('closes the store before the app goes', async () => {
    await start()
    electron.state.app.quit()
    expect(electron.state.app.quitting).toBe(false)
    await vi.waitFor(() => expect(electron.state.app.quitting).toBe(true))
    expect(electron.ipcHandlers.size).toBe(0)
  })

  it.runIf(process.platform !== 'darwin')('follows the last window closed', async () => {
    await start()
    electron.state.app.emit('window-all-closed')
    await vi.waitFor(() => expect(electron.state.app.quitting).toBe(true))
  })
})
