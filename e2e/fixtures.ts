// Playwright fixtures: each test gets a fresh service (the built-in sandbox, with demo data), a fresh real core,
// and a page running the built renderer and preload, wired to that core exactly as Electron wires them.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base, type Page } from '@playwright/test'
import { FileVault, openCore, type Core } from '../src-main/core'
import { testCipher } from '../src-main/core/testing/core-fixture'
import { createTestPlatform, type TestPlatform } from '../src-main/core/testing/test-platform'
import { installBridge, type Bridge, type Shell } from './harness/bridge'
import { builtRendererDir } from './harness/paths'
import { startServiceProcess, type ServiceProcess } from '../src-service/testing/service-process'
import { serveDirectory, type StaticServer } from './harness/static-server'
import { AppModel } from './models/app'

interface TestFixtures {
  /** A temp dir for this test, removed afterwards. */
  workDir: string
  service: ServiceProcess
  /** The app's data dir: the local store and the vault file. */
  appDataDir: string
  /** Connectivity the test switches, links the app opened, the built-in sandbox it started. */
  platform: TestPlatform
  core: Core
  /** What the window talks to: by default `core`, in this process; a journey may put core on its own thread instead. */
  shell: Shell
  app: AppModel
  /**
   * Quits and reopens Blogdesk: closes the window and the core, then opens a new core on the same data dir and a new
   * window on it. What it opens is closed after the test.
   */
  reopen: () => Promise<ReopenedApp>
}

export interface ReopenedApp {
  core: Core
  page: Page
  bridge: Bridge
  /** Uncaught exceptions and console errors of the new window. */
  pageErrors: string[]
}

interface WorkerFixtures {
  renderer: StaticServer
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  renderer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await serveDirectory(builtRendererDir)
      await use(server)
      await server.close()
    },
    { scope: 'worker' },
  ],

  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  workDir: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'blogdesk-e2e-'))
    await use(dir)
    await rm(dir, { recursive: true, force: true })
  },

  service: async ({ workDir }, use, testInfo) => {
    const service = await startServiceProcess(join(workDir, 'service'))
    await use(service)
    await service.stop()
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('service output', { body: service.output(), contentType: 'text/plain' })
    }
  },

  appDataDir: async ({ workDir }, use) => {
    const dir = join(workDir, 'app')
    await mkdir(dir, { recursive: true })
    await use(dir)
  },

  platform: async ({ workDir }, use) => {
    const platform = createTestPlatform(workDir)
    await use(platform)
    await platform.dispose()
  },

  core: async ({ appDataDir, platform }, use) => {
    const core = await openTestCore(appDataDir, platform)
    await use(core)
    await core.close()
  },

  shell: async ({ core }, use) => {
    await use(core)
  },

  app: async ({ page, shell, renderer }, use) => {
    // Uncaught exceptions and console errors (a CSP violation among them) fail the test even when the UI looks fine.
    const pageErrors = collectPageErrors(page)
    const bridge = await installBridge(page, shell)
    await page.goto(renderer.url)
    await use(new AppModel(page))
    bridge.close()
    const problems = [...bridge.bugs, ...bridge.deliveryFailures, ...pageErrors]
    if (problems.length > 0) {
      throw new AggregateError(problems, `The core or the page reported ${problems.length} error(s) during the test.`)
    }
  },

  reopen: async ({ app, core, appDataDir, platform, context, renderer }, use) => {
    const opened: ReopenedApp[] = []
    await use(async () => {
      await app.page.close()
      await core.close()
      const reopened = await openTestCore(appDataDir, platform)
      const page = await context.newPage()
      const pageErrors = collectPageErrors(page)
      const bridge = await installBridge(page, reopened)
      opened.push({ core: reopened, page, bridge, pageErrors })
      await page.goto(renderer.url)
      return opened.at(-1)!
    })
    for (const { core: reopened, page, bridge } of opened) {
      bridge.close()
      await page.close()
      await reopened.close()
    }
  },
})

function openTestCore(appDataDir: string, platform: TestPlatform): Promise<Core> {
  return openCore({ dataDir: appDataDir, platform, vault: new FileVault(join(appDataDir, 'secrets.bin'), testCipher) })
}

/** Collects the page's uncaught exceptions and console errors as they happen. */
function collectPageErrors(page: Page): string[] {
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(`uncaught: ${error.message}`))
  page.on('console', (message) => {
    // The harness's init scripts are offered to every frame; the preview's sandbox refusing them is its defence working.
    if (/^Blocked script execution in 'about:(?:srcdoc|blank)' because the document's frame is sandboxed/.test(message.text())) return
    if (message.type() === 'error') pageErrors.push(`console: ${message.text()} (${message.location().url})`)
  })
  return pageErrors
}

export { expect } from '@playwright/test'
