// The main process: app lifecycle only. What Blogdesk does lives in core; windows/, ipc/ and platform/ fit it to Electron.
import { join } from 'node:path'
import { app, type BrowserWindow } from 'electron'
import { FileVault, type Platform } from './core'
import { startCoreThread, type ShellCore } from './core-thread'
import { registerIpc } from './ipc'
import {
  APP_ID,
  appPaths,
  ImageProcess,
  netFetch,
  openExternal,
  safeStorageCipher,
  SandboxLauncher,
  useProductDataFolder,
  watchConnectivity,
} from './platform'
import {
  AppWindows,
  appPage,
  installAppMenu,
  SavesOnQuit,
  showSignInPage,
  showStartupError,
  signalOutbox,
  warnAboutWeakKeyring,
  WindowStateFile,
} from './windows'

useProductDataFolder()
// Every renderer sandboxed, whatever a window's own settings say.
app.enableSandbox()
// Windows ties notifications and taskbar buttons to the id of the installer's shortcut.
if (process.platform === 'win32') app.setAppUserModelId(APP_ID)

if (app.requestSingleInstanceLock()) {
  run()
} else {
  // Another Blogdesk is running and gets the focus (second-instance below); two would fight over one store.
  app.quit()
}

function run(): void {
  const paths = appPaths()
  const windows = new AppWindows(appPage(), {
    state: new WindowStateFile(paths.windowStateFile),
    icon: process.platform === 'linux' ? join(paths.resourcesDir, 'icon.png') : undefined,
  })
  const saves = new SavesOnQuit(windows)
  // electron.vite.config.ts builds the image helper and the service beside this file.
  const images = new ImageProcess(join(import.meta.dirname, 'image-worker.js'))
  const sandbox = new SandboxLauncher({
    serviceEntry: join(import.meta.dirname, 'service.js'),
    dataDir: paths.sandboxDir,
    resourcesDir: paths.resourcesDir,
  })
  const started = app.whenReady().then(async () => {
    const cipher = safeStorageCipher()
    const platform: Platform = {
      connectivity: watchConnectivity(),
      openExternal,
      showAuthorizePage: async (url) => showSignInPage(url, windows.focused()),
      startSandbox: () => sandbox.start(),
    }
    // Core, with the local store, runs on a thread of its own, so SQLite and the sync engine never hold up windows
    // and IPC here; this thread serves what only it can do (net, safeStorage, windows, utility processes).
    const core = await startCoreThread(join(import.meta.dirname, 'core-worker.js'), {
      dataDir: paths.dataDir,
      vault: new FileVault(paths.vaultFile, cipher),
      fetch: netFetch,
      images,
      platform,
    })
    const unregisterIpc = registerIpc(core, windows, saves.handlers)
    const stopSignals = signalOutbox(core, windows)
    installAppMenu({
      // On macOS the app runs on with no window: a command then opens one.
      onCommand: (command) => void (windows.all().length === 0 ? windows.open() : windows.sendToFront('app:command', command)),
      dataDir: paths.dataDir,
      isMac: process.platform === 'darwin',
      isPackaged: app.isPackaged,
    })
    const window = windows.open()
    if (cipher.weak) whenShown(window, () => warnAboutWeakKeyring(window, paths.noticesFile))
    void restartSandboxInUse(core, sandbox)
    const stop = () => {
      stopSignals()
      unregisterIpc()
    }
    return { core, stop }
  })
  started.catch((error: unknown) => {
    showStartupError(error)
    app.exit(1)
  })
  // Listened for at once, not once the store is open: a second start while this one is still opening is not lost,
  // and gets the window once there is one.
  const showWindow = () => void started.then(() => windows.focus() ?? windows.open(), () => undefined)
  app.on('second-instance', showWindow)
  app.on('activate', showWindow)

  // macOS apps stay running with no window until the person quits them.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Quitting waits for the windows to save what was typed, then for core to close the store, so nothing written is
  // lost, and then for the sandbox to close its own.
  let shuttingDown: Promise<void> | undefined
  let shutDown = false
  app.on('before-quit', (event) => {
    if (shutDown) return
    event.preventDefault()
    shuttingDown ??= started
      .then(async ({ core, stop }) => {
        await saves.collect()
        stop()
        return close(core)
      }, () => undefined) // a core that never opened has nothing to close
      .then(() => {
        images.stop()
        return sandbox.stop()
      })
      .finally(() => {
        shutDown = true
        app.quit()
      })
  })
}

/**
 * The demo account's addresses hold the sandbox's port, so while an account uses the sandbox, the sandbox starts
 * with the app (on that port again) and the account keeps working.
 */
async function restartSandboxInUse(core: ShellCore, sandbox: SandboxLauncher): Promise<void> {
  const previous = sandbox.previous()
  if (!previous) return
  try {
    const origin = new URL(previous.atomBase).origin
    const accounts = await core.handlers['accounts:list'](null)
    if (accounts.some((account) => URL.canParse(account.atomBase) && new URL(account.atomBase).origin === origin)) {
      await sandbox.start()
    }
  } catch (error) {
    console.error('Blogdesk could not start its built-in sandbox again:', error)
  }
}

function whenShown(window: BrowserWindow, then: () => Promise<void>): void {
  const run = () => {
    then().catch((error: unknown) => console.error('Blogdesk could not show a notice:', error))
  }
  if (window.isVisible()) run()
  else window.once('show', run)
}

async function close(core: ShellCore): Promise<void> {
  try {
    await core.close()
  } catch (error) {
    console.error('Blogdesk could not close its local store cleanly:', error)
  }
}
