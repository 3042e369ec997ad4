// What core asks of the desktop it runs on. Electron's answers live in src-main/platform/ (net.isOnline, the
// browser, a utilityProcess for the sandbox, a window for OAuth); tests give their own (core/testing/test-platform.ts).
import type { SandboxFile } from '../../src-protocol'

/** What core needs of the built-in sandbox's `sandbox.json`: all but the login password, which is for the sign-in page. */
export type SandboxDetails = Omit<SandboxFile, 'loginPassword'>

export interface Connectivity {
  /** Whether the computer has a network connection at all. A server may still be out of reach when it does. */
  isOnline(): boolean
  /** Calls `listener` when the connection comes or goes; returns the unsubscribe function. */
  onChange(listener: (online: boolean) => void): () => void
}

/** A page shown to the person outside the app's window, e.g. an OAuth authorize page. */
export interface ShownPage {
  close(): void
}

export interface Platform {
  connectivity: Connectivity
  /** Opens an http(s) URL in the person's browser. Core checks the scheme before it asks. */
  openExternal(url: string): Promise<void>
  /**
   * Shows the service's OAuth authorize page, where the person signs in and approves Blogdesk; the verifier comes
   * back on a loopback callback, after which core closes the page.
   */
  showAuthorizePage(url: string): Promise<ShownPage>
  /** Starts the built-in sandbox service (or finds it running) and reads its sandbox.json. */
  startSandbox(): Promise<SandboxDetails>
}
