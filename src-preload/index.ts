// The preload: builds window.blog from the contract. It exposes only the contract's methods, never ipcRenderer,
// and hands listeners the payload alone (not the IPC event, which would leak the sender).
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron'
import { buildBlogApi, type Envelope } from '../src-shared/contract'

const blog = buildBlogApi({
  invoke: (channel, request) => ipcRenderer.invoke(channel, request) as Promise<Envelope<unknown>>,
  subscribe: (event, listener) => {
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload)
    ipcRenderer.on(event, forward)
    return () => {
      ipcRenderer.removeListener(event, forward)
    }
  },
  pathOf: (file) => webUtils.getPathForFile(file),
})

contextBridge.exposeInMainWorld('blog', blog)
