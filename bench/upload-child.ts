// One measured upload in a fresh process, so its memory is the uploader's alone: `node --import tsx
// bench/upload-child.ts <client|reference> <album url> <photo> <warm-up photo>`. Prints one JSON line (UploadRun).
// client: AtomClient.postPhoto with GPS removal. reference: the least an uploader can do — the same bytes
// base64-encoded in 192 KiB chunks into an Atom body over node:http, with backpressure and a Content-Length.
import { randomUUID } from 'node:crypto'
import { createReadStream, statSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { AtomClient } from '../src-main/core'

export interface UploadRun {
  seconds: number
  /** Peak resident memory during the upload minus resident memory before it. */
  peakGrowthBytes: number
  /** The longest the event loop was late for a 1 ms tick during the upload. */
  longestStallMs: number
  /** The same, in this process doing nothing for as long: what the machine itself costs. */
  idleStallMs: number
}

const CHUNK_BYTES = 192 * 1024
const TICK_MS = 1

async function residentBytes(field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8')
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]) * 1024
}

async function uploadWithClient(url: string, path: string): Promise<void> {
  const client = new AtomClient({ fetch, credentials: async () => ({ username: 'bench', password: 'bench' }) })
  await client.postPhoto(url, { path, title: 'Benchmark photo', type: 'image/jpeg', stripGps: true }, { idempotencyKey: randomUUID() })
}

function uploadReference(url: string, path: string): Promise<void> {
  const head = Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n<entry xmlns="http://purl.org/atom/ns#"><title>Benchmark photo</title><content mode="base64" type="image/jpeg">')
  const tail = Buffer.from('</content></entry>\n')
  const size = statSync(path).size
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x.atom+xml', 'Content-Length': head.length + 4 * Math.ceil(size / 3) + tail.length },
    })
    outgoing.on('error', reject)
    outgoing.on('response', (response) => {
      response.resume()
      response.on('end', () => (response.statusCode === 201 ? resolve() : reject(new Error(`The sink answered ${response.statusCode}`))))
    })
    void (async () => {
      outgoing.write(head)
      for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
        if (!outgoing.write(chunk.toString('base64'), 'latin1')) await new Promise((drained) => outgoing.once('drain', drained))
      }
      outgoing.end(tail)
    })().catch(reject)
  })
}

async function measure(mode: string, url: string, photo: string, warmUp: string): Promise<UploadRun> {
  const upload = mode === 'client' ? uploadWithClient : uploadReference
  await upload(url, warmUp)
  globalThis.gc?.()
  const before = await residentBytes('VmRSS')
  // Resets VmHWM to the present resident size (Linux ≥ 4.0).
  await writeFile('/proc/self/clear_refs', '5')
  const { result: seconds, longestStallMs } = await watchingTheLoop(async () => {
    const started = process.hrtime.bigint()
    await upload(url, photo)
    return Number(process.hrtime.bigint() - started) / 1e9
  })
  const peakGrowthBytes = (await residentBytes('VmHWM')) - before
  const idle = await watchingTheLoop(() => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000)))
  return { seconds, peakGrowthBytes, longestStallMs, idleStallMs: idle.longestStallMs }
}

async function watchingTheLoop<T>(work: () => Promise<T>): Promise<{ result: T; longestStallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: TICK_MS })
  delay.enable()
  const result = await work()
  delay.disable()
  // The histogram holds the time between ticks; the tick's own period is not a stall.
  return { result, longestStallMs: Math.max(0, delay.max / 1e6 - TICK_MS) }
}

const [mode, url, photo, warmUp] = process.argv.slice(2)
if (!mode || !url || !photo || !warmUp) throw new Error('usage: upload-child.ts <client|reference> <album url> <photo> <warm-up photo>')
process.stdout.write(`${JSON.stringify(await measure(mode, url, photo, warmUp))}\n`)
