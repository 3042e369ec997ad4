// The platform for tests and the e2e harness: connectivity a test switches, links and authorize pages recorded for
// the test to follow, and a built-in sandbox that is the real service in a child process (as the app's
// utilityProcess is).
import { join } from 'node:path'
import { startServiceProcess, type ServiceProcess } from '../../../src-service/testing/service-process'
import type { Platform, SandboxDetails, ShownPage } from '../platform'

export interface TestPlatform extends Platform {
  /** Says the computer went offline or came back, as Electron's connectivity events do. */
  setOnline(online: boolean): void
  /** Every URL core asked the browser to open, in order. */
  readonly openedLinks: readonly string[]
  /**
   * What happens when core shows an authorize page: the test signs in on it (e.g. in a second browser page).
   * Without a handler the page is recorded and left for the person who never comes, so sign-in times out.
   */
  onAuthorizePage(handler: (url: string) => void | Promise<void>): void
  readonly authorizePages: readonly { url: string; closed: boolean }[]
  /** The sandbox started by startSandbox, if any; stopped by dispose. */
  readonly sandbox: ServiceProcess | null
  dispose(): Promise<void>
}

/** `workDir`: where the sandbox service keeps its data (`<workDir>/sandbox`), as the app keeps it under userData. */
export function createTestPlatform(workDir: string): TestPlatform {
  let online = true
  const connectivityListeners = new Set<(online: boolean) => void>()
  const openedLinks: string[] = []
  const authorizePages: { url: string; closed: boolean }[] = []
  let authorizeHandler: ((url: string) => void | Promise<void>) | null = null
  let sandbox: ServiceProcess | null = null
  let starting: Promise<ServiceProcess> | null = null

  return {
    connectivity: {
      isOnline: () => online,
      onChange(listener) {
        connectivityListeners.add(listener)
        return () => connectivityListeners.delete(listener)
      },
    },
    setOnline(next) {
      if (next === online) return
      online = next
      for (const listener of connectivityListeners) listener(online)
    },
    openedLinks,
    async openExternal(url) {
      openedLinks.push(url)
    },
    authorizePages,
    onAuthorizePage(handler) {
      authorizeHandler = handler
    },
    async showAuthorizePage(url): Promise<ShownPage> {
      const shown = { url, closed: false }
      authorizePages.push(shown)
      if (authorizeHandler) void Promise.resolve(authorizeHandler(url)).catch(() => undefined)
      return { close: () => void (shown.closed = true) }
    },
    get sandbox() {
      return sandbox
    },
    async startSandbox(): Promise<SandboxDetails> {
      starting ??= startServiceProcess(join(workDir, 'sandbox')).then((started) => (sandbox = started))
      const { sandbox: details } = await starting
      return details
    },
    async dispose() {
      await sandbox?.stop()
    },
  }
}
