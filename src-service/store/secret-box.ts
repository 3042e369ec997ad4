// Encryption at rest for secrets the service must be able to read back, such as API passwords (WSSE digests are
// computed over the password itself, so it cannot be hashed). On SQLite the key lives in its own file beside the
// database, so a copy of the database alone reveals nothing; on PostgreSQL it is in the database (service-keys.ts),
// where every instance finds the same one.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { SetupError } from '../setup-error'

const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
/** Secrets kept opened: every user signing requests at once, and a bound on the memory. */
const MAX_OPENED = 1024

export class SecretBox {
  readonly #key: Buffer
  // Opening costs a cipher set-up (60 µs) on every WSSE request. Keyed by the sealed bytes, so a secret sealed
  // anew (a changed password: a fresh iv) is never answered from here, whichever instance sealed it.
  readonly #opened = new Map<string, string>()

  private constructor(key: Buffer) {
    this.#key = key
  }

  /** Reads the key in `keyFile`, creating it (owner-only) on first start. */
  static openOrCreate(keyFile: string): SecretBox {
    try {
      writeFileSync(keyFile, newSecretKey(), { mode: 0o600, flag: 'wx' })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    return SecretBox.withKey(readFileSync(keyFile), keyFile)
  }

  /** A box with `key`, read from `where` (named if the key is damaged). */
  static withKey(key: Buffer, where: string): SecretBox {
    if (key.length !== KEY_BYTES) {
      throw new SetupError(
        `The key in ${where} is damaged (${key.length} bytes instead of ${KEY_BYTES}). Restore it from a backup; ` +
          'without it the stored API passwords cannot be read.',
      )
    }
    return new SecretBox(key)
  }

  /** AES-256-GCM: iv ‖ tag ‖ ciphertext, with a fresh iv each time. */
  seal(plain: string): Uint8Array {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv)
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return Buffer.concat([iv, cipher.getAuthTag(), body])
  }

  /** Throws when `sealed` was not made with this key or was altered. */
  open(sealed: Uint8Array): string {
    const bytes = Buffer.from(sealed)
    const key = bytes.toString('base64')
    const known = this.#opened.get(key)
    if (known !== undefined) {
      // Most recently used last, so the oldest is the first to go.
      this.#opened.delete(key)
      this.#opened.set(key, known)
      return known
    }
    const plain = this.#decrypt(bytes)
    if (this.#opened.size >= MAX_OPENED) this.#opened.delete(this.#opened.keys().next().value!)
    this.#opened.set(key, plain)
    return plain
  }

  #decrypt(bytes: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES))
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
  }

  /** A secret that is stable for this key (this data dir, or every instance on one PostgreSQL) and never stored, distinct for each `purpose`. */
  derive(purpose: string): string {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), purpose, 18)).toString('base64url')
  }
}

/** A new random key for a SecretBox. */
export function newSecretKey(): Buffer {
  return randomBytes(KEY_BYTES)
}
