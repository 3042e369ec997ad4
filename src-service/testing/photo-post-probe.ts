// Measures a large photo POST against the real service running as a child process: how fast it goes over loopback
// and how much the service's resident memory peaks above where it stood — in all (Linux VmHWM, reset through
// clear_refs just before the request) and in anonymous memory alone (sampled), because libvips maps the photo file
// into memory to read it, which counts as resident (page cache) without being the service's own allocation.
// Used by the streaming test and by bench/photo.ts; it is not part of the service.
import { readFile, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import sharp from 'sharp'
import { createWsseHeader, readLinkFeed } from '../../src-protocol'
import type { ServiceProcess } from './service-process'

/** A JPEG of about `bytes` bytes (noise compresses badly, so its size is mostly pixels, as a camera's is). */
export async function makeLargeJpeg(bytes: number): Promise<Buffer> {
  // Noise at quality 100 without chroma subsampling takes about 2.7 bytes per pixel.
  const pixels = bytes / 2.7
  const width = Math.round(Math.sqrt(pixels * 1.5))
  const height = Math.round(width / 1.5)
  return sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .toBuffer()
}

/** The photo as the body of a gallery POST, its base64 in lines of 76 as most encoders write it. */
export function photoEntryBody(title: string, photo: Buffer): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="utf-8"?>\n<entry xmlns="http://purl.org/atom/ns#"><title>${title}</title>` +
      `<content mode="base64" type="image/jpeg">${photo.toString('base64').replace(/.{76}/g, '$&\n')}</content></entry>`,
  )
}

export function canMeasureMemory(): boolean {
  return process.platform === 'linux'
}

interface MemoryStatus {
  /** Resident memory now. */
  rss: number
  /** The most resident memory since start, or since the last resetPeak. */
  peak: number
  /** Resident anonymous memory now (heap, buffers; not mapped files). */
  anonymous: number
}

async function readStatus(pid: number): Promise<MemoryStatus> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const bytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN) * 1024
  return { rss: bytes('VmRSS'), peak: bytes('VmHWM'), anonymous: bytes('RssAnon') }
}

/** Sets the process's peak back to its current resident size (Linux ≥ 4.0; the process must be ours). */
async function resetPeak(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, '5')
}

export interface MeasuredRequest {
  status: number
  responseBody: string
  seconds: number
  /** Peak resident memory during the request minus resident memory before it. */
  peakGrowthBytes: number
  /** The highest anonymous memory seen (sampled every few milliseconds) minus that before the request. */
  anonymousGrowthBytes: number
}

/** POSTs `body` to `url` while watching the memory of process `pid`. */
export async function measurePost(
  pid: number,
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<MeasuredRequest> {
  await resetPeak(pid)
  const before = await readStatus(pid)
  let anonymousPeak = before.anonymous
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      anonymousPeak = Math.max(anonymousPeak, (await readStatus(pid)).anonymous)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  })()
  const started = process.hrtime.bigint()
  try {
    const { status, responseBody, sent } = await post(url, body, headers)
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    // A refusal can come before the body is read; the service reads (and drops) the rest after answering.
    await sent
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
    const after = await readStatus(pid)
    return {
      status,
      responseBody,
      seconds,
      peakGrowthBytes: after.peak - before.rss,
      anonymousGrowthBytes: Math.max(anonymousPeak, after.anonymous) - before.anonymous,
    }
  } finally {
    sampling = false
    await sampler
  }
}

/** POSTs the photo entry `body` to the demo user's first album of `service` and measures it. */
export async function measurePhotoPost(service: ServiceProcess, body: Buffer): Promise<MeasuredRequest> {
  const credentials = { username: service.sandbox.username, password: service.sandbox.apiPassword }
  const root = await fetch(`${service.url}/t/atom/gallery`, { headers: { 'X-WSSE': createWsseHeader(credentials) } })
  const album = readLinkFeed(await root.text(), service.url).find((link) => link.rel === 'service.post')
  if (!album) throw new Error('The demo user has no album to post to')
  return measurePost(service.pid, album.href, body, {
    'Content-Type': 'application/x.atom+xml',
    'X-WSSE': createWsseHeader(credentials),
  })
}

const SETTLE_MS = 250

/** A POST through node:http, which sends the body as it is; `sent` settles once the body is all sent. */
function post(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; responseBody: string; sent: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(body.length) } }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, responseBody: text, sent }))
    })
    const sent = new Promise<void>((done) => outgoing.on('finish', done).on('close', done))
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}
