// The core thread from sources (typescript-entry.mjs), which ends abruptly when asked for 'outbox:tryNow': how the main
// thread meets a core that dies (a crash in WebAssembly, memory exhausted) in the middle of a call.
import { parentPort } from 'node:worker_threads'

parentPort.on('message', (message) => {
  if (message?.type === 'ask' && message.method === 'call' && message.args[0] === 'outbox:tryNow') process.exit(3)
})
await import('./typescript-entry.mjs')
