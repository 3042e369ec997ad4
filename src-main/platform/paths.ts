import { join } from 'node:path'
import { app } from 'electron'

export interface AppPaths {
  /** Where core keeps the local store: the app's per-user data folder. */
  dataDir: string
  /** The sealed secrets file (FileVault). */
  vaultFile: string
}

export function appPaths(): AppPaths {
  const dataDir = app.getPath('userData')
  return { dataDir, vaultFile: join(dataDir, 'secrets.bin') }
}
