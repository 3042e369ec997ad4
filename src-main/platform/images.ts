// Core's image jobs (thumbnails, the editor's previews) in a helper process, src-main/image-worker.ts: sharp and
// Electron each bring their own GLib on Linux (electron/electron#46323), so sharp stays out of the main process, and a
// crash there fails the jobs it had, in words, instead of taking Blogdesk down. The next job starts a new helper.
import { utilityProcess, type UtilityProcess } from 'electron'
import type { ImageJob, ImageResults, ImageWorker } from '../core'
import type { ImageJobAnswer, ImageJobRequest } from '../image-worker'

interface Waiting {
  resolve(value: unknown): void
  reject(error: Error): void
}

interface Helper {
  process: UtilityProcess
  waiting: Map<number, Waiting>
}

export class ImageProcess implements ImageWorker {
  readonly #entry: string
  #helper: Helper | null = null
  #nextId = 0

  /** `entry`: the built image-worker.js. */
  constructor(entry: string) {
    this.#entry = entry
  }

  run<J extends ImageJob>(job: J): Promise<ImageResults[J['kind']]> {
    const helper = this.#helper ?? this.#start()
    const id = ++this.#nextId
    return new Promise((resolve, reject) => {
      helper.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject })
      const request: ImageJobRequest = { id, job }
      helper.process.postMessage(request)
    })
  }

  /** Ends the helper (it keeps nothing: a job cut short is only a picture not made). */
  stop(): void {
    this.#helper?.process.kill()
    this.#helper = null
  }

  #start(): Helper {
    const process = utilityProcess.fork(this.#entry, [], { serviceName: 'Blogdesk images' })
    const helper: Helper = { process, waiting: new Map() }
    process.on('message', (answer: ImageJobAnswer) => {
      const waiting = helper.waiting.get(answer.id)
      helper.waiting.delete(answer.id)
      if (answer.ok) waiting?.resolve(answer.value)
      else waiting?.reject(new Error(answer.message))
    })
    process.once('exit', (code) => {
      if (this.#helper === helper) this.#helper = null
      for (const waiting of helper.waiting.values()) {
        waiting.reject(new Error(`Blogdesk's image helper stopped (exit code ${code}) before it was done`))
      }
    })
    this.#helper = helper
    return helper
  }
}
