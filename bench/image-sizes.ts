// Images of a post sent at the width they are shown (the `web-size` image job, run by the sync engine before an
// upload): what scaling the demo photos (1,200 × 800 JPEGs) to 400 and 600 px costs, against the reference of the
// editor's preview of the same photos made in the same run, and how many of the original's bytes go up instead.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runImageJob } from '../src-main/core'
import type { BenchRow } from './table'
import { median } from './stats'

const RUNS = 7
const WIDTHS = [400, 600]
const DEMO_PHOTOS = join(import.meta.dirname, '..', 'resources', 'demo-photos')

export async function runImageSizesBench(): Promise<BenchRow[]> {
  const photos = readdirSync(DEMO_PHOTOS).filter((name) => name.endsWith('.jpg')).map((name) => join(DEMO_PHOTOS, name))
  const scratch = mkdtempSync(join(tmpdir(), 'blogdesk-image-sizes-'))
  try {
    const time = async (job: (path: string, index: number) => Promise<unknown>) => {
      const start = performance.now()
      for (const [index, path] of photos.entries()) await job(path, index)
      return performance.now() - start
    }
    // A preview as the editor asks for it: the photo scaled and re-encoded (not shown as it is).
    const preview = (path: string) => runImageJob({ kind: 'editor-preview', path, type: 'image/jpeg', size: Number.MAX_SAFE_INTEGER })
    const sized = (width: number) => (path: string, index: number) =>
      runImageJob({ kind: 'web-size', path, type: 'image/jpeg', width, target: join(scratch, `${index}-${width}.jpg`) })
    await time(preview)
    const rows: BenchRow[] = []
    const reference: number[] = []
    const measured = new Map<number, number[]>(WIDTHS.map((width) => [width, []]))
    for (let run = 0; run < RUNS; run++) {
      reference.push(await time(preview))
      for (const width of WIDTHS) measured.get(width)!.push(await time(sized(width)))
    }
    const originalBytes = photos.reduce((sum, path) => sum + statSync(path).size, 0)
    for (const width of WIDTHS) {
      const bytes = photos.reduce((sum, _path, index) => sum + statSync(join(scratch, `${index}-${width}.jpg`)).size, 0)
      rows.push({ name: `${photos.length} photos scaled to ${width} px for upload`, value: median(measured.get(width)!), unit: 'ms', ratio: median(measured.get(width)!) / median(reference), target: '≤ 1× reference' })
      rows.push({ name: `bytes sent at ${width} px, of the originals'`, value: bytes / 1024, unit: 'KiB', ratio: bytes / originalBytes, target: '< 1× originals' })
    }
    rows.push({ name: "reference: the editor's previews of the same photos", value: median(reference), unit: 'ms' })
    return rows
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
