// `--database postgres://USER:PASS@HOST:PORT/DB`: the service's data in PostgreSQL instead of the SQLite file in its
// data dir. Read here, so the command line and the store agree on what a usable URL is.
import { SetupError } from '../setup-error'

/** The flag as server.ts's table of flags declares each one. */
export const DATABASE_FLAG = {
  type: 'string',
  value: '<url>',
  help: 'keep the data in PostgreSQL (postgres://USER:PASS@HOST:PORT/DB) instead of SQLite in the data dir',
} as const

/** The URL, checked: a PostgreSQL scheme, a host and a database name. Messages never repeat the password. */
export function parseDatabaseUrl(text: string): string {
  const example = 'postgres://USER:PASS@HOST:PORT/DB'
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new SetupError(`--database is not a URL; give PostgreSQL's as ${example}`)
  }
  url.password = url.password ? '***' : ''
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new SetupError(`--database ${url.toString()} is not a PostgreSQL URL; give it as ${example}`)
  }
  if (!url.hostname) throw new SetupError(`--database ${url.toString()} names no host; give it as ${example}`)
  if (url.pathname.length <= 1) throw new SetupError(`--database ${url.toString()} names no database; give it as ${example}`)
  return text
}
