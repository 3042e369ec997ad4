import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SqliteEngine } from './sqlite-engine'

// A table of its own, so the tests say nothing about the service's schema.
const schema = [{ version: 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)' }]

/** Resolves after a few turns of the event loop: long enough for anything runnable to have run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 5))

describe('the SQLite engine', () => {
  let dir: string
  let engine: SqliteEngine
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-engine-'))
    engine = SqliteEngine.open(join(dir, 'test.sqlite'), schema)
  })
  afterEach(async () => {
    await engine.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const add = (text: string) => engine.run('INSERT INTO notes (text) VALUES (:text)', { ':text': text })
  const texts = async () => (await engine.all('SELECT text FROM notes ORDER BY id')).map((row) => row['text'])

  it('reads back the id of an insert, and counts changed rows and possible writes', async () => {
    const writes = engine.writes
    const row = await engine.get("INSERT INTO notes (text) VALUES ('a') RETURNING id")
    expect(row).toEqual({ id: 1 })
    await add('b')
    expect(await engine.run("UPDATE notes SET text = 'c'")).toBe(2)
    await engine.all('SELECT * FROM notes')
    expect(engine.writes - writes).toBe(3)
  })

  it('keeps two concurrent transactions apart: the second begins once the first has committed', async () => {
    const order: string[] = []
    let releaseFirst!: () => void
    const firstMayFinish = new Promise<void>((resolve) => (releaseFirst = resolve))
    const first = engine.transaction(async () => {
      await add('first 1')
      order.push('first wrote')
      await firstMayFinish
      await add('first 2')
      order.push('first done')
    })
    const second = engine.transaction(async () => {
      order.push('second began')
      await add('second')
      throw new Error('second fails')
    })
    await settle()
    expect(order).toEqual(['first wrote'])
    releaseFirst()
    await first
    await expect(second).rejects.toThrow('second fails')
    expect(order).toEqual(['first wrote', 'first done', 'second began'])
    // The second's rollback took only its own write.
    expect(await texts()).toEqual(['first 1', 'first 2'])
  })

  it('makes statements from outside wait until the open transaction has rolled back, and never join it', async () => {
    let fail!: () => void
    const failing = new Promise<void>((_, reject) => (fail = () => reject(new Error('changed my mind'))))
    const transaction = engine.transaction(async () => {
      await add('inside')
      await failing
    })
    await settle()
    let outsideRead: unknown[] | null = null
    const outside = add('outside').then(async () => (outsideRead = await texts()))
    await settle()
    expect(outsideRead).toBeNull()
    fail()
    await expect(transaction).rejects.toThrow('changed my mind')
    await outside
    expect(outsideRead).toEqual(['outside'])
  })

  it('follows a transaction through its awaits, timers included, however deep', async () => {
    await engine.transaction(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1))
      await Promise.all([add('a'), (async () => add(await Promise.resolve('b')))()])
    })
    expect(await texts()).toEqual(['a', 'b'])
  })

  it('rolls back exactly the nested level that throws', async () => {
    await engine.transaction(async () => {
      await add('outer')
      await engine.transaction(async () => {
        await add('kept inner')
        await expect(
          engine.transaction(async () => {
            await add('undone innermost')
            throw new Error('innermost fails')
          }),
        ).rejects.toThrow('innermost fails')
        expect(await texts()).toEqual(['outer', 'kept inner'])
      })
      await expect(
        engine.transaction(async () => {
          await add('undone inner')
          throw new Error('inner fails')
        }),
      ).rejects.toThrow('inner fails')
      await add('outer again')
    })
    expect(await texts()).toEqual(['outer', 'kept inner', 'outer again'])
  })

  it('undoes nested levels that succeeded when their transaction throws', async () => {
    await expect(
      engine.transaction(async () => {
        await engine.transaction(() => add('inner'))
        throw new Error('outer fails')
      }),
    ).rejects.toThrow('outer fails')
    expect(await texts()).toEqual([])
  })

  it('runs nested transactions started together one after the other', async () => {
    await engine.transaction(async () => {
      const failing = engine.transaction(async () => {
        await add('one')
        await settle()
        throw new Error('one fails')
      })
      const succeeding = engine.transaction(async () => {
        await add('two')
      })
      await expect(failing).rejects.toThrow('one fails')
      await succeeding
    })
    expect(await texts()).toEqual(['two'])
  })

  it('closes once the open transaction has ended', async () => {
    let finish!: () => void
    const transaction = engine.transaction(async () => {
      await add('last')
      await new Promise<void>((resolve) => (finish = resolve))
    })
    await settle()
    const closing = engine.close()
    await settle()
    expect(engine.isOpen).toBe(true)
    finish()
    await transaction
    await closing
    expect(engine.isOpen).toBe(false)
    engine = SqliteEngine.open(join(dir, 'test.sqlite'), schema)
    expect(await texts()).toEqual(['last'])
  })
})
