// The test process plays Electron's main process. The page runs the very preload the app ships (out/preload/index.cjs)
// with `require('electron')` answered by a shim: ipcRenderer.invoke goes to a Playwright binding that runs the app's
// own dispatcher (src-main/ipc) over the real core, and the core's events come back through ipcRenderer.on listeners.
import { readFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import type { Core } from '../../src-main/core'
import { dispatcherFor } from '../../src-main/ipc/dispatcher'
import type { Event as ContractEvent } from '../../src-shared/contract'
import { builtPreloadFile } from './paths'

const INVOKE_BINDING = '__blogdeskInvoke'
const DELIVER_FUNCTION = '__blogdeskDeliver'
/** Paths of the files a test hands the page (harness/files.ts), by name: what webUtils would know in Electron. */
export const TEST_FILE_PATHS = '__blogdeskTestFilePaths'

export interface Bridge {
  /** Internal errors the core reported while answering the page: each one is a defect, even if the UI coped. */
  bugs: unknown[]
  /** Events that could not be handed to the page while it was open. */
  deliveryFailures: unknown[]
  close(): void
}

/** What the page's calls and events need of core, wherever it runs. */
export type Shell = Pick<Core, 'handlers' | 'onEvent'>

export async function installBridge(page: Page, core: Shell): Promise<Bridge> {
  const bugs: unknown[] = []
  const deliveryFailures: unknown[] = []
  // No test quits the app through the page: the shell's own answer has nothing to wait for here.
  const dispatch = dispatcherFor({ ...core.handlers, 'app:readyToQuit': async () => null }, (error) => bugs.push(error))
  // Answers cross as JSON text: Electron's IPC copies them with the structured clone, far faster than Playwright's
  // value-by-value serialisation, which would make a large answer (a thousand drafts) look slow in the app.
  await page.exposeBinding(INVOKE_BINDING, async (_source, channel: string, request: unknown) =>
    JSON.stringify(await dispatch(channel, request)),
  )
  await page.addInitScript({ content: preloadWithElectronShim(await readPreload()) })
  const unsubscribe = core.onEvent((event, payload) => {
    page
      .evaluate(
        ([name, event, payload]) => (window as unknown as Record<string, (e: string, p: unknown) => void>)[name]!(event, payload),
        [DELIVER_FUNCTION, event, payload] as [string, ContractEvent, unknown],
      )
      .catch((error: unknown) => {
        // An event that meets the page mid-navigation is lost, as Electron drops a message to a reloading page.
        if (!page.isClosed() && !/Execution context was destroyed/.test(String(error))) deliveryFailures.push(error)
      })
  })
  return { bugs, deliveryFailures, close: unsubscribe }
}

async function readPreload(): Promise<string> {
  try {
    return await readFile(builtPreloadFile, 'utf8')
  } catch (error) {
    throw new Error(`The built preload ${builtPreloadFile} is missing; run \`npm run build\` first.`, { cause: error })
  }
}

/** The preload as a page script: CommonJS wrapper, and an `electron` module with only what the preload uses. */
function preloadWithElectronShim(preloadSource: string): string {
  return `(() => {
  const listeners = new Map()
  const ipcEvent = Object.freeze({ sender: null, senderId: 0 })
  const electron = {
    contextBridge: {
      exposeInMainWorld(key, api) {
        Object.defineProperty(window, key, { value: api, enumerable: true })
      },
    },
    ipcRenderer: {
      invoke: (channel, request) => window[${JSON.stringify(INVOKE_BINDING)}](channel, request).then(JSON.parse),
      on(channel, listener) {
        if (!listeners.has(channel)) listeners.set(channel, new Set())
        listeners.get(channel).add(listener)
        return this
      },
      removeListener(channel, listener) {
        listeners.get(channel)?.delete(listener)
        return this
      },
    },
  }
  Object.defineProperty(window, ${JSON.stringify(TEST_FILE_PATHS)}, { value: new Map() })
  electron.webUtils = {
    getPathForFile: (file) => window[${JSON.stringify(TEST_FILE_PATHS)}].get(file.name) ?? '',
  }
  Object.defineProperty(window, ${JSON.stringify(DELIVER_FUNCTION)}, {
    value(channel, payload) {
      for (const listener of [...(listeners.get(channel) ?? [])]) listener(ipcEvent, payload)
    },
  })
  const require = (id) => {
    if (id === 'electron') return electron
    throw new Error('The preload may only require electron; it asked for ' + id)
  }
  const module = { exports: {} }
  ;(function (require, module, exports) {
${preloadSource}
  })(require, module, module.exports)
})()
`
}
