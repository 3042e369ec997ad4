// `npm run bench`: every benchmark, one table. Ratios compare with a reference measured in the same run, because
// absolute times drift on shared machines.
import { runCodecBench } from './codec'
import { runEventsBench } from './events'
import { runPhotoBench } from './photo'
import { runServiceBench } from './service'
import { printTable, type BenchRow } from './table'

const suites: [string, () => Promise<BenchRow[]>][] = [
  ['Atom codec', runCodecBench],
  ['Service on loopback', runServiceBench],
  ['20 MB photo POST', runPhotoBench],
  ['JSON events stream', runEventsBench],
]

const only = process.argv.slice(2)
const rows: BenchRow[] = []
for (const [name, run] of suites) {
  if (only.length > 0 && !only.some((word) => name.toLowerCase().includes(word.toLowerCase()))) continue
  console.error(`running: ${name}…`)
  rows.push(...(await run()))
}
printTable(rows)
