// Login passwords are only ever checked, never read back, so they are stored as salted scrypt hashes.
import { randomBytes, scryptSync } from 'node:crypto'

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
