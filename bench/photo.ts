// A 20 MB photo POST over loopback to the service running as a child process: throughput, and the service's peak
// resident memory growth as a ratio to the photo's size (target ≤ 1×: the base64 is decoded as it streams in, so
// neither the body nor the decoded photo is ever held). Measured on a fresh service (its first request) and on a
// warmed one, with a reference: the same body sent to an address that does not read it, which shows what Node's
// own socket buffers cost before the garbage collector frees them.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { canMeasureMemory, makeLargeJpeg, measurePhotoPost, measurePost, photoEntryBody, type MeasuredRequest } from '../src-service/testing/photo-post-probe'
import { startServiceProcess, type ServiceProcess } from '../src-service/testing/service-process'
import type { BenchRow } from './table'

const PHOTO_BYTES = 20 * 1024 * 1024
const MIB = 1024 * 1024

export async function runPhotoBench(): Promise<BenchRow[]> {
  if (!canMeasureMemory()) return []
  const photo = await makeLargeJpeg(PHOTO_BYTES)
  const body = photoEntryBody('Benchmark photo', photo)
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-photo-'))
  try {
    const { cold, warm } = await withService(join(dir, 'photos'), async (service) => {
      const first = await checked(measurePhotoPost(service, body))
      await checked(measurePhotoPost(service, body))
      return { cold: first, warm: await checked(measurePhotoPost(service, body)) }
    })
    const drain = await withService(join(dir, 'drain'), (service) =>
      measurePost(service.pid, `${service.url}/nothing-reads-this`, body, { 'Content-Type': 'application/x.atom+xml' }),
    )
    const photoMiB = photo.length / MIB
    const growth = growthRow(photo.length)
    return [
      { name: `photo POST (${photoMiB.toFixed(1)} MiB JPEG, ${(body.length / MIB).toFixed(1)} MiB body): throughput`, value: photoMiB / warm.seconds, unit: 'MiB/s' },
      growth('photo POST, warmed service: peak RSS growth', warm.peakGrowthBytes, '≤ 1× the photo'),
      growth('photo POST, warmed service: anonymous memory growth', warm.anonymousGrowthBytes),
      growth('photo POST, fresh service: peak RSS growth', cold.peakGrowthBytes),
      growth('photo POST, fresh service: anonymous memory growth', cold.anonymousGrowthBytes),
      growth('same body to an address that never reads it, fresh service', drain.peakGrowthBytes),
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function withService<T>(dataDir: string, work: (service: ServiceProcess) => Promise<T>): Promise<T> {
  const service = await startServiceProcess(dataDir)
  try {
    return await work(service)
  } finally {
    await service.stop()
  }
}

/** The measured POST, which must have made the photo. */
export async function checked(measuring: Promise<MeasuredRequest>): Promise<MeasuredRequest> {
  const measured = await measuring
  if (measured.status !== 201) throw new Error(`The photo POST answered ${measured.status}: ${measured.responseBody}`)
  return measured
}

/** A row of memory growth in MiB, its ratio to the photo's size. */
export function growthRow(photoBytes: number) {
  return (name: string, bytes: number, target?: string): BenchRow => ({
    name,
    value: bytes / MIB,
    unit: 'MiB',
    ratio: bytes / photoBytes,
    ...(target ? { target } : {}),
  })
}
