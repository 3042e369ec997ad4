import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { BlogdeskError } from '../../src-preload/contract'
import { FileVault } from '../core'
import { appPaths, netFetch, safeStorageCipher } from '.'

// safeStorage as the OS keychain would behave: sealing is reversible only with its key, and may be unavailable.
const electron = vi.hoisted(() => {
  const state = { available: true, backend: 'gnome_libsecret' }
  const key = 0x5a
  const xor = (bytes: Uint8Array) => Buffer.from(bytes.map((byte) => byte ^ key))
  const marker = Buffer.from('sealed:')
  return {
    state,
    safeStorage: {
      isEncryptionAvailable: () => state.available,
      getSelectedStorageBackend: () => state.backend,
      encryptString: (plain: string) => Buffer.concat([marker, xor(Buffer.from(plain, 'utf8'))]),
      decryptString: (sealed: Buffer) => {
        if (!sealed.subarray(0, marker.length).equals(marker)) {
          throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
        }
        return xor(sealed.subarray(marker.length)).toString('utf8')
      },
    },
    netFetch: vi.fn((input: string | Request, init?: RequestInit) => globalThis.fetch(input, init)),
    userData: '/home/melody/.config/Blogdesk',
  }
})

vi.mock('electron', () => ({
  safeStorage: electron.safeStorage,
  net: { fetch: electron.netFetch },
  app: { getPath: (name: string) => (name === 'userData' ? electron.userData : `/unexpected/${name}`) },
}))

beforeEach(() => {
  electron.state.available = true
  electron.state.backend = 'gnome_libsecret'
})

describe('safeStorageCipher', () => {
  it('seals and unseals a secret without keeping it readable', () => {
    const cipher = safeStorageCipher()
    const sealed = cipher.encrypt('correct horse battery staple ✓')
    expect(Buffer.from(sealed).toString('utf8')).not.toContain('correct horse')
    expect(cipher.decrypt(sealed)).toBe('correct horse battery staple ✓')
  })

  it('unseals a view into a larger buffer, reading only the view', () => {
    const cipher = safeStorageCipher()
    const sealed = cipher.encrypt('secret')
    const padded = new Uint8Array(sealed.length + 8)
    padded.set(sealed, 4)
    expect(cipher.decrypt(padded.subarray(4, 4 + sealed.length))).toBe('secret')
  })

  it('refuses to seal or unseal when the keychain is unavailable, saying what to do', () => {
    const cipher = safeStorageCipher()
    const sealed = cipher.encrypt('secret')
    electron.state.available = false
    for (const attempt of [() => cipher.encrypt('secret'), () => cipher.decrypt(sealed)]) {
      expect(attempt).toThrow(BlogdeskError)
      expect(attempt).toThrow(/keychain is not available.*Unlock or set up/)
    }
  })

  it('explains a secret the keychain can no longer unseal', () => {
    expect(() => safeStorageCipher().decrypt(Buffer.from('sealed by another keychain'))).toThrow(
      /could not be unlocked.*Remove the account and add it again/,
    )
  })

  it('tells when Linux fell back to a key that only obfuscates', () => {
    const cipher = safeStorageCipher()
    const onLinux = process.platform === 'linux'
    electron.state.backend = 'basic_text'
    expect(cipher.weak).toBe(onLinux)
    electron.state.backend = 'gnome_libsecret'
    expect(cipher.weak).toBe(false)
  })

  describe('behind the FileVault', () => {
    let dir: string
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'blogdesk-vault-'))
    })
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true })
    })

    it('keeps API passwords on disk only in sealed form', async () => {
      const file = join(dir, 'secrets.bin')
      const vault = new FileVault(file, safeStorageCipher())
      await vault.set('account:a1:api-password', 'hunter2-api-password')
      expect(readFileSync(file, 'utf8')).not.toContain('hunter2')
      expect(await new FileVault(file, safeStorageCipher()).get('account:a1:api-password')).toBe('hunter2-api-password')
    })
  })
})

describe('netFetch', () => {
  let server: Server
  let origin: string
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.setHeader('content-type', 'text/plain')
      response.end(`${request.method} ${request.url} ${request.headers['x-wsse'] ?? ''}`)
    })
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((closed) => server.close(closed))
  })

  it("sends core's requests through Electron's net.fetch", async () => {
    const response = await netFetch(`${origin}/t/atom/weblog`, { headers: { 'X-WSSE': 'UsernameToken' } })
    expect(await response.text()).toBe('GET /t/atom/weblog UsernameToken')
    expect(electron.netFetch).toHaveBeenCalledWith(`${origin}/t/atom/weblog`, { headers: { 'X-WSSE': 'UsernameToken' } })
  })

  it('accepts a URL object, which net.fetch does not', async () => {
    const response = await netFetch(new URL('/feed', origin), { method: 'POST' })
    expect(await response.text()).toBe('POST /feed ')
    expect(electron.netFetch).toHaveBeenLastCalledWith(`${origin}/feed`, { method: 'POST' })
  })
})

describe('appPaths', () => {
  it("keeps the store and the sealed secrets in the app's user data folder", () => {
    expect(appPaths()).toEqual({
      dataDir: electron.userData,
      vaultFile: join(electron.userData, 'secrets.bin'),
    })
  })
})
