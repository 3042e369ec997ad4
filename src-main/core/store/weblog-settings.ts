// Settings a person keeps for one weblog on this computer (the server knows nothing of them): how wide the images
// of a post are sent at most.
import type { WeblogImageSettings } from '../../../src-shared/contract'
import type { LocalStore } from './database'

/** Wide enough for a full-width image on a sharp screen in most weblog themes, and a quarter of a 12 MP photo's bytes. */
export const DEFAULT_MAX_IMAGE_WIDTH = 1200

export class WeblogSettings {
  readonly #store: LocalStore

  constructor(store: LocalStore) {
    this.#store = store
  }

  get(accountId: string, weblogPostUri: string): WeblogImageSettings {
    const row = this.#store.get(
      'SELECT max_image_width FROM weblog_settings WHERE account_id = :accountId AND weblog_post_uri = :weblogPostUri',
      { accountId, weblogPostUri },
    )
    return { maxImageWidth: row ? Number(row['max_image_width']) : DEFAULT_MAX_IMAGE_WIDTH }
  }

  set(accountId: string, weblogPostUri: string, settings: WeblogImageSettings): WeblogImageSettings {
    this.#store.run(
      `INSERT INTO weblog_settings (account_id, weblog_post_uri, max_image_width) VALUES (:accountId, :weblogPostUri, :maxImageWidth)
       ON CONFLICT (account_id, weblog_post_uri) DO UPDATE SET max_image_width = excluded.max_image_width`,
      { accountId, weblogPostUri, maxImageWidth: settings.maxImageWidth },
    )
    return this.get(accountId, weblogPostUri)
  }
}
