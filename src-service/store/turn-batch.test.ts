import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Store } from '.'
import { openTestStore } from '../testing/postgres'
import { SqliteEngine } from './sqlite-engine'
import { TurnBatch } from './turn-batch'

describe('look-ups made in one turn', () => {
  let dataDir: string
  let engine: SqliteEngine
  let sent: string[][]
  let batch: TurnBatch<string, string>
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-turn-batch-'))
    engine = SqliteEngine.open(join(dataDir, 'db.sqlite'))
    sent = []
    batch = new TurnBatch(engine, async (keys) => {
      sent.push([...keys])
      const rows = await engine.all('SELECT upper(value) AS answer FROM json_each(:keys) ORDER BY key', { ':keys': JSON.stringify(keys) })
      return rows.map((row) => String(row['answer']))
    })
  })
  afterEach(async () => {
    await engine.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('share one statement, each answered with its own value; the next turn sends its own', async () => {
    expect(await Promise.all(['ana', 'ben', 'ana'].map((key) => batch.get(key)))).toEqual(['ANA', 'BEN', 'ANA'])
    expect(await batch.get('cy')).toBe('CY')
    expect(sent).toEqual([['ana', 'ben', 'ana'], ['cy']])
  })

  it('go 128 to a statement when more are asked at once', async () => {
    const keys = Array.from({ length: 300 }, (_, n) => `k${n}`)
    expect(await Promise.all(keys.map((key) => batch.get(key)))).toEqual(keys.map((key) => key.toUpperCase()))
    expect(sent.map((keys) => keys.length)).toEqual([128, 128, 44])
  })

  it('all fail with the statement that answered them, and the next turn is answered afresh', async () => {
    const failing = new TurnBatch<string, string>(engine, async () => {
      await engine.all('SELECT * FROM no_such_table')
      return []
    })
    const results = await Promise.allSettled([failing.get('a'), failing.get('b')])
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected'])
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('no_such_table')
    expect(await batch.get('after')).toBe('AFTER')
  })

  it('are answered alone inside a transaction, in it, rather than wait for it to end', async () => {
    const answered = await engine.transaction(() => batch.get('inside'))
    expect(answered).toBe('INSIDE')
  })
})

describe("users' accounts looked up together", () => {
  let dataDir: string
  let store: Store
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-accounts-'))
    store = await openTestStore(dataDir)
    await store.users.add({ username: 'ana', displayName: 'Ana', loginPassword: 'login-pw-ana', apiPassword: 'api-pw-ana' })
  })
  afterEach(async () => {
    await store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('each get their own: a user, nobody for an unknown name or another spelling', async () => {
    const [ana, nobody, otherSpelling] = await Promise.all(['ana', 'zed', 'ANA'].map((name) => store.users.wsseAccountOf(name)))
    expect(ana).toMatchObject({ apiPassword: 'api-pw-ana', account: { username: 'ana', displayName: 'Ana' } })
    expect(nobody).toBeNull()
    expect(otherSpelling).toBeNull()
  })

  it('inside a transaction include the user it has just added', async () => {
    const found = await store.transaction(async () => {
      await store.users.add({ username: 'ben', displayName: 'Ben', loginPassword: 'login-pw-ben', apiPassword: 'api-pw-ben' })
      return store.users.wsseAccountOf('ben')
    })
    expect(found?.apiPassword).toBe('api-pw-ben')
  })
})
