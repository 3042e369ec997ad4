// The helper process for core's image jobs (sharp) in the app: electron.vite.config.ts builds it beside the main
// file, and platform/images.ts runs it as a utility process. Each message is one job; each answer names its job.
import type { EventEmitter } from 'node:events'
import { runImageJob, type ImageJob } from './core'

export interface ImageJobRequest {
  id: number
  job: ImageJob
}

export type ImageJobAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string }

/** process.parentPort, which Electron gives a utility process. */
const parentPort = (process as { parentPort?: EventEmitter & { postMessage(message: ImageJobAnswer): void } }).parentPort

parentPort?.on('message', ({ data }: { data: ImageJobRequest }) => {
  const { id, job } = data
  runImageJob(job).then(
    (value) => parentPort.postMessage({ id, ok: true, value }),
    (error: unknown) => parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  )
})
