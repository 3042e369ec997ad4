// Photo import's thumbnails (photos:preview) since sharp left the main process: a 40-photo drop of the demo photos,
// each thumbnail made by the image helper (src-main/image-worker.ts in a child process, as the app's utility process
// runs it), against the reference of the same thumbnails made in this process, as core made them before. Target: the
// helper adds at most 1.2× to the drop's time.
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runImageJob, type ImageJob } from '../src-main/core'
import type { ImageJobAnswer } from '../src-main/image-worker'
import { READY_SIGNAL } from '../src-main/platform/testing/utility-process-signal'
import type { BenchRow } from './table'
import { median } from './stats'

const PHOTOS = 40
const RUNS = 5
const DEMO_PHOTOS = join(import.meta.dirname, '..', 'resources', 'demo-photos')
const preload = pathToFileURL(join(import.meta.dirname, '..', 'src-main', 'platform', 'testing', 'utility-process-preload.ts')).href
const entry = join(import.meta.dirname, '..', 'src-main', 'image-worker.ts')

export async function runThumbnailsBench(): Promise<BenchRow[]> {
  const photos = readdirSync(DEMO_PHOTOS).filter((name) => name.endsWith('.jpg'))
  const drop = Array.from({ length: PHOTOS }, (_, index) => join(DEMO_PHOTOS, photos[index % photos.length]!))
  const helper = await startHelper()
  try {
    const inProcess = (path: string) => runImageJob({ kind: 'thumbnail', path })
    const inHelper = (path: string) => helper.run({ kind: 'thumbnail', path })
    const time = async (make: (path: string) => Promise<unknown>) => {
      const start = performance.now()
      await Promise.all(drop.map(make))
      return performance.now() - start
    }
    await time(inProcess)
    await time(inHelper)
    const reference: number[] = []
    const measured: number[] = []
    for (let run = 0; run < RUNS; run++) {
      reference.push(await time(inProcess))
      measured.push(await time(inHelper))
    }
    return [
      { name: `thumbnails of a ${PHOTOS}-photo drop, in the image helper`, value: median(measured), unit: 'ms', ratio: median(measured) / median(reference), target: '≤ 1.2× reference' },
      { name: 'reference: the same, in this process (as before)', value: median(reference), unit: 'ms' },
    ]
  } finally {
    helper.stop()
  }
}

async function startHelper() {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', preload, entry], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  await new Promise<void>((resolve) => child.once('message', (message) => message === READY_SIGNAL && resolve()))
  const waiting = new Map<number, (answer: ImageJobAnswer) => void>()
  child.on('message', (answer: ImageJobAnswer) => waiting.get(answer.id)?.(answer))
  let nextId = 0
  return {
    run: (job: ImageJob) =>
      new Promise<unknown>((resolve, reject) => {
        const id = ++nextId
        waiting.set(id, (answer) => (answer.ok ? resolve(answer.value) : reject(new Error(answer.message))))
        child.send({ id, job })
      }),
    stop: () => child.kill(),
  }
}
