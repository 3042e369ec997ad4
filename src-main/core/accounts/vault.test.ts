import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { testCipher } from '../testing/core-fixture'
import { FileVault, RememberingVault, type Vault } from './vault'

let dir: string
let file: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'blogdesk-vault-'))
  file = join(dir, 'nested', 'secrets.bin')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('FileVault', () => {
  it('keeps a secret across instances without writing it in the clear', async () => {
    await new FileVault(file, testCipher).set('account:1:api-password', 'correct horse battery')
    expect(await new FileVault(file, testCipher).get('account:1:api-password')).toBe('correct horse battery')
    expect(readFileSync(file, 'utf8')).not.toContain('correct horse')
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('answers null for a secret it never had, and forgets a deleted one', async () => {
    const vault = new FileVault(file, testCipher)
    expect(await vault.get('nothing')).toBeNull()
    await vault.set('a', 'one')
    await vault.delete('a')
    expect(await vault.get('a')).toBeNull()
  })

  it('loses no update when many are made at once', async () => {
    const vault = new FileVault(file, testCipher)
    await Promise.all(Array.from({ length: 25 }, (_, i) => vault.set(`key-${i}`, `secret-${i}`)))
    const reread = new FileVault(file, testCipher)
    for (let i = 0; i < 25; i++) expect(await reread.get(`key-${i}`)).toBe(`secret-${i}`)
  })
})

describe('RememberingVault', () => {
  it('reads each secret from the vault once, then answers from memory', async () => {
    await new FileVault(file, testCipher).set('account:1:api-password', 'first')
    const vault = new RememberingVault(new FileVault(file, testCipher))
    expect(await vault.get('account:1:api-password')).toBe('first')
    // Changed behind its back (nothing in the app does this): what it read stays what it answers.
    await new FileVault(file, testCipher).set('account:1:api-password', 'behind its back')
    expect(await vault.get('account:1:api-password')).toBe('first')
    expect(await vault.get('account:2:api-password')).toBeNull()
  })

  it('answers what was last set or deleted through it, and keeps it in the vault', async () => {
    const vault = new RememberingVault(new FileVault(file, testCipher))
    expect(await vault.get('key')).toBeNull()
    await vault.set('key', 'new password')
    expect(await vault.get('key')).toBe('new password')
    expect(await new FileVault(file, testCipher).get('key')).toBe('new password')
    await vault.delete('key')
    expect(await vault.get('key')).toBeNull()
    expect(await new FileVault(file, testCipher).get('key')).toBeNull()
  })

  it('does not remember a read that was under way while the secret changed', async () => {
    const held = new HeldReads(new FileVault(file, testCipher))
    await held.set('key', 'old')
    const vault = new RememberingVault(held)
    const reading = vault.get('key')
    await vault.set('key', 'new')
    held.release()
    expect(await reading).toBe('old')
    expect(await vault.get('key')).toBe('new')
  })

  it('remembers nothing of a change the vault refused', async () => {
    // Its folder cannot be made: a file has that name.
    const blocker = join(dir, 'a-file')
    writeFileSync(blocker, '')
    const vault = new RememberingVault(new FileVault(join(blocker, 'secrets.bin'), testCipher))
    await expect(vault.set('key', 'never kept')).rejects.toThrow()
    await expect(vault.get('key')).rejects.toThrow()
  })
})

/** A vault whose reads, once read, wait for `release()`: a read slower than a write, as on a busy thread. */
class HeldReads implements Vault {
  readonly #vault: Vault
  #release!: () => void
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve))

  constructor(vault: Vault) {
    this.#vault = vault
  }

  async get(key: string): Promise<string | null> {
    const secret = await this.#vault.get(key)
    await this.#released
    return secret
  }

  set(key: string, secret: string): Promise<void> {
    return this.#vault.set(key, secret)
  }

  delete(key: string): Promise<void> {
    return this.#vault.delete(key)
  }

  release(): void {
    this.#release()
  }
}
