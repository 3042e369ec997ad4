// The one `electron` of the shell's tests: `vi.mock('electron', () => import('…/testing/fake-electron'))`. It behaves
// as Electron 45 is documented to, not as the code hopes: where the two differ, the line of the documentation (or the
// Electron source or issue) it follows is quoted above it. Tests steer and read it through `fake`.
import { spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import type {
  BrowserWindowConstructorOptions,
  IpcMainInvokeEvent,
  MenuItemConstructorOptions,
  Rectangle,
  Session,
  WebContents,
} from 'electron'
import { vi } from 'vitest'
import { READY_SIGNAL } from './utility-process-signal'

type PermissionRequestHandler = NonNullable<Parameters<Session['setPermissionRequestHandler']>[0]>
type PermissionCheckHandler = NonNullable<Parameters<Session['setPermissionCheckHandler']>[0]>
type HeadersListener = NonNullable<Parameters<Session['webRequest']['onHeadersReceived']>[0]>
type WindowOpenHandler = Parameters<WebContents['setWindowOpenHandler']>[0]
type InvokeHandler = (event: IpcMainInvokeEvent, request: unknown) => unknown

function preventable<T extends object>(fields: T = {} as T) {
  const event = { ...fields, defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) }
  return event
}

// ---------------------------------------------------------------------------------------------------------- app

class FakeApp extends EventEmitter {
  isPackaged = false
  /** What requestSingleInstanceLock answers: false when another instance holds it. */
  hasLock = true
  ready = false
  /** Every window closed after before-quit went unprevented: the app is gone. */
  quitting = false
  exitCode: number | null = null
  readonly paths = new Map<string, string>()
  #becomeReady: () => void = () => undefined
  #whenReady = this.#newReadyPromise()
  readonly requestSingleInstanceLock = vi.fn(() => this.hasLock)
  readonly enableSandbox = vi.fn()
  readonly setAppUserModelId = vi.fn()
  /**
   * app.md, setBadgeCount: "Returns `boolean` - Whether the call succeeded." … "On macOS, you need to ensure that your
   * application has the permission to display notifications for this method to work."
   */
  readonly setBadgeCount = vi.fn((_count?: number) => fake.platform !== 'darwin' || fake.notificationsPermitted)
  readonly whenReady = vi.fn(() => this.#whenReady)
  readonly setPath = vi.fn((name: string, path: string) => void this.paths.set(name, path))
  readonly getAppPath = vi.fn(() => join(import.meta.dirname, '..', '..', '..'))
  /**
   * app.md, Event 'before-quit': "Emitted before the application starts closing its windows. Calling
   * `event.preventDefault()` will prevent the default behavior, which is terminating the application."
   */
  readonly quit = vi.fn(() => {
    const event = preventable()
    this.emit('before-quit', event)
    if (event.defaultPrevented) return
    for (const window of FakeBrowserWindow.getAllWindows()) {
      window.close()
      if (!window.isDestroyed()) return // a window refused to close: the quit is cancelled
    }
    this.emit('will-quit', preventable())
    this.quitting = true
  })
  readonly exit = vi.fn((code = 0) => {
    this.exitCode = code
  })

  getPath(name: string): string {
    const path = this.paths.get(name)
    if (!path) throw new Error(`Failed to get '${name}' path`)
    return path
  }

  isReady(): boolean {
    return this.ready
  }

  /** What Electron does once Chromium is up: `ready`, and whenReady resolves. */
  becomeReady(): Promise<void> {
    this.ready = true
    this.emit('ready')
    this.#becomeReady()
    return this.#whenReady
  }

  reset(): void {
    this.removeAllListeners()
    Object.assign(this, { isPackaged: false, hasLock: true, ready: false, quitting: false, exitCode: null })
    this.paths.clear()
    this.#whenReady = this.#newReadyPromise()
    for (const spy of [this.requestSingleInstanceLock, this.enableSandbox, this.setAppUserModelId, this.setBadgeCount]) spy.mockReset()
    for (const spy of [this.whenReady, this.setPath, this.getAppPath, this.quit, this.exit]) spy.mockReset()
  }

  #newReadyPromise(): Promise<void> {
    return new Promise((resolve) => (this.#becomeReady = resolve))
  }
}

// ------------------------------------------------------------------------------------------- windows and sessions

class FakeSession extends EventEmitter {
  permissionRequest: PermissionRequestHandler | null = null
  permissionCheck: PermissionCheckHandler | null = null
  headersReceived: HeadersListener | null = null
  readonly persistent: boolean
  constructor(partition: string) {
    super()
    this.persistent = partition === '' || partition.startsWith('persist:')
  }
  setPermissionRequestHandler(handler: PermissionRequestHandler | null) {
    this.permissionRequest = handler
  }
  setPermissionCheckHandler(handler: PermissionCheckHandler | null) {
    this.permissionCheck = handler
  }
  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener | null) => {
      this.headersReceived = listener
    },
  }
  /**
   * session.md: "Returns `boolean` - Whether the word was successfully written to the custom dictionary. This API
   * will not work on non-persistent (in-memory) sessions."
   */
  readonly addWordToSpellCheckerDictionary = vi.fn((_word: string) => this.persistent)
}

