// Core on a thread of its own (a worker_threads Worker running core-worker.js), seen from the main thread as the core
// the shell needs: its handlers, its events, and close. The main thread serves what core asks of the platform.
import { Worker } from 'node:worker_threads'
import type { CoreHandlers } from '../../src-shared/contract'
import { CoreError, type Core, type CoreEventListener, type CoreOptions, type ShownPage } from '../core'
import { serveFetch } from './fetch-relay'
import type { CoreThreadData } from './host'
import { fromWire, Peer, type WireError } from './peer'

export { hostCore, type CoreThreadData } from './host'

/** What the main thread uses of core: calls, events and closing. */
export type ShellCore = Pick<Core, 'handlers' | 'onEvent' | 'close'>

/**
 * Starts core on a new thread from `entry` (a script that calls hostCore with its parentPort and workerData) and
 * resolves once its store is open; rejects, with the thread gone, when core cannot open (another Blogdesk has the
 * data, a newer schema).
 */
export async function startCoreThread(entry: string | URL, options: CoreOptions): Promise<ShellCore> {
  const { platform } = options
  const data: CoreThreadData = {
    dataDir: options.dataDir,
    online: platform.connectivity.isOnline(),
    relay: { fetch: options.fetch !== undefined, images: options.images !== undefined },
  }
  const worker = new Worker(entry, { workerData: data })
  const peer = new Peer(worker)
  const pages = new Map<number, ShownPage>()
  let lastPage = 0
  peer.serve({
    'vault:get': (key: string) => options.vault.get(key),
    'vault:set': (key: string, secret: string) => options.vault.set(key, secret),
    'vault:delete': (key: string) => options.vault.delete(key),
    'images:run': (job: never) => options.images!.run(job),
    openExternal: (url: string) => platform.openExternal(url),
    async showAuthorizePage(url: string) {
      const page = ++lastPage
      pages.set(page, await platform.showAuthorizePage(url))
      return page
    },
    startSandbox: () => platform.startSandbox(),
  })
  peer.listen<number>('closePage', (page) => {
    pages.get(page)?.close()
    pages.delete(page)
  })
  if (options.fetch) serveFetch(peer, options.fetch)
  const stopWatching = platform.connectivity.onChange((online) => peer.tell('online', online))
  const listeners = new Set<CoreEventListener>()
  peer.listen<{ event: string; payload: unknown }>('event', ({ event, payload }) => {
    for (const listener of listeners) listener(event as never, payload as never)
  })

  let crash: Error | null = null
  let closing = false
  let ended = false
  worker.on('error', (error) => {
    crash = error
    console.error("Blogdesk's core stopped:", error)
  })
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      ended = true
      stopWatching()
      peer.lose(
        closing
          ? new CoreError('bug', "Blogdesk's core has stopped: Blogdesk is quitting.")
          : new CoreError(
              'bug',
              `Blogdesk's core stopped unexpectedly (${crash?.message ?? `exit code ${code}`}). Quit and open Blogdesk again; what it had saved is kept.`,
            ),
      )
      resolve()
    }),
  )
  const channels = await new Promise<string[]>((resolve, reject) => {
    peer.listen('ready', resolve)
    peer.listen<WireError>('failed', (error) => reject(fromWire(error)))
    void exited.then(() => reject(crash ?? new Error("Blogdesk's core stopped before its store was open.")))
  }).catch(async (error: unknown) => {
    await worker.terminate()
    throw error
  })

  const handlers = Object.fromEntries(channels.map((channel) => [channel, (request: unknown) => peer.ask('call', [channel, request])]))
  return {
    handlers: handlers as unknown as CoreHandlers,
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      closing = true
      listeners.clear()
      try {
        // A thread that died has nothing left to close.
        if (!ended) await peer.ask('close')
      } finally {
        // Its store is closed (or it is already gone): nothing it still holds needs finishing.
        await worker.terminate()
        await exited
      }
    },
  }
}
