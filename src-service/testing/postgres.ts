// The service's tests on PostgreSQL. `scripts/postgres.sh` (which `npm test` and CI go through) starts a throwaway
// cluster and names it in BLOGDESK_TEST_POSTGRES_URL; BLOGDESK_TEST_ENGINE=postgres runs the service's tests on it
// instead of SQLite. Each test store gets a database of its own, created here and dropped after.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export const POSTGRES_URL_VARIABLE = 'BLOGDESK_TEST_POSTGRES_URL'

export type TestEngine = 'sqlite' | 'postgres'

/** The engine the service's tests run on: `BLOGDESK_TEST_ENGINE` (`sqlite` when unset). */
export function testEngine(): TestEngine {
  const engine = process.env['BLOGDESK_TEST_ENGINE'] ?? 'sqlite'
  if (engine !== 'sqlite' && engine !== 'postgres') {
    throw new Error(`BLOGDESK_TEST_ENGINE is "${engine}": use sqlite or postgres.`)
  }
  if (engine === 'postgres') postgresTestUrl()
  return engine
}

/** The throwaway cluster's URL; a test that needs PostgreSQL fails here, loudly, when there is none. */
export function postgresTestUrl(): string {
  const url = process.env[POSTGRES_URL_VARIABLE]
  if (!url) {
    throw new Error(
      `${POSTGRES_URL_VARIABLE} is not set, and this test needs PostgreSQL. Run it through the throwaway cluster: ` +
        '`bash scripts/postgres.sh npx vitest run <files>` (npm test and CI do).',
    )
  }
  return url
}

export interface TestDatabase {
  /** The new database's URL, as `--database` takes it. */
  url: string
  /** Drops the database, ending whatever connections are still open to it. */
  drop(): Promise<void>
}

/** A fresh, empty database on the throwaway cluster, with a name no other test (or test process) uses. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const clusterUrl = postgresTestUrl()
  const name = `blogdesk_test_${process.pid}_${randomBytes(6).toString('hex')}`
  await onCluster(clusterUrl, (client) => client.query(`CREATE DATABASE ${name}`))
  const url = new URL(clusterUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => onCluster(clusterUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  }
}

async function onCluster(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await work(client)
  } finally {
    await client.end()
  }
}
