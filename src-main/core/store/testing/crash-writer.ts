// A child process for the crash tests: `crash-writer.ts <database file> <batch size>` opens the store and commits
// batches of drafts until it is killed. Each batch is one transaction of <batch size> drafts sharing a weblog URI;
// "committed <n>" is printed after each commit, so the parent knows which batches were acknowledged before the kill.
import { Drafts, LocalStore } from '..'

const ACCOUNT_ID = 'crash-test-account'
const [file, batchSizeArgument] = process.argv.slice(2)
const batchSize = Number(batchSizeArgument)
if (!file || !Number.isInteger(batchSize) || batchSize < 1) throw new Error('usage: crash-writer.ts <database file> <batch size>')
const store = LocalStore.open(file)
store.run(
  `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
   VALUES (:id, 'http://127.0.0.1', 'http://127.0.0.1/t/atom/weblog', 'crash', '2026-01-01T00:00:00.000Z')
   ON CONFLICT DO NOTHING`,
  { id: ACCOUNT_ID },
)
const drafts = new Drafts(store)
let batch = Number(store.get('SELECT COUNT(DISTINCT weblog_post_uri) AS batches FROM drafts')?.['batches'] ?? 0)
const content = `<p>${'All work and no play makes Jack a dull boy. '.repeat(100)}</p>`
process.stdout.write('ready\n')
for (;;) {
  batch++
  store.transaction(() => {
    for (let index = 0; index < batchSize; index++) {
      drafts.create({ accountId: ACCOUNT_ID, weblogPostUri: `batch-${batch}`, title: `${batch}.${index}`, content })
    }
  })
  process.stdout.write(`committed ${batch}\n`)
  await new Promise((resolve) => setImmediate(resolve)) // lets the output reach the parent where pipes are asynchronous
}
