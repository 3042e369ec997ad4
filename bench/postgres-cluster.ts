// A throwaway PostgreSQL cluster for benchmarks, started the way the tests start theirs (scripts/postgres.sh: a fresh
// folder, a free loopback port, removed at the end), but durable (fsync on), so PostgreSQL pays for durability as
// SQLite does. The script keeps the cluster while its command runs: here a process that prints the URL and waits.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const repoRoot = join(import.meta.dirname, '..')
const PRINT_URL_AND_WAIT = "console.log('cluster ' + process.env.BLOGDESK_TEST_POSTGRES_URL); setInterval(() => {}, 1 << 30)"

export interface PostgresCluster {
  /** postgres://blogdesk:…@127.0.0.1:PORT/blogdesk, a database the benchmark may use as it likes. */
  url: string
  stop(): Promise<void>
}

/** Starts the cluster; rejects with scripts/postgres.sh's own words when PostgreSQL is missing or does not start. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const script = spawn('bash', ['scripts/postgres.sh', process.execPath, '-e', PRINT_URL_AND_WAIT], {
    cwd: repoRoot,
    env: { ...process.env, BLOGDESK_POSTGRES_DURABLE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const said: string[] = []
  script.stderr.setEncoding('utf8').on('data', (chunk: string) => said.push(chunk))
  const exited = once(script, 'exit')
  const url = await new Promise<string | null>((resolve) => {
    createInterface({ input: script.stdout }).on('line', (line) => {
      if (line.startsWith('cluster ')) resolve(line.slice('cluster '.length))
    })
    void exited.then(() => resolve(null))
  })
  if (!url) throw new Error(`The benchmark's PostgreSQL cluster did not start:\n${said.join('').trim()}`)
  return {
    url,
    stop: async () => {
      // The script passes the signal on to its command, then stops the cluster and removes its folder.
      script.kill('SIGTERM')
      await exited
    },
  }
}