const sessions = new Map<string, FakeSession>()
function sessionOf(partition: string): FakeSession {
  let found = sessions.get(partition)
  if (!found) sessions.set(partition, (found = new FakeSession(partition)))
  return found
}

let frameIds = 0
class FakeWebContents extends EventEmitter {
  readonly session: FakeSession
  readonly mainFrame = { processId: 1, routingId: ++frameIds, url: '', detached: false }
  /** What the page does with a message from the main process: see `fake.page`. */
  readonly send = vi.fn((channel: string, payload?: unknown) => fake.page?.(this, channel, payload))
  readonly replaceMisspelling = vi.fn()
  openHandler: WindowOpenHandler | null = null
  destroyed = false
  constructor(partition: string) {
    super()
    this.session = sessionOf(partition)
  }
  setWindowOpenHandler(handler: WindowOpenHandler) {
    this.openHandler = handler
  }
  isDestroyed() {
    return this.destroyed
  }
}

class FakeBrowserWindow extends EventEmitter {
  static readonly created: FakeBrowserWindow[] = []
  static focused: FakeBrowserWindow | null = null
  /** How the next load ends; the page becomes ready to show when it succeeds, as in Electron. */
  static loadOutcome: () => Promise<void> = () => Promise.resolve()
  static getFocusedWindow(): FakeBrowserWindow | null {
    return FakeBrowserWindow.focused
  }
  static fromWebContents(contents: unknown): FakeBrowserWindow | null {
    return FakeBrowserWindow.created.find((window) => window.webContents === contents) ?? null
  }
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.created.filter((window) => !window.destroyed)
  }

  readonly webContents: FakeWebContents
  readonly show = vi.fn(() => {
    this.visible = true
    this.emit('show')
  })
  readonly focus = vi.fn()
  readonly restore = vi.fn()
  readonly maximize = vi.fn(() => void (this.maximized = true))
  readonly setMenu = vi.fn()
  readonly setOverlayIcon = vi.fn((_image: unknown, _description: string) => undefined)
  readonly loadFile = vi.fn((file: string) => this.#load(pathToFileURL(file).href))
  readonly loadURL = vi.fn((url: string) => this.#load(url))
  visible = false
  minimized = false
  maximized = false
  fullScreen: boolean
  destroyed = false
  /** Where the person has moved and sized the window, as getNormalBounds reports it. */
  normalBounds: Rectangle
  readonly #fullScreenable: boolean

  constructor(readonly options: BrowserWindowConstructorOptions) {
    super()
    FakeBrowserWindow.created.push(this)
    this.webContents = new FakeWebContents(options.webPreferences?.partition ?? '')
    const { x = 0, y = 0, width = 800, height = 600 } = options
    this.normalBounds = { x, y, width, height }
    /**
     * base-window-options.md: "`fullscreen` boolean (optional) - Whether the window should show in fullscreen. When
     * explicitly set to `false` the fullscreen button will be hidden or disabled on macOS."
     */
    this.#fullScreenable = options.fullscreenable !== false && !(fake.platform === 'darwin' && options.fullscreen === false)
    this.fullScreen = options.fullscreen === true
  }

  getNormalBounds() {
    return this.normalBounds
  }
  isMaximized() {
    return this.maximized
  }
  isMinimized() {
    return this.minimized
  }
  isVisible() {
    return this.visible
  }
  isFullScreen() {
    return this.fullScreen
  }
  isFullScreenable() {
    return this.#fullScreenable
  }
  /** The person clicks the full-screen button (or the menu item): nothing happens when it is disabled. */
  setFullScreen(flag: boolean) {
    if (this.#fullScreenable) this.fullScreen = flag
  }
  isDestroyed() {
    return this.destroyed
  }
  /** browser-window.md, Event 'close': "Emitted when the window is going to be closed." It may be prevented. */
  close() {
    if (this.destroyed) return
    const event = preventable()
    this.emit('close', event)
    if (!event.defaultPrevented) this.destroy()
  }
  destroy() {
    if (this.destroyed) return
    this.destroyed = true
    this.webContents.destroyed = true
    this.emit('closed')
  }

  async #load(url: string): Promise<void> {
    this.webContents.mainFrame.url = url
    await FakeBrowserWindow.loadOutcome()
    setImmediate(() => this.emit('ready-to-show'))
  }
}

// -------------------------------------------------------------------------------------------- notifications, menus

class FakeNotification extends EventEmitter {
  static readonly shown: FakeNotification[] = []
  static isSupported() {
    return fake.notificationsSupported
  }
  constructor(readonly options: { title: string; body: string }) {
    super()
  }
  /**
   * notification.md, Event 'failed' _macOS_ _Windows_: "Emitted when an error is encountered while creating and
   * showing the native notification." (An unsigned macOS build is refused the permission.)
   */
  show() {
    FakeNotification.shown.push(this)
    if (!fake.notificationsPermitted) setImmediate(() => this.emit('failed', preventable(), 'Notifications are not allowed'))
  }
}

class FakeMenu {
  constructor(readonly template: MenuItemConstructorOptions[]) {}
  popup(_options?: unknown) {
    fake.popups.push(this.template)
  }
}

// ------------------------------------------------------------------------------------------------------------ net

interface RequestOptions {
  method?: string
  url: string
  redirect?: 'follow' | 'error' | 'manual'
}

/** net.request, over node:http, with Electron's redirect handling (lib/common/api/net-client-request.ts). */
class FakeClientRequest extends EventEmitter {
  readonly #headers = new Map<string, string>()
  readonly #body: Buffer[] = []
  #url: string
  #method: string
  readonly #redirect: 'follow' | 'error' | 'manual'
  #aborted = false
  #following: (() => void) | undefined
  #current: ReturnType<typeof httpRequest> | null = null

  constructor(options: RequestOptions | string) {
    super()
    const { url, method = 'GET', redirect = 'follow' } = typeof options === 'string' ? { url: options } : options
    this.#url = url
    this.#method = method.toUpperCase()
    this.#redirect = redirect
  }

  setHeader(name: string, value: string) {
    this.#headers.set(name, value)
  }
  write(chunk: string | Uint8Array) {
    this.#body.push(Buffer.from(chunk))
    return true
  }
  end(chunk?: string | Uint8Array) {
    if (chunk !== undefined) this.write(chunk)
    this.#send()
    return this
  }
  abort() {
    if (this.#aborted) return
    this.#aborted = true
    this.#current?.destroy()
    this.emit('abort')
  }
  /** client-request.md: "Continues any pending redirection. Can only be called during a `'redirect'` event." */
  followRedirect() {
    if (!this.#following) throw new Error('followRedirect() called, but was not waiting for a redirect')
    this.#following()
  }

  #send(redirects = 0) {
    const body = this.#method === 'GET' || this.#method === 'HEAD' ? undefined : Buffer.concat(this.#body)
    const request = httpRequest(this.#url, { method: this.#method, headers: Object.fromEntries(this.#headers) }, (response) => {
      if (this.#aborted) return void response.destroy()
      const location = response.headers.location
      if (!location || !isRedirect(response.statusCode)) return void this.emit('response', response)
      response.resume()
      if (redirects >= 20) return this.#die(new Error('net::ERR_TOO_MANY_REDIRECTS'))
      this.#redirected(response, new URL(location, this.#url).href, redirects)
    })
    this.#current = request
    request.on('error', (error) => {
      if (!this.#aborted) this.#die(new Error(`net::ERR_CONNECTION_REFUSED (${error.message})`))
    })
    request.end(body)
  }

  #redirected(response: IncomingMessage, newUrl: string, redirects: number) {
    const status = response.statusCode!
    const newMethod = status === 303 || ((status === 301 || status === 302) && this.#method === 'POST') ? 'GET' : this.#method
    const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, [value ?? ''].flat()]))
    let followed = this.#redirect === 'follow'
    this.#following = () => void (followed = true)
    try {
      if (this.#redirect === 'error') return this.#die(new Error("Attempted to redirect, but redirect policy was 'error'"))
      this.emit('redirect', status, newMethod, newUrl, headers)
    } finally {
      this.#following = undefined
    }
    if (this.#aborted) return
    /**
     * client-request.md, `redirect`: "When mode is `manual` the redirection will be cancelled unless
     * `request.followRedirect` is invoked synchronously during the `redirect` event."
     */
    if (!followed) return this.#die(new Error('Redirect was cancelled'))
    this.#url = newUrl
    this.#method = newMethod
    this.#send(redirects + 1)
  }

  #die(error: Error) {
    this.#aborted = true
    this.emit('error', error)
  }
}

function isRedirect(status: number | undefined): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308
}

