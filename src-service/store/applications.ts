// Applications that call the JSON interface, and the API keys that identify them (the OAuth consumer key).
import { randomBytes } from 'node:crypto'
import type { Connection } from './connection'

export interface Application {
  id: number
  name: string
}

export class Applications {
  readonly #db: Connection

  constructor(db: Connection) {
    this.#db = db
  }

  add(name: string): Application {
    return { id: this.#db.run('INSERT INTO applications (name) VALUES (:name)', { ':name': name }), name }
  }

  issueApiKey(applicationId: number): string {
    const apiKey = randomBytes(16).toString('hex')
    this.#db.run('INSERT INTO api_keys (api_key, application_id) VALUES (:apiKey, :applicationId)', {
      ':apiKey': apiKey,
      ':applicationId': applicationId,
    })
    return apiKey
  }

  /** Every key of every application called `name`, oldest first. */
  apiKeysOf(name: string): string[] {
    return this.#db
      .all(
        `SELECT api_keys.api_key FROM api_keys JOIN applications ON applications.id = api_keys.application_id
         WHERE applications.name = :name ORDER BY api_keys.rowid`,
        { ':name': name },
      )
      .map((row) => String(row['api_key']))
  }
}
