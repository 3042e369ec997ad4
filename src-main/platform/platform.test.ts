import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { AtomClient, CoreError, FileVault, RequestFailure } from '../core'
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
import { app, fake, powerMonitor, shell } from './testing/fake-electron'

vi.mock('electron', () => import('./testing/fake-electron'))

beforeEach(async () => {
  fake.reset()
  app.paths.set('appData', '/home/melody/.config')
  app.paths.set('userData', '/home/melody/.config/blogdesk')
  app.getAppPath.mockReturnValue('/home/melody/src/blogdesk')
  await app.becomeReady()
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
    fake.keychainLocked = true
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

  it.runIf(process.platform === 'linux')('keeps passwords, only obfuscated, where Linux has no keyring', () => {
    fake.keyring = 'basic_text'
    const cipher = safeStorageCipher()
    expect(cipher.weak).toBe(true)
    expect(cipher.decrypt(cipher.encrypt('hunter2'))).toBe('hunter2')
    expect(Buffer.from(cipher.encrypt('hunter2')).toString('utf8')).not.toContain('hunter2')
  })

  it('tells when Linux fell back to a key that only obfuscates', () => {
    const cipher = safeStorageCipher()
    const onLinux = process.platform === 'linux'
    fake.keyring = 'basic_text'
    expect(cipher.weak).toBe(onLinux)
    fake.keyring = 'gnome_libsecret'
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
      // The service's answers to a username (302 to the user's address) and to a moved feed (301).
      const moves: Record<string, [number, string]> = {
        '/users/melody': [302, '/users/7.json'],
        '/old/feed': [301, '/blog/atom/feed'],
        '/old/weblog': [301, '/blog/atom/weblog'],
        '/moved/post': [307, '/blog/atom/post'],
      }
      const move = moves[request.url ?? '']
      if (move) {
        response.writeHead(move[0], { location: move[1] })
        return void response.end()
      }
      if (request.url === '/blog/atom/weblog') {
        // A feed whose entries link relative to where it is served from.
        response.setHeader('content-type', 'application/atom+xml')
        return void response.end(
          '<feed xmlns="http://purl.org/atom/ns#"><title>t</title><entry><title>Lisbon</title>' +
            '<link rel="service.edit" href="entry/7"/></entry></feed>',
        )
      }
      response.setHeader('content-type', 'text/plain')
      response.end(`${request.method} ${request.url} ${request.headers['x-wsse'] ?? ''}`)
    })
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((closed) => server.close(closed))
  })

  it("sends core's requests, headers and bodies through Chromium's network stack", async () => {
    const response = await netFetch(`${origin}/t/atom/weblog`, { headers: { 'X-WSSE': 'UsernameToken' } })
    expect(await response.text()).toBe('GET /t/atom/weblog UsernameToken')
    const posted = await netFetch(new URL('/feed', origin), { method: 'POST', body: '<entry/>' })
    expect(await posted.text()).toBe('POST /feed ')
  })

  it('hands core the 3xx itself when asked not to follow, as a username lookup and a moved write need', async () => {
    const lookup = await netFetch(`${origin}/users/melody`, { redirect: 'manual' })
    expect({ status: lookup.status, location: lookup.headers.get('location') }).toEqual({ status: 302, location: '/users/7.json' })
    const write = await netFetch(`${origin}/users/melody`, { method: 'POST', body: '<entry/>', redirect: 'manual' })
    expect(write.status).toBe(302)
  })

  it('says where a followed redirect ended, so relative links resolve against the final address', async () => {
    const response = await netFetch(`${origin}/old/feed`)
    expect(await response.text()).toBe('GET /blog/atom/feed ')
    expect(response.url).toBe(`${origin}/blog/atom/feed`)
    expect(new URL('entry/1', response.url).href).toBe(`${origin}/blog/atom/entry/1`)
  })

  describe("under core's Atom client", () => {
    const client = () => new AtomClient({ fetch: netFetch, credentials: async () => ({ username: 'melody', password: 'secret' }) })

    it('stops a write sent to an address that moved, saying so, instead of retrying it', async () => {
      const post = { title: 'Lisbon', content: '<p>Trams</p>', categories: [] }
      const failure = await client()
        .createPost(`${origin}/moved/post`, post, { idempotencyKey: 'k1' })
        .then(() => null, (error: unknown) => error)
      expect(failure).toBeInstanceOf(RequestFailure)
      expect(failure).toMatchObject({ kind: 'refused', message: expect.stringMatching(/has moved to .*\/blog\/atom\/post/) })
    })

    it("reads a moved feed's relative links against its new address", async () => {
      const page = await client().feedPage(`${origin}/old/weblog`)
      expect(page.posts.map((post) => post.editUri)).toEqual([`${origin}/blog/atom/entry/7`])
    })
  })

  it('refuses a redirect when asked to', async () => {
    await expect(netFetch(`${origin}/old/feed`, { redirect: 'error' })).rejects.toThrow(TypeError)
  })

  it('stops when the caller gives up', async () => {
    await expect(netFetch(`${origin}/feed`, { signal: AbortSignal.abort() })).rejects.toThrow(/abort/i)
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
    app.isPackaged = true
    try {
      expect(appPaths().resourcesDir).toBe(process.resourcesPath)
    } finally {
      app.isPackaged = false
    }
  })
})

describe('openExternal', () => {
  it('opens web links in the browser, exactly as checked', async () => {
    await openExternal('https://example.com/a post?x=1#top')
    await openExternal('HTTP://Example.org')
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/a%20post?x=1#top'], ['http://example.org/']])
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
    expect(shell.openExternal).not.toHaveBeenCalled()
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
    fake.online = false
    expect(connectivity.isOnline()).toBe(false)
  })

  it('tells listeners when the connection goes and comes back, once per change', () => {
    const connectivity = watchConnectivity()
    const changes: boolean[] = []
    connectivity.onChange((online) => changes.push(online))
    vi.advanceTimersByTime(CONNECTIVITY_POLL_MS * 3)
    fake.online = false
    vi.advanceTimersByTime(CONNECTIVITY_POLL_MS * 3)
    fake.online = true
    vi.advanceTimersByTime(CONNECTIVITY_POLL_MS)
    expect(changes).toEqual([false, true])
  })

  it('looks again at once when the computer wakes or is unlocked', () => {
    const connectivity = watchConnectivity()
    const changes: boolean[] = []
    connectivity.onChange((online) => changes.push(online))
    fake.online = false
    powerMonitor.emit('resume')
    fake.online = true
    powerMonitor.emit('unlock-screen')
    expect(changes).toEqual([false, true])
  })

  it('stops watching when the last listener leaves', () => {
    const connectivity = watchConnectivity()
    const listener = vi.fn()
    const timers = vi.getTimerCount()
    const wakeListeners = powerMonitor.listenerCount('resume')
    const stop = connectivity.onChange(listener)
    stop()
    expect(vi.getTimerCount()).toBe(timers)
    expect(powerMonitor.listenerCount('resume')).toBe(wakeListeners)
    fake.online = false
    powerMonitor.emit('resume')
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