/** net.fetch as Electron builds it on net.request (lib/browser/api/net-fetch.ts). */
async function netFetch(input: string | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init)
  request.signal.throwIfAborted()
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
  return new Promise((resolve, reject) => {
    const client = new FakeClientRequest({ method: request.method, url: request.url, redirect: request.redirect })
    request.signal.addEventListener('abort', () => {
      reject(request.signal.reason)
      client.abort()
    })
    for (const [name, value] of request.headers) client.setHeader(name, value)
    client.on('response', (response: IncomingMessage) => {
      const headers = new Headers()
      for (const [name, value] of Object.entries(response.headers)) headers.set(name, [value ?? ''].flat().join(', '))
      const empty = [101, 204, 205, 304].includes(response.statusCode!) || request.method === 'HEAD'
      /**
       * net.md, net.fetch, Limitations: "The `.type` and `.url` values of the returned `Response` object are
       * incorrect." A Response made here has the empty url.
       */
      resolve(
        new Response(empty ? null : (Readable.toWeb(response) as ReadableStream), {
          status: response.statusCode,
          statusText: response.statusMessage,
          headers,
        }),
      )
    })
    client.on('error', reject)
    client.end(body)
  })
}

// ------------------------------------------------------------------------------------------------- safeStorage

const SEALED = Buffer.from('v11')
const xor = (bytes: Uint8Array) => Buffer.from(bytes.map((byte) => byte ^ 0x5a))

