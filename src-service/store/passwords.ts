// Login passwords are only ever checked, never read back, so they are stored as salted scrypt hashes.
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const COST = 2 ** 15
const BLOCK_SIZE = 8
const PARALLELISM = 1
const KEY_BYTES = 32
const MAX_MEMORY = 64 * 1024 * 1024 // scrypt needs 128 · N · r = 32 MiB, more than Node allows by default

/** `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url), so the parameters can be raised later without losing old hashes. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16)
  const hash = scryptSync(password, salt, KEY_BYTES, { N: COST, r: BLOCK_SIZE, p: PARALLELISM, maxmem: MAX_MEMORY })
  return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), hash.toString('base64url')].join('$')
}

// Checked against when there is no such user, so an unknown username costs as much time as a wrong password.
let standIn: string | undefined

/**
 * Whether `password` is the one `storedHash` was made from. Pass null for a user who does not exist: the answer is
 * false after the same work. Runs scrypt off the event loop, so a sign-in never stalls other requests.
 */
export async function checkPassword(password: string, storedHash: string | null): Promise<boolean> {
  const parts = (storedHash ?? (standIn ??= hashPassword(randomBytes(16).toString('hex')))).split('$')
  const [scheme, cost, blockSize, parallelism, salt, hash] = parts
  if (parts.length !== 6 || scheme !== 'scrypt' || salt === undefined || hash === undefined) {
    throw new Error('A stored login password hash is not in the scrypt$N$r$p$salt$hash form')
  }
  const expected = Buffer.from(hash, 'base64url')
  const options = { N: Number(cost), r: Number(blockSize), p: Number(parallelism), maxmem: MAX_MEMORY }
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, options)
  return storedHash !== null && timingSafeEqual(actual, expected)
}

function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  )
}
