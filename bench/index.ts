// `npm run bench`: every benchmark, one table. Ratios compare with a reference measured in the same run, because
// absolute times drift on shared machines.
import { runCodecBench } from './codec'
import { runEditorBench } from './editor'
import { runEnqueueBench } from './enqueue'
import { runEventsBench } from './events'
import { runExifPreviewBench } from './exif-preview'
import { runFeedBench } from './feed'
import { runFlushBench } from './flush'
import { runImageSizesBench } from './image-sizes'
import { runInstancesBench } from './instances'
import { runLiveBench } from './live'
import { runPhotoBench } from './photo'
import { runPreviewBench } from './preview'
import { runReconnectBench } from './reconnect'
import { runSearchBench } from './search'
import { runServiceBench } from './service'
import { runStartupBench } from './startup'
import { printTable, type BenchRow } from './table'
import { runThumbnailsBench } from './thumbnails'
import { runUploadBench } from './upload'

const suites: [string, () => Promise<BenchRow[]>][] = [
  ['Atom codec', runCodecBench],
  ['Service on loopback', runServiceBench],
  ['20 MB photo POST', runPhotoBench],
  ['JSON events stream', runEventsBench],
  ['Live feed: conditional polls and event streams', runLiveBench],
  ['50 MB photo upload by the Atom client', runUploadBench],
  ['Enqueue: one outbox insert', runEnqueueBench],
  ['EXIF preview of a 100-photo drop', runExifPreviewBench],
  ['Photo import: thumbnails in the image helper', runThumbnailsBench],
  ['Flush 1,000 queued posts', runFlushBench],
  ['Reconnect: server back → first queued post sent', runReconnectBench],
  ['Post editor: typing and opening long posts', runEditorBench],
  ['Startup with 1,000 drafts and 10,000 cached events', runStartupBench],
  ['Activity feed: 10,000 and 100,000 cached events', runFeedBench],
  ['Image sizes: images of a post scaled before upload', runImageSizesBench],
  ['Preview: a 10,000-word post in the weblog’s look', runPreviewBench],
  ['Search: 1,000 drafts and 5,000 cached posts', runSearchBench],
  ['Service on PostgreSQL: two instances behind haproxy, and a photo POST', runInstancesBench],
]

const only = process.argv.slice(2)
const rows: BenchRow[] = []
for (const [name, run] of suites) {
  if (only.length > 0 && !only.some((word) => name.toLowerCase().includes(word.toLowerCase()))) continue
  console.error(`running: ${name}…`)
  rows.push(...(await run()))
}
printTable(rows)