const safeStorage = {
  /**
   * safe-storage.md: "On Linux, returns true if the app has emitted the `ready` event and the secret key is
   * available." With no keyring (`basic_text`) there is no key until setUsePlainTextEncryption(true).
   */
  isEncryptionAvailable(): boolean {
    if (!app.ready || fake.keychainLocked) return false
    return fake.keyring !== 'basic_text' || fake.plainTextEncryption
  },
  /**
   * safe-storage.md: "This function on Linux will force the module to use an in memory password for creating
   * symmetric key that is used for encrypt/decrypt functions when a valid OS password manager cannot be determined
   * for the current active desktop environment. This function is a no-op on Windows and MacOS."
   */
  setUsePlainTextEncryption: vi.fn((usePlainText: boolean) => {
    if (fake.platform === 'linux') fake.plainTextEncryption = usePlainText
  }),
  /** safe-storage.md: "`unknown` - When the function is called before app has emitted the `ready` event." */
  getSelectedStorageBackend(): string {
    return app.ready ? fake.keyring : 'unknown'
  },
  encryptString(plain: string): Buffer {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.')
    }
    return Buffer.concat([SEALED, xor(Buffer.from(plain, 'utf8'))])
  },
  decryptString(sealed: Buffer): string {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.')
    }
    if (!sealed.subarray(0, SEALED.length).equals(SEALED)) {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
    }
    return xor(sealed.subarray(SEALED.length)).toString('utf8')
  },
}

// ---------------------------------------------------------------------------------------------- utilityProcess

export interface Fork {
  modulePath: string
  args: string[]
  options: Record<string, unknown>
  pid: number
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number>
  /** What the process was sent with postMessage. */
  messages: unknown[]
}

const utilityPreload = pathToFileURL(join(import.meta.dirname, 'utility-process-preload.ts')).href

/** utilityProcess.fork as a Node child process that runs TypeScript, with Electron's events, streams and kill. */
function forkUtility(modulePath: string, args: string[] = [], options: Record<string, unknown> = {}) {
  const source = fake.utilitySources.get(modulePath) ?? modulePath
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', utilityPreload, source, ...args], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  const messages: unknown[] = []
  // Held until the child listens (see utility-process-preload.ts), as Electron queues them for the child.
  const unsent: unknown[] = []
  let listening = false
  const utility = Object.assign(new EventEmitter(), {
    stdout: child.stdout,
    stderr: child.stderr,
    get pid() {
      return child.exitCode === null && child.signalCode === null ? child.pid : undefined
    },
    /** utility-process.md, child.kill(): "Terminates the process gracefully. On POSIX, it uses SIGTERM". */
    kill: () => child.kill('SIGTERM'),
    postMessage: (message: unknown) => {
      messages.push(message)
      if (listening) child.send(message as object)
      else unsent.push(message)
    },
  })
  child.on('message', (message) => {
    if (message !== READY_SIGNAL) return void utility.emit('message', message)
    listening = true
    for (const message of unsent.splice(0)) child.send(message as object)
  })
  const exited = new Promise<number>((resolve) =>
    child.on('exit', (code) => {
      utility.emit('exit', code ?? 1)
      resolve(code ?? 1)
    }),
  )
  fake.forks.push({ modulePath, args, options, pid: child.pid!, exited, messages })
  return utility
}

