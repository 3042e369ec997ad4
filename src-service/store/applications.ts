// Applications that call the JSON interface, and the API keys that identify them (the OAuth consumer key).
import { randomBytes } from 'node:crypto'
import { insertReturningId } from './dialect'
import type { Engine } from './engine'

export interface Application {
  id: number
  name: string
}

export class Applications {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  async add(name: string): Promise<Application> {
    return { id: await insertReturningId(this.#db, 'INSERT INTO applications (name) VALUES (:name)', { ':name': name }), name }
  }

  async issueApiKey(applicationId: number): Promise<string> {
    const apiKey = randomBytes(16).toString('hex')
    await this.#db.run('INSERT INTO api_keys (api_key, application_id) VALUES (:apiKey, :applicationId)', {
      ':apiKey': apiKey,
      ':applicationId': applicationId,
    })
    return apiKey
  }

  /** Every key of every application called `name`, oldest first (keys made in the same second, in key order). */
  async apiKeysOf(name: string): Promise<string[]> {
    const rows = await this.#db.all(
      `SELECT api_keys.api_key FROM api_keys JOIN applications ON applications.id = api_keys.application_id
       WHERE applications.name = :name ORDER BY api_keys.created_at, api_keys.api_key`,
      { ':name': name },
    )
    return rows.map((row) => String(row['api_key']))
  }
}
