// A sync engine in a process of its own, for the crash-safety test: `node --import tsx sync-worker.ts <data dir>
// <seed>` opens the store in the data dir (one account, operations queued), prints `started`, sends until the
// outbox is drained, prints `drained <counts>` and exits. The test kills it with SIGKILL at random moments.
import { seededRandom } from '../../../src-protocol/seeded-random'
import { openSyncFixture } from './sync-fixture'

const [dataDir, seed] = process.argv.slice(2)
if (dataDir === undefined || seed === undefined) throw new Error('usage: sync-worker.ts <data dir> <seed>')

const fixture = await openSyncFixture({ dataDir })
const engine = fixture.engine({ concurrency: 2, random: seededRandom(Number(seed)), retry: { baseMs: 10, capMs: 100 } })
process.stdout.write('started\n')
await engine.drain()
const counts = engine.counts()
await fixture.close()
process.stdout.write(`drained ${JSON.stringify(counts)}\n`)