// ----------------------------------------------------------------------------------------------------- exports

export const app = new FakeApp()
export const BrowserWindow = FakeBrowserWindow
export const Notification = FakeNotification
export const ipcMain = {
  handle: vi.fn((channel: string, handler: InvokeHandler) => {
    if (fake.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    fake.ipcHandlers.set(channel, handler)
  }),
  removeHandler: vi.fn((channel: string) => void fake.ipcHandlers.delete(channel)),
}
export const dialog = {
  showErrorBox: vi.fn((_title: string, _content: string) => undefined),
  showMessageBox: vi.fn(async (..._args: unknown[]) => fake.messageBoxAnswer),
}
export const Menu = {
  buildFromTemplate: (template: MenuItemConstructorOptions[]) => new FakeMenu(template),
  setApplicationMenu: (menu: FakeMenu | null) => void (fake.applicationMenu = menu),
}
export const nativeTheme = { shouldUseDarkColors: false }
export const nativeImage = {
  createFromBitmap: vi.fn((pixels: Buffer, size: { width: number; height: number; scaleFactor: number }) => ({ pixels, size })),
}
export const net = {
  fetch: vi.fn(netFetch),
  request: (options: RequestOptions | string) => new FakeClientRequest(options),
  isOnline: () => fake.online,
}
export const powerMonitor = new EventEmitter()
export const screen = { getAllDisplays: () => fake.displays.map((workArea) => ({ workArea })) }
export const session = { fromPartition: sessionOf, get defaultSession() { return sessionOf('') } }
export const shell = {
  openExternal: vi.fn((_url: string) => Promise.resolve()),
  openPath: vi.fn((_path: string) => Promise.resolve('')),
}
export const clipboard = { writeText: vi.fn((_text: string) => undefined) }
export { safeStorage }
export const utilityProcess = { fork: forkUtility }

/** What a test steers and reads. `reset()` in a beforeEach puts everything back as a fresh start of the app. */
export const fake = {
  /** The system the app believes it runs on (windows, notifications, the badge). */
  platform: process.platform as NodeJS.Platform,
  keyring: 'gnome_libsecret',
  keychainLocked: false,
  plainTextEncryption: false,
  online: true,
  notificationsSupported: true,
  /** macOS lets an app show notifications (and badges) only once the person allowed it; unsigned builds never are. */
  notificationsPermitted: true,
  displays: [{ x: 0, y: 25, width: 1920, height: 1055 }] as Rectangle[],
  messageBoxAnswer: { response: 0, checkboxChecked: false },
  applicationMenu: null as FakeMenu | null,
  popups: [] as MenuItemConstructorOptions[][],
  ipcHandlers: new Map<string, InvokeHandler>(),
  forks: [] as Fork[],
  /** The renderer's side, where a test plays it: called with each message webContents.send delivers. */
  page: null as ((contents: FakeWebContents, channel: string, payload: unknown) => void) | null,
  /** The sources a utility process runs for a built module path (the built service.js is not there in tests). */
  utilitySources: new Map<string, string>(),
  sessions,
  reset(): void {
    Object.assign(fake, {
      platform: process.platform,
      keyring: 'gnome_libsecret',
      keychainLocked: false,
      plainTextEncryption: false,
      online: true,
      notificationsSupported: true,
      notificationsPermitted: true,
      displays: [{ x: 0, y: 25, width: 1920, height: 1055 }],
      messageBoxAnswer: { response: 0, checkboxChecked: false },
      applicationMenu: null,
      page: null,
    })
    app.reset()
    fake.popups.length = 0
    fake.ipcHandlers.clear()
    fake.forks.length = 0
    fake.utilitySources.clear()
    sessions.clear()
    FakeBrowserWindow.created.length = 0
    FakeBrowserWindow.focused = null
    FakeBrowserWindow.loadOutcome = () => Promise.resolve()
    FakeNotification.shown.length = 0
    nativeTheme.shouldUseDarkColors = false
    powerMonitor.removeAllListeners()
    net.fetch.mockReset()
    for (const spy of [ipcMain.handle, ipcMain.removeHandler, dialog.showErrorBox, dialog.showMessageBox]) spy.mockReset()
    for (const spy of [shell.openExternal, shell.openPath, clipboard.writeText, nativeImage.createFromBitmap]) spy.mockReset()
    safeStorage.setUsePlainTextEncryption.mockReset()
  },
}
