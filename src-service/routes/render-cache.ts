// Rendered documents, reused until the store is written to. Feeds are read far more often than posts are written, and
// a feed page costs a query of twenty bodies through the WebAssembly boundary plus its XML; any write anywhere —
// a post, a category, a weblog title, a display name — makes every rendering stale, so none can outlive its data.
import type { Store } from '../store'

export class RenderCache {
  readonly #store: Store
  readonly #maxEntries: number
  readonly #entries = new Map<string, { writes: number; document: string }>()

  constructor(store: Store, maxEntries = 128) {
    this.#store = store
    this.#maxEntries = maxEntries
  }

  /**
   * The document for `key`: rendered by `render` unless the store is unchanged since it last was. It is filed under
   * the count of writes before rendering, so a write made while it renders makes it stale at once. A caller that has
   * read the count for this request already passes it as `writes`.
   */
  async document(key: string, render: () => Promise<string>, writes?: number): Promise<string> {
    writes ??= await this.#store.writes()
    const cached = this.#entries.get(key)
    if (cached?.writes === writes) return cached.document
    const document = await render()
    this.#entries.delete(key)
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!)
    this.#entries.set(key, { writes, document })
    return document
  }
}
