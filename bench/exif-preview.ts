// EXIF preview of a 100-photo drop: the demo photos copied 100 times and padded with image-sized data to 3–8 MB each,
// as a camera's JPEGs are, so reading only the first chunk of each is what keeps it fast. Target ≤ 150 ms in total,
// reading at most 64 KB per photo. The files are in the page cache (just written), as a drop from a recent import is.
import { randomBytes } from 'node:crypto'
import { open, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readPhotoPreview, type PhotoPreview } from '../src-main/core/index'
import type { BenchRow } from './table'
import { median } from './stats'

const PHOTOS = 100
const MIB = 1024 * 1024
const DEMO_PHOTOS = join(import.meta.dirname, '..', 'resources', 'demo-photos')
const WARM_RUNS = 5

export async function runExifPreviewBench(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-exif-'))
  try {
    const paths = await makeDrop(dir)
    const first = await previewAll(paths)
    const warm: number[] = []
    let previews: PhotoPreview[] = first.previews
    for (let run = 0; run < WARM_RUNS; run++) {
      const measured = await previewAll(paths)
      warm.push(measured.ms)
      previews = measured.previews
    }
    if (previews.some((preview) => preview.takenAt === null || preview.width === null)) {
      throw new Error('A photo of the drop previewed without its EXIF date or its size.')
    }
    const bytesRead = previews.map((preview) => preview.bytesRead)
    const averageSize = previews.reduce((sum, preview) => sum + preview.size, 0) / previews.length
    return [
      { name: `EXIF preview, ${PHOTOS}-photo drop (${(averageSize / MIB).toFixed(1)} MiB JPEGs on average): total`, value: median(warm), unit: 'ms', target: '≤ 150 ms' },
      { name: `EXIF preview, ${PHOTOS}-photo drop, first after start (code not yet optimised)`, value: first.ms, unit: 'ms' },
      { name: 'EXIF preview: bytes read per photo, most', value: Math.max(...bytesRead) / 1024, unit: 'KiB', target: '≤ 64 KiB' },
      { name: 'EXIF preview: bytes read per photo, average', value: bytesRead.reduce((sum, bytes) => sum + bytes, 0) / bytesRead.length / 1024, unit: 'KiB' },
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The drop: each demo photo in turn, followed by filler up to a size between 3 and 8 MiB. */
async function makeDrop(dir: string): Promise<string[]> {
  const sources = (await readdir(DEMO_PHOTOS)).filter((name) => name.endsWith('.jpg')).sort()
  const photos = await Promise.all(sources.map((name) => readFile(join(DEMO_PHOTOS, name))))
  const filler = randomBytes(MIB) // incompressible, like the entropy-coded data that follows a JPEG's headers
  const paths: string[] = []
  for (let index = 0; index < PHOTOS; index++) {
    const photo = photos[index % photos.length]!
    const size = 3 * MIB + Math.round(((index * 37) % 100) / 100 * 5 * MIB)
    const path = join(dir, `IMG_${String(1000 + index)}.jpg`)
    const file = await open(path, 'w')
    try {
      await file.write(photo)
      for (let written = photo.length; written < size; written += filler.length) {
        await file.write(filler, 0, Math.min(filler.length, size - written))
      }
    } finally {
      await file.close()
    }
    paths.push(path)
  }
  return paths
}

async function previewAll(paths: string[]): Promise<{ ms: number; previews: PhotoPreview[] }> {
  const start = performance.now()
  const previews = await Promise.all(paths.map((path) => readPhotoPreview(path)))
  return { ms: performance.now() - start, previews }
}
