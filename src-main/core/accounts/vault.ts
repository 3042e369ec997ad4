// Secrets (API passwords, OAuth tokens) live only behind a Vault. The desktop app seals them with the OS keyring
// (safeStorage); the file holds nothing readable without it.
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

export interface SecretCipher {
  encrypt(plain: string): Uint8Array
  decrypt(sealed: Uint8Array): string
}

export interface Vault {
  get(key: string): Promise<string | null>
  set(key: string, secret: string): Promise<void>
  delete(key: string): Promise<void>
}

/**
 * The vault as core uses it: each secret read once, then answered from memory. Every signed request needs its
 * account's secret, and the app's vault is on Electron's main thread, a thread hop away, behind a file and the
 * keyring. Core makes every change to the vault through this, so what it remembers stays true; a secret is in core's
 * memory anyway while it signs requests.
 */
export class RememberingVault implements Vault {
  readonly #vault: Vault
  readonly #known = new Map<string, string | null>()
  /** Counts changes, so a read that began before one does not remember what it found. */
  #changes = 0

  constructor(vault: Vault) {
    this.#vault = vault
  }

  async get(key: string): Promise<string | null> {
    if (this.#known.has(key)) return this.#known.get(key)!
    const changes = this.#changes
    const secret = await this.#vault.get(key)
    if (changes === this.#changes) this.#known.set(key, secret)
    return secret
  }

  async set(key: string, secret: string): Promise<void> {
    this.#changes++
    this.#known.delete(key)
    await this.#vault.set(key, secret)
    this.#known.set(key, secret)
  }

  async delete(key: string): Promise<void> {
    this.#changes++
    this.#known.delete(key)
    await this.#vault.delete(key)
    this.#known.set(key, null)
  }
}

/** A vault in one file of sealed values, rewritten atomically so a crash leaves the old or the new file, never half. */
export class FileVault implements Vault {
  readonly #filePath: string
  readonly #cipher: SecretCipher
  // Writes are chained so two concurrent `set`s cannot lose each other's update.
  #queue: Promise<unknown> = Promise.resolve()

  constructor(filePath: string, cipher: SecretCipher) {
    this.#filePath = filePath
    this.#cipher = cipher
  }

  async get(key: string): Promise<string | null> {
    await this.#queue
    const sealed = (await this.#read())[key]
    return sealed === undefined ? null : this.#cipher.decrypt(Buffer.from(sealed, 'base64'))
  }

  set(key: string, secret: string): Promise<void> {
    return this.#update((entries) => {
      entries[key] = Buffer.from(this.#cipher.encrypt(secret)).toString('base64')
    })
  }

  delete(key: string): Promise<void> {
    return this.#update((entries) => {
      delete entries[key]
    })
  }

  #update(change: (entries: Record<string, string>) => void): Promise<void> {
    const next = this.#queue.then(async () => {
      const entries = await this.#read()
      change(entries)
      await this.#write(entries)
    })
    this.#queue = next.catch(() => undefined)
    return next
  }

  async #read(): Promise<Record<string, string>> {
    let text: string
    try {
      text = await readFile(this.#filePath, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw error
    }
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(`The secrets file ${this.#filePath} is damaged: it does not hold a JSON object.`)
    }
    return parsed as Record<string, string>
  }

  async #write(entries: Record<string, string>): Promise<void> {
    await mkdir(dirname(this.#filePath), { recursive: true })
    const temporary = `${this.#filePath}.${process.pid}.tmp`
    await writeFile(temporary, JSON.stringify(entries), { mode: 0o600 })
    await chmod(temporary, 0o600)
    await rename(temporary, this.#filePath)
  }
}
