// The one place that makes windows, so every window gets the same defences and the IPC layer can tell ours apart.
import { BrowserWindow, dialog, nativeTheme, type WebContents } from 'electron'
import type { Event, Events } from '../../src-shared/contract'
import { createWindow } from './browser-window'
import { attachContextMenu } from './context-menu'
import type { AppPage } from './page'
import { guardContents, guardSession } from './security'
import type { WindowStateFile } from './window-state'

/** The page's canvas colour in each scheme (src-renderer/src/ui/theme.css), so loading shows no flash of another. */
export const canvasColors = { light: '#fbfaf8', dark: '#1b1c1f' } as const

export interface AppWindowsOptions {
  /** Remembers where the window was; without it, every window opens at the default size, centred. */
  state?: WindowStateFile
  /** The window's icon where the system takes it from the window (Linux); elsewhere the app bundle's icon shows. */
  icon?: string
}

export class AppWindows {
  readonly page: AppPage
  readonly #open = new Set<BrowserWindow>()
  readonly #options: AppWindowsOptions

  constructor(page: AppPage, options: AppWindowsOptions = {}) {
    this.page = page
    this.#options = options
  }

  open(): BrowserWindow {
    const saved = this.#options.state?.restore() ?? null
    const window = createWindow(
      {
        ...(saved?.bounds ?? { width: 1200, height: 800 }),
        // Only to restore full screen: an explicit `fullscreen: false` disables the full-screen button on macOS.
        ...(saved?.fullScreen ? { fullscreen: true } : {}),
        ...(this.#options.icon ? { icon: this.#options.icon } : {}),
        minWidth: 720,
        minHeight: 480,
        title: 'Blogdesk',
        backgroundColor: nativeTheme.shouldUseDarkColors ? canvasColors.dark : canvasColors.light,
      },
      { preload: this.page.preload, spellcheck: true },
    )
    this.#open.add(window)
    window.once('closed', () => this.#open.delete(window))
    window.once('ready-to-show', () => {
      if (saved?.maximized) window.maximize()
      window.show()
    })
    this.#options.state?.track(window)
    guardSession(window.webContents.session, this.page)
    guardContents(window.webContents, this.page)
    attachContextMenu(window.webContents)
    const loading = this.page.file ? window.loadFile(this.page.file) : window.loadURL(this.page.url)
    loading.catch((error: unknown) => this.#failedToLoad(window, error))
    return window
  }

  /** Brings our first window to the front; returns it, or null when none is open. */
  focus(): BrowserWindow | null {
    const [window] = this.#open
    if (!window) return null
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
    return window
  }

  /** Our window that has the keyboard focus, or null when the person is in another app (or none is open). */
  focused(): BrowserWindow | null {
    const focused = BrowserWindow.getFocusedWindow()
    return focused && this.#open.has(focused) ? focused : null
  }

  /** Every window we opened that is still open. */
  all(): BrowserWindow[] {
    return [...this.#open]
  }

  /**
   * Sends a contract event to the window the person is working in (the focused one, else the first), if it shows
   * our page and no other window has the focus; returns whether it was sent.
   */
  sendToFront<E extends Event>(event: E, payload: Events[E]): boolean {
    const focused = BrowserWindow.getFocusedWindow()
    // Another of the app's windows (the sign-in page) has the focus: the command is not for our page.
    if (focused && !this.#open.has(focused)) return false
    const [first] = this.#open
    const window = focused ?? first
    if (!window || window.isDestroyed() || !this.page.owns(window.webContents.mainFrame.url)) return false
    window.webContents.send(event, payload)
    return true
  }

  /** Sends a contract event to every window that shows our page; returns how many it went to. */
  sendToAll<E extends Event>(event: E, payload: Events[E]): number {
    const showingOurPage = this.webContents().filter((contents) => !contents.isDestroyed() && this.page.owns(contents.mainFrame.url))
    for (const contents of showingOurPage) contents.send(event, payload)
    return showingOurPage.length
  }

  /** The web contents of every window we opened that is still open: the only ones IPC will answer. */
  webContents(): WebContents[] {
    return [...this.#open].map((window) => window.webContents)
  }

  ownsUrl(url: string): boolean {
    return this.page.owns(url)
  }

  // A window that never loads would never show: say so instead of leaving an invisible window behind.
  #failedToLoad(window: BrowserWindow, error: unknown): void {
    if (window.isDestroyed()) return
    const reason = error instanceof Error ? error.message : String(error)
    dialog.showErrorBox(
      'Blogdesk could not show its window',
      `Loading ${this.page.url} failed (${reason}). Reinstalling Blogdesk should fix this; if not, please report it.`,
    )
    window.destroy()
  }
}
