// The only door between the renderer and core. The renderer is untrusted, so a call is answered only when it comes
// from the top frame of one of our windows while that frame shows our page; the contract's dispatcher then checks
// the arguments before core sees them.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron'
import { channels, events, type Envelope, type ShellHandlers } from '../../src-shared/contract'
import type { ShellCore } from '../core-thread'
import { dispatcherFor } from './dispatcher'

/** Which renderers may talk to core: AppWindows in the app. */
export interface Renderers {
  /** The web contents of every window Blogdesk opened and has not closed. */
  webContents(): readonly WebContents[]
  /** Whether `url` is Blogdesk's own page. */
  ownsUrl(url: string): boolean
}

const knownEvents: ReadonlySet<string> = new Set(events)

/**
 * Answers every contract channel (core's, and the shell's own with `shell`) and forwards core's events; returns the
 * function that undoes both.
 */
export function registerIpc(core: Pick<ShellCore, 'handlers' | 'onEvent'>, renderers: Renderers, shell: ShellHandlers): () => void {
  const dispatch = dispatcherFor({ ...core.handlers, ...shell })
  for (const channel of channels) {
    ipcMain.handle(channel, (event, request: unknown) =>
      isTrusted(event, renderers) ? dispatch(channel, request) : refuse(channel, event),
    )
  }
  const stopForwarding = core.onEvent((event, payload) => {
    if (!knownEvents.has(event)) return
    for (const contents of renderers.webContents()) {
      if (!contents.isDestroyed() && renderers.ownsUrl(contents.mainFrame.url)) contents.send(event, payload)
    }
  })
  return () => {
    stopForwarding()
    for (const channel of channels) ipcMain.removeHandler(channel)
  }
}

function isTrusted(event: IpcMainInvokeEvent, renderers: Renderers): boolean {
  const frame = event.senderFrame
  if (!frame || frame.detached) return false
  const contents = renderers.webContents().find((candidate) => candidate === event.sender)
  if (!contents || contents.isDestroyed()) return false
  const top = contents.mainFrame
  return frame.processId === top.processId && frame.routingId === top.routingId && renderers.ownsUrl(frame.url)
}

function refuse(channel: string, event: IpcMainInvokeEvent): Envelope<never> {
  console.warn(`Blogdesk refused "${channel}" from ${event.senderFrame?.url || 'a frame that is gone'}.`)
  return {
    ok: false,
    error: {
      code: 'rejected',
      message: 'Blogdesk refused a request that did not come from its own window. Restart Blogdesk if this keeps happening.',
    },
  }
}
