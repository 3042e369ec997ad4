// The main process: app lifecycle only. What Blogdesk does lives in core; windows/, ipc/ and platform/ fit it to Electron.
import { app, dialog } from 'electron'
import { FileVault, openCore, type Core } from './core'
import { registerIpc } from './ipc'
import { appPaths, netFetch, safeStorageCipher } from './platform'
import { AppWindows, appPage } from './windows'

// Every renderer sandboxed, whatever a window's own settings say.
app.enableSandbox()

if (app.requestSingleInstanceLock()) {
  run()
} else {
  // Another Blogdesk is running and gets the focus (second-instance below); two would fight over one store.
  app.quit()
}

function run(): void {
  const windows = new AppWindows(appPage())
  const started = app.whenReady().then(async () => {
    const paths = appPaths()
    const core = await openCore({
      dataDir: paths.dataDir,
      vault: new FileVault(paths.vaultFile, safeStorageCipher()),
      fetch: netFetch,
    })
    const unregisterIpc = registerIpc(core, windows)
    const showWindow = () => windows.focus() ?? windows.open()
    app.on('second-instance', showWindow)
    app.on('activate', showWindow)
    windows.open()
    return { core, unregisterIpc }
  })
  started.catch((error: unknown) => {
    dialog.showErrorBox(
      'Blogdesk could not start',
      `${describe(error)}\n\nBlogdesk will close now. If this keeps happening, please report it.`,
    )
    app.exit(1)
  })

  // macOS apps stay running with no window until the person quits them.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Quitting waits for core to close the store, so nothing written is lost.
  let shuttingDown: Promise<void> | undefined
  let shutDown = false
  app.on('before-quit', (event) => {
    if (shutDown) return
    event.preventDefault()
    shuttingDown ??= started
      .then(({ core, unregisterIpc }) => {
        unregisterIpc()
        return close(core)
      }, () => undefined) // a core that never opened has nothing to close
      .finally(() => {
        shutDown = true
        app.quit()
      })
  })
}

async function close(core: Core): Promise<void> {
  try {
    await core.close()
  } catch (error) {
    console.error('Blogdesk could not close its local store cleanly:', error)
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
