// Loaded first in a fake utility process (fake-electron.ts): what Electron's utility process gives the code it runs.
import { EventEmitter } from 'node:events'
import { READY_SIGNAL } from './utility-process-signal'

/**
 * process.parentPort. parent-port.md, Event 'message': "Messages received on this port will be queued up until a
 * handler is registered for this event."
 */
const parentPort = Object.assign(new EventEmitter(), {
  postMessage: (message: unknown) => process.send?.(message as object),
})
const queued: unknown[] = []
const deliver = () => {
  while (queued.length > 0 && parentPort.listenerCount('message') > 0) parentPort.emit('message', { data: queued.shift() })
}
process.on('message', (data) => {
  queued.push(data)
  deliver()
})
parentPort.on('newListener', (event) => {
  if (event === 'message') setImmediate(deliver)
})
Object.defineProperty(process, 'parentPort', { value: parentPort })
process.send?.(READY_SIGNAL)

// electron/electron#47228, "Utility process does not exit when no more work is scheduled": "Explicitly calling
// `process.exit()` is required for the process to exit."
setInterval(() => undefined, 1 << 30)
