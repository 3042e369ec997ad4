// The core thread from sources (typescript-entry.mjs), which ends abruptly when asked for 'outbox:tryNow': how the main
// thread meets a core that dies (a crash in WebAssembly, memory exhausted) in the middle of a call.
import { parentPort } from 'node:worker_threads'

// Each message is the batch of what the main thread sent in one turn (peer.ts).
parentPort.on('message', (batch) => {
  if (batch.some((message) => message.type === 'ask' && message.method === 'call' && message.args[0] === 'outbox:tryNow')) process.exit(3)
})
await import('./typescript-entry.mjs')
