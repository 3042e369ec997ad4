// Loaded first in a fake utility process (fake-electron.ts): what Electron's utility process gives the code it runs.
import { EventEmitter } from 'node:events'

/** process.parentPort (parent-port.md): messages from the parent arrive as `{ data }`. */
const parentPort = Object.assign(new EventEmitter(), {
  postMessage: (message: unknown) => process.send?.(message as object),
})
process.on('message', (data) => parentPort.emit('message', { data }))
Object.defineProperty(process, 'parentPort', { value: parentPort })

// electron/electron#47228, "Utility process does not exit when no more work is scheduled": "Explicitly calling
// `process.exit()` is required for the process to exit."
setInterval(() => undefined, 1 << 30)
