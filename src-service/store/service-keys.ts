// On PostgreSQL the key that seals API passwords (and from which the cursor-token key is derived) lives in the
// database, so every instance seals and opens with the same one. Instances starting together agree: each offers a
// key with ON CONFLICT DO NOTHING and then reads back the one that was stored first.
import { existsSync, readFileSync } from 'node:fs'
import type { Engine } from './engine'
import { newSecretKey, SecretBox } from './secret-box'

const SECRET_BOX_KEY = 'secret-box'

/**
 * The database's secret box, made on first start. A data dir that already ran on this database before the key moved
 * there offers its key file instead of a new key, so the passwords it sealed still open.
 */
export async function sharedSecretBox(db: Engine, earlierKeyFile: string): Promise<SecretBox> {
  const offered = existsSync(earlierKeyFile) ? readFileSync(earlierKeyFile) : newSecretKey()
  // Through `all`: it changes nothing a rendering shows.
  await db.all('INSERT INTO service_keys (name, key) VALUES (:name, :key) ON CONFLICT (name) DO NOTHING', {
    ':name': SECRET_BOX_KEY,
    ':key': offered,
  })
  const row = await db.get('SELECT key FROM service_keys WHERE name = :name', { ':name': SECRET_BOX_KEY })
  return SecretBox.withKey(Buffer.from(row?.['key'] as Uint8Array), 'the database (table service_keys)')
}
