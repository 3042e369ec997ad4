// The one way Blogdesk makes a BrowserWindow, so every window, the app's own and the sign-in page, has the same
// defences: a sandboxed renderer with context isolation, no Node, no webviews, no insecure content, no drag-and-drop
// navigation. What differs is passed in: size and title, and the page's preload, session and spell-checking.
import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron'

export interface WindowPage {
  /** Our page's preload; a stranger's page gets none. */
  preload?: string
  /** A session of its own; the app's default session otherwise. */
  partition?: string
  spellcheck: boolean
}

/** A window, hidden until its page is ready to show. */
export function createWindow(options: Omit<BrowserWindowConstructorOptions, 'webPreferences' | 'show'>, page: WindowPage): BrowserWindow {
  return new BrowserWindow({
    ...options,
    show: false,
    webPreferences: {
      ...page,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    },
  })
}
