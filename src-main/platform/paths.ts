import { join } from 'node:path'
import { app } from 'electron'
import { PRODUCT_NAME } from './identity'

export interface AppPaths {
  /** Where core keeps the local store and the copies of media: the app's per-user data folder. */
  dataDir: string
  /** The sealed secrets file (FileVault). */
  vaultFile: string
  /** The built-in sandbox service's own data: its store, media and sandbox.json. */
  sandboxDir: string
  /** Where the window was and how large, for the next start. */
  windowStateFile: string
  /** Notices the person asked not to see again. */
  noticesFile: string
  /**
   * Files read at run time (the service's book catalogue and demo photos, the window icon): the packaged app's
   * resources folder, or the repo's resources/ when running from the sources.
   */
  resourcesDir: string
}

/**
 * Names the data folder after the product (…/Blogdesk) rather than the npm package, whether packaged or run from the
 * sources. Call it first: the single-instance lock lives in that folder.
 */
export function useProductDataFolder(): void {
  app.setPath('userData', join(app.getPath('appData'), PRODUCT_NAME))
}

export function appPaths(): AppPaths {
  const dataDir = app.getPath('userData')
  return {
    dataDir,
    vaultFile: join(dataDir, 'secrets.bin'),
    sandboxDir: join(dataDir, 'sandbox'),
    windowStateFile: join(dataDir, 'window-state.json'),
    noticesFile: join(dataDir, 'notices.json'),
    resourcesDir: app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources'),
  }
}
