// The one place that makes windows, so every window gets the same defences and the IPC layer can tell ours apart.
import { BrowserWindow, dialog, nativeTheme, type WebContents } from 'electron'
import type { AppPage } from './page'
import { guardContents, guardSession } from './security'

/** The page's canvas colour in each scheme (src-renderer/src/ui/theme.css), so loading shows no flash of another. */
export const canvasColors = { light: '#fbfaf8', dark: '#1b1c1f' } as const

export class AppWindows {
  readonly page: AppPage
  readonly #open = new Set<BrowserWindow>()

  constructor(page: AppPage) {
    this.page = page
  }

  open(): BrowserWindow {
    const window = new BrowserWindow({
      width: 1200,
      height: 800,
      minWidth: 720,
      minHeight: 480,
      title: 'Blogdesk',
      backgroundColor: nativeTheme.shouldUseDarkColors ? canvasColors.dark : canvasColors.light,
      show: false,
      webPreferences: {
        preload: this.page.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        navigateOnDragDrop: false,
        spellcheck: true,
      },
    })
    this.#open.add(window)
    window.once('closed', () => this.#open.delete(window))
    window.once('ready-to-show', () => window.show())
    guardSession(window.webContents.session, this.page)
    guardContents(window.webContents, this.page)
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
