// The main process's core: everything Blogdesk does, with no Electron in sight, so it runs under plain Node in tests.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Event, Events, Handlers } from '../../src-preload/contract'
import { Accounts, type Vault } from './accounts'
import type { Fetch } from './atom'
import { LocalStore } from './store'

export { FileVault, type SecretCipher, type Vault } from './accounts'

export interface CoreOptions {
  /** Where the local store lives (the app's userData in Electron, a temp dir in tests). */
  dataDir: string
  vault: Vault
  /** Electron's net.fetch in the app (system proxy and certificates); Node's fetch by default. */
  fetch?: Fetch
}

export type CoreEventListener = <E extends Event>(event: E, payload: Events[E]) => void

export interface Core {
  handlers: Handlers
  onEvent(listener: CoreEventListener): () => void
  close(): Promise<void>
}

export async function openCore(options: CoreOptions): Promise<Core> {
  await mkdir(options.dataDir, { recursive: true })
  const store = LocalStore.open(join(options.dataDir, 'blogdesk.sqlite'))
  const listeners = new Set<CoreEventListener>()
  const emit: CoreEventListener = (event, payload) => {
    for (const listener of listeners) listener(event, payload)
  }
  const accounts = new Accounts({
    store,
    vault: options.vault,
    fetch: options.fetch ?? globalThis.fetch,
    onChanged: (list) => emit('accounts:changed', list),
  })

  const handlers: Handlers = {
    'accounts:list': async () => accounts.list(),
    'accounts:add': (request) => accounts.add(request),
    'weblogs:list': (request) => accounts.weblogs(request.accountId),
  }

  return {
    handlers,
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      listeners.clear()
      store.close()
    },
  }
}
