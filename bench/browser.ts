// The renderer benchmarks' bench: Debian's Chromium, launched as the e2e tests launch it, showing the built app
// wired to a real core on a temp data dir (seed the store before opening pages). `npm run build` must have run.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { build } from 'vite'
import { FileVault, openCore, type Core } from '../src-main/core'
import { testCipher } from '../src-main/core/testing/core-fixture'
import { createTestPlatform, type TestPlatform } from '../src-main/core/testing/test-platform'
import { installBridge } from '../e2e/harness/bridge'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/chromium'
import { builtRendererDir } from '../e2e/harness/paths'
import { serveDirectory, type StaticServer } from '../e2e/harness/static-server'

export interface BrowserBench {
  browser: Browser
  /** The built renderer, served over loopback. */
  renderer: StaticServer
  core: Core
  platform: TestPlatform
  dataDir: string
  /** A new page running the built app against `core`. */
  openApp(): Promise<Page>
  /** A blank page (no bridge), for bare references. */
  openBlank(): Promise<Page>
  close(): Promise<void>
}

export async function openBrowserBench(): Promise<BrowserBench> {
  const workDir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-browser-'))
  const dataDir = join(workDir, 'app')
  const platform = createTestPlatform(workDir)
  const core = await openCore({ dataDir, platform, vault: new FileVault(join(dataDir, 'secrets.bin'), testCipher) })
  const renderer = await serveDirectory(builtRendererDir)
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  const context = await browser.newContext({ viewport: { width: 1200, height: 760 } })
  const closers: (() => void)[] = []
  return {
    browser,
    renderer,
    core,
    platform,
    dataDir,
    async openApp() {
      const page = await context.newPage()
      const bridge = await installBridge(page, core)
      closers.push(() => bridge.close())
      await page.goto(renderer.url)
      return page
    },
    openBlank: () => context.newPage(),
    async close() {
      for (const close of closers) close()
      await browser.close()
      await renderer.close()
      await core.close()
      await platform.dispose()
      await rm(workDir, { recursive: true, force: true })
    },
  }
}

/** Builds a reference page of the benchmarks (a folder beside this file, with its index.html) into `outDir`. */
export async function buildReferencePage(folder: string, outDir: string): Promise<string> {
  await build({
    root: join(import.meta.dirname, folder),
    base: './',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, minify: true },
  })
  return outDir
}
