// Core's thread in the app: electron.vite.config.ts builds this beside the main file, and index.ts starts it as a
// worker_threads Worker (core-thread/), so the local store and the sync engine run off Electron's main thread.
import { parentPort, workerData } from 'node:worker_threads'
import { hostCore, type CoreThreadData } from './core-thread'

void hostCore(parentPort!, workerData as CoreThreadData)
