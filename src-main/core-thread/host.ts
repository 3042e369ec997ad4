// The core thread's side: opens core here, off Electron's main thread, so the local store's synchronous SQLite, the
// sync engine's bookkeeping and the codecs never hold up windows and IPC. What only the main thread can do (Electron's
// network, safeStorage behind the vault, windows, the browser, utility processes) is asked of it through the peer.
import { openCore, type ImageWorker, type Platform, type Vault } from '../core'
import { relayedFetch } from './fetch-relay'
import { Peer, toWire, type Port } from './peer'

/** What the main thread gives the core thread as it starts (its workerData). */
export interface CoreThreadData {
  dataDir: string
  /** Whether the computer is online now; changes are told under 'online'. */
  online: boolean
  /** Whether the main thread's fetch and image worker are to be used, or the core thread's own (plain Node). */
  relay: { fetch: boolean; images: boolean }
}

/** Core's answers to the main thread's handler calls, from a core opened on this thread. */
export async function hostCore(port: Port, data: CoreThreadData): Promise<void> {
  const peer = new Peer(port)
  const vault: Vault = {
    get: (key) => peer.ask('vault:get', [key]),
    set: (key, secret) => peer.ask('vault:set', [key, secret]),
    delete: (key) => peer.ask('vault:delete', [key]),
  }
  const images: ImageWorker = { run: (job) => peer.ask('images:run', [job]) }
  let core
  try {
    core = await openCore({
      dataDir: data.dataDir,
      vault,
      platform: platformThrough(peer, data.online),
      fetch: data.relay.fetch ? relayedFetch(peer) : undefined,
      images: data.relay.images ? images : undefined,
    })
  } catch (error) {
    peer.tell('failed', toWire(error))
    return
  }
  const handlers = core.handlers as unknown as Record<string, (request: unknown) => Promise<unknown>>
  core.onEvent((event, payload) => peer.tell('event', { event, payload }))
  peer.serve({
    call: (channel: string, request: unknown) => handlers[channel]!(request),
    close: () => core.close(),
  })
  peer.tell('ready', Object.keys(handlers))
}

function platformThrough(peer: Peer, startedOnline: boolean): Platform {
  let online = startedOnline
  const listeners = new Set<(online: boolean) => void>()
  peer.listen<boolean>('online', (now) => {
    online = now
    for (const listener of listeners) listener(now)
  })
  return {
    connectivity: {
      isOnline: () => online,
      onChange(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    },
    openExternal: (url) => peer.ask('openExternal', [url]),
    async showAuthorizePage(url) {
      const page = await peer.ask<number>('showAuthorizePage', [url])
      return { close: () => peer.tell('closePage', page) }
    },
    startSandbox: () => peer.ask('startSandbox'),
  }
}
