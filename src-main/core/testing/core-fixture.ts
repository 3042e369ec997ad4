// A real core on a temp dir, for tests: real SQLite file, real file vault.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileVault, openCore, type Core, type SecretCipher } from '..'
import { createTestPlatform, type TestPlatform } from './test-platform'

/** Stands in for the OS keyring: reversible, but never leaves a secret readable in the vault file. */
export const testCipher: SecretCipher = {
  encrypt: (plain) => Buffer.from(plain, 'utf8').map((byte) => byte ^ 0x5a),
  decrypt: (sealed) => Buffer.from(sealed.map((byte) => byte ^ 0x5a)).toString('utf8'),
}

export interface CoreFixture {
  core: Core
  dataDir: string
  platform: TestPlatform
  /** Closes the core and opens a new one on the same data, as a restarted app would (one app per data dir). */
  reopen(): Promise<Core>
  dispose(): Promise<void>
}

export async function openTestCore(): Promise<CoreFixture> {
  const dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-core-'))
  const platformDir = mkdtempSync(join(tmpdir(), 'blogdesk-platform-'))
  const platform = createTestPlatform(platformDir)
  const open = () => openCore({ dataDir, platform, vault: new FileVault(join(dataDir, 'secrets.bin'), testCipher) })
  const opened: Core[] = [await open()]
  return {
    core: opened[0]!,
    dataDir,
    platform,
    reopen: async () => {
      for (const core of opened) await core.close()
      const core = await open()
      opened.push(core)
      return core
    },
    dispose: async () => {
      for (const core of opened) await core.close()
      await platform.dispose()
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(platformDir, { recursive: true, force: true })
    },
  }
}
