// Where Blogdesk's own page lives. Every trust decision in the main process (navigation, permissions, IPC senders)
// asks this one question: is that URL our page?
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app } from 'electron'

export interface AppPage {
  /** The built preload, which gives the page window.blog. It is CommonJS: a sandboxed window loads nothing else. */
  readonly preload: string
  /** The built index.html in production, or null when the page comes from the dev server. */
  readonly file: string | null
  /** The URL the window loads. */
  readonly url: string
  /** Whether `url` shows our page (its query and fragment may differ; a reload or in-app route stays ours). */
  owns(url: string): boolean
}

export interface AppPageOptions {
  /** Folder of the built main file (out/main); the preload and the renderer are built beside it. */
  mainDir?: string
  /** `electron-vite dev` serves the renderer and names its URL here; a packaged app never trusts it. */
  devServerUrl?: string | null
  isPackaged?: boolean
}

export function appPage(options: AppPageOptions = {}): AppPage {
  const {
    mainDir = import.meta.dirname,
    devServerUrl = process.env['ELECTRON_RENDERER_URL'],
    isPackaged = app.isPackaged,
  } = options
  const preload = resolve(mainDir, '../preload/index.cjs')
  if (!isPackaged && devServerUrl) return devServerPage(devServerUrl, preload)
  const file = resolve(mainDir, '../renderer/index.html')
  const page = pathToFileURL(file)
  return {
    preload,
    file,
    url: page.href,
    owns: (url) => {
      const candidate = parse(url)
      return candidate?.protocol === 'file:' && candidate.host === page.host && candidate.pathname === page.pathname
    },
  }
}

function devServerPage(devServerUrl: string, preload: string): AppPage {
  const server = parse(devServerUrl)
  if (server?.protocol !== 'http:' && server?.protocol !== 'https:') {
    throw new Error(`ELECTRON_RENDERER_URL must be the dev server's http(s) address, not "${devServerUrl}".`)
  }
  return {
    preload,
    file: null,
    url: server.href,
    owns: (url) => parse(url)?.origin === server.origin,
  }
}

function parse(url: string): URL | null {
  return URL.canParse(url) ? new URL(url) : null
}
