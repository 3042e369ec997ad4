import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { CoreError, FileVault } from '../core'
import {
  appPaths,
  CONNECTIVITY_POLL_MS,
  isWebLink,
  netFetch,
  openExternal,
  PRODUCT_NAME,
  readJsonFile,
  safeStorageCipher,
  useProductDataFolder,
  watchConnectivity,
  writeJsonFile,
} from '.'

// safeStorage as the OS keychain would behave: sealing is reversible only with its key, and may be unavailable.
const electron = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events')
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
    network: { online: true },
    powerMonitor: new EventEmitter(),
    openExternal: vi.fn((_url: string) => Promise.resolve()),
    app: {
      isPackaged: false,
      paths: new Map([
        ['appData', '/home/melody/.config'],
        ['userData', '/home/melody/.config/blogdesk'],
      ]),
      getPath(name: string) {
        const path = this.paths.get(name)
        if (!path) throw new Error(`unexpected path ${name}`)
        return path
      },
      setPath(name: string, path: string) {
        this.paths.set(name, path)
      },
      getAppPath: () => '/home/melody/src/blogdesk',
    },
  }
})

vi.mock('electron', () => ({
  safeStorage: electron.safeStorage,
  net: { fetch: electron.netFetch, isOnline: () => electron.network.online },
  powerMonitor: electron.powerMonitor,
  shell: { openExternal: electron.openExternal },
  app: electron.app,
}))

beforeEach(() => {
  electron.state.available = true
  electron.state.backend = 'gnome_libsecret'
  electron.network.online = true
  electron.openExternal.mockClear()
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
      expect(attempt).toThrow(CoreError)
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
  it("keeps everything in a data folder named after the product, whether packaged or run from the sources", () => {
    useProductDataFolder()
    const userData = join('/home/melody/.config', PRODUCT_NAME)
    expect(appPaths()).toEqual({
      dataDir: userData,
      vaultFile: join(userData, 'secrets.bin'),
      sandboxDir: join(userData, 'sandbox'),
      windowStateFile: join(userData, 'window-state.json'),
      noticesFile: join(userData, 'notices.json'),
      resourcesDir: join('/home/melody/src/blogdesk', 'resources'),
    })
  })

  it("reads run-time files from the packaged app's resources folder", () => {
    electron.app.isPackaged = true
    try {
      expect(appPaths().resourcesDir).toBe(process.resourcesPath)
    } finally {
      electron.app.isPackaged = false
    }
  })
})

describe('openExternal', () => {
  it('opens web links in the browser, exactly as checked', async () => {
    await openExternal('https://example.com/a post?x=1#top')
    await openExternal('HTTP://Example.org')
    expect(electron.openExternal.mock.calls).toEqual([['https://example.com/a%20post?x=1#top'], ['http://example.org/']])
  })

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'blogdesk://settings',
    'ms-msdt:/id PCWDiagnostic',
    'smb://attacker/share',
    'vbscript:msgbox',
    '//example.com/no-scheme',
    'not a url',
    '',
  ])('refuses %j, saying only web links open', async (url) => {
    await expect(openExternal(url)).rejects.toThrow(CoreError)
    await expect(openExternal(url)).rejects.toThrow(/only web links \(http or https\)/)
    expect(electron.openExternal).not.toHaveBeenCalled()
  })

  it('shortens a long refused address in its message', async () => {
    const refusal = await openExternal(`file:///${'a'.repeat(500)}`).then(
      () => 'opened',
      (error: unknown) => (error as Error).message,
    )
    expect(refusal).toMatch(/^Blogdesk opens only web links/)
    expect(refusal.length).toBeLessThan(200)
  })

  it('tells web links from everything else', () => {
    expect(isWebLink('HTTPS://EXAMPLE.COM/')).toBe(true)
    expect(isWebLink(' javascript:alert(1)')).toBe(false)
    expect(isWebLink('//example.com')).toBe(false)
  })
})

describe('watchConnectivity', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('answers from net.isOnline', () => {
    const connectivity = watchConnectivity()
    expect(connectivity.isOnline()).toBe(true)
    electron.network.online = false
    expect(connectivity.isOnline()).toBe(false)
  })

  it('tells listeners when the connection goes and comes back, once per change', () => {
    const connectivity = watchConnectivity()
    const changes: boolean[] = []
    connectivity.onChange((online) => changes.push(online))
    vi.advanceTimersByTime(CONNECTIVITY_POLL_MS * 3)
    electron.network.online = false
    vi.advanceTimersByTime(CONNECTIVITY_POLL_MS * 3)
    electron.network.online = true
    vi.advanceTimersByTime(CONNECTIVITY_POLL_MS)
    expect(changes).toEqual([false, true])
  })

  it('looks again at once when the computer wakes or is unlocked', () => {
    const connectivity = watchConnectivity()
    const changes: boolean[] = []
    connectivity.onChange((online) => changes.push(online))
    electron.network.online = false
    electron.powerMonitor.emit('resume')
    electron.network.online = true
    electron.powerMonitor.emit('unlock-screen')
    expect(changes).toEqual([false, true])
  })

  it('stops watching when the last listener leaves', () => {
    const connectivity = watchConnectivity()
    const listener = vi.fn()
    const timers = vi.getTimerCount()
    const wakeListeners = electron.powerMonitor.listenerCount('resume')
    const stop = connectivity.onChange(listener)
    stop()
    expect(vi.getTimerCount()).toBe(timers)
    expect(electron.powerMonitor.listenerCount('resume')).toBe(wakeListeners)
    electron.network.online = false
    electron.powerMonitor.emit('resume')
    vi.advanceTimersByTime(CONNECTIVITY_POLL_MS * 2)
    expect(listener).not.toHaveBeenCalled()
  })
})

describe('the small JSON files', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-json-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })
  const isCount = (value: unknown): value is { count: number } =>
    typeof value === 'object' && value !== null && typeof (value as { count?: unknown }).count === 'number'

  it('round-trip, creating the folder', () => {
    const file = join(dir, 'nested', 'state.json')
    writeJsonFile(file, { count: 3 })
    expect(readJsonFile(file, isCount)).toEqual({ count: 3 })
  })

  it('read as nothing when missing, damaged or of another shape, rather than failing', () => {
    const file = join(dir, 'state.json')
    expect(readJsonFile(file, isCount)).toBeNull()
    writeFileSync(file, '{"count": ')
    expect(readJsonFile(file, isCount)).toBeNull()
    writeFileSync(file, '{"count": "three"}')
    expect(readJsonFile(file, isCount)).toBeNull()
  })
})
