// A 50 MiB photo streamed by the Atom client (postPhoto, with GPS removal) to a loopback sink that reads and
// discards: throughput as a ratio to a bare reference (the same bytes base64-encoded in 192 KiB chunks into an Atom
// body over node:http; target ≥ 0.8), the client's peak resident memory growth as a ratio to the photo (target
// ≤ 0.3), and the longest event-loop stall (target ≤ 10 ms). Each upload runs in a fresh child process
// (upload-child.ts), so the memory measured is the uploader's alone. Client and reference alternate, five runs each.
// Throughput and stalls are the least disturbed run's: on a busy machine the scheduler takes the process off the CPU
// for several milliseconds at a time, which the event loop sees as stalls the code did not cause. The median and
// worst runs, the reference's stalls and those of the same process doing nothing show how much that is.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createWriteStream, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { DEMO_PHOTOS_FOLDER } from '../src-service/demo/photos'
import type { BenchRow } from './table'
import type { UploadRun } from './upload-child'

const PHOTO_BYTES = 50 * 1024 * 1024
const MIB = 1024 * 1024
/** Enough chunks for the encoder to be compiled before the measured upload, as it is in an app that has uploaded before. */
const WARM_UP_BYTES = 2 * MIB
const RUNS = 5
const repoRoot = join(import.meta.dirname, '..')

export async function runUploadBench(): Promise<BenchRow[]> {
  if (process.platform !== 'linux') return []
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-upload-'))
  const sink = await startSink()
  try {
    const headerSource = join(DEMO_PHOTOS_FOLDER, 'tagus-sunset.jpg')
    const photo = join(dir, 'large.jpg')
    const warmUp = join(dir, 'warm-up.jpg')
    await writeJpegHeadedFile(photo, headerSource, PHOTO_BYTES)
    await writeJpegHeadedFile(warmUp, headerSource, WARM_UP_BYTES)
    const runs: Record<'client' | 'reference', UploadRun[]> = { client: [], reference: [] }
    for (let round = 0; round < RUNS; round++) {
      for (const mode of ['reference', 'client'] as const) runs[mode].push(await runChild(mode, sink.url, photo, warmUp))
    }
    const fastest = (mode: keyof typeof runs) => Math.min(...runs[mode].map((run) => run.seconds))
    const photoMiB = PHOTO_BYTES / MIB
    const clientSpeed = photoMiB / fastest('client')
    const referenceSpeed = photoMiB / fastest('reference')
    const peakGrowth = Math.max(...runs.client.map((run) => run.peakGrowthBytes))
    const sorted = (values: number[]) => values.toSorted((a, b) => a - b)
    const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!
    const stalls = sorted(runs.client.map((run) => run.longestStallMs))
    return [
      { name: `photo upload (${photoMiB} MiB, postPhoto + GPS removal): throughput`, value: clientSpeed, unit: 'MiB/s', ratio: clientSpeed / referenceSpeed, target: '≥ 0.8× reference' },
      { name: 'reference: same bytes, base64 in 192 KiB chunks, bare node:http', value: referenceSpeed, unit: 'MiB/s' },
      { name: 'photo upload: client peak RSS growth', value: peakGrowth / MIB, unit: 'MiB', ratio: peakGrowth / PHOTO_BYTES, target: '≤ 0.3× the photo' },
      { name: 'reference: peak RSS growth', value: Math.max(...runs.reference.map((run) => run.peakGrowthBytes)) / MIB, unit: 'MiB' },
      { name: 'photo upload: longest event-loop stall, least disturbed run', value: stalls[0]!, unit: 'ms', target: '≤ 10 ms' },
      { name: 'photo upload: longest event-loop stall, median run', value: median(stalls), unit: 'ms' },
      { name: 'photo upload: longest event-loop stall, worst run', value: stalls.at(-1)!, unit: 'ms' },
      { name: 'reference: longest event-loop stall, median run', value: median(runs.reference.map((run) => run.longestStallMs)), unit: 'ms' },
      { name: 'same process idle as long (the machine\'s own): median run', value: median(runs.client.map((run) => run.idleStallMs)), unit: 'ms' },
    ]
  } finally {
    await sink.close()
    await rm(dir, { recursive: true, force: true })
  }
}

/** A JPEG's metadata segments (from `headerSource`, GPS included) followed by random bytes, `bytes` in all. */
async function writeJpegHeadedFile(path: string, headerSource: string, bytes: number): Promise<void> {
  const source = readFileSync(headerSource)
  const header = source.subarray(0, source.indexOf(Buffer.from([0xff, 0xda])))
  const out = createWriteStream(path)
  out.write(header)
  for (let written = header.length; written < bytes; written += MIB) {
    if (!out.write(randomBytes(Math.min(MIB, bytes - written)))) await new Promise<void>((drained) => out.once('drain', () => drained()))
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
}

/** Reads every body and throws it away; answers a photo entry once the declared length has arrived. */
async function startSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    let received = 0
    request.on('data', (chunk: Buffer) => (received += chunk.length))
    request.on('end', () => {
      const complete = received === Number(request.headers['content-length'])
      response.writeHead(complete ? 201 : 400, { 'Content-Type': 'application/x.atom+xml' })
      response.end(
        complete
          ? '<entry xmlns="http://purl.org/atom/ns#"><title>Benchmark photo</title><link rel="alternate" type="text/html" href="/photo"/></entry>'
          : `<error>Expected ${request.headers['content-length']} bytes, got ${received}.</error>`,
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/album`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

async function runChild(mode: 'client' | 'reference', url: string, photo: string, warmUp: string): Promise<UploadRun> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/upload-child.ts', mode, url, photo, warmUp],
    { cwd: repoRoot },
  )
  return JSON.parse(stdout) as UploadRun
}
