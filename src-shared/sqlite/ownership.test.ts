import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { claimDataFolder } from './ownership'

class InUse extends Error {
  constructor(readonly ownerPid: number) {
    super(`in use by ${ownerPid}`)
  }
}

/** A pid no process has: one that just exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await once(child, 'exit')
  return child.pid!
}

describe('the data-folder ownership lock', () => {
  let dir: string
  let ownerFile: string
  let databaseFile: string
  const claim = () =>
    claimDataFolder({ ownerFile, databaseFile, inUse: (pid) => new InUse(pid), notWritable: () => new Error('not writable') })
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-ownership-'))
    ownerFile = join(dir, 'owner.pid')
    databaseFile = join(dir, 'data.sqlite')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('names this process as the owner until released', () => {
    const ownership = claim()
    expect(readFileSync(ownerFile, 'utf8')).toBe(`${process.pid}\n`)
    ownership.release()
    expect(existsSync(ownerFile)).toBe(false)
  })

  it('refuses a second claim from this process until the first is released', () => {
    const ownership = claim()
    expect(claim).toThrow(new InUse(process.pid))
    ownership.release()
    claim().release()
  })

  it('refuses a folder a live process owns, leaving its pid file alone', () => {
    writeFileSync(ownerFile, `${process.ppid}\n`)
    expect(claim).toThrow(new InUse(process.ppid))
    expect(readFileSync(ownerFile, 'utf8')).toBe(`${process.ppid}\n`)
  })

  it('takes over from an owner that died, clearing the SQLite lock it left', async () => {
    writeFileSync(ownerFile, `${await deadPid()}\n`)
    mkdirSync(`${databaseFile}.lock`)
    const ownership = claim()
    expect(readFileSync(ownerFile, 'utf8')).toBe(`${process.pid}\n`)
    expect(existsSync(`${databaseFile}.lock`)).toBe(false)
    ownership.release()
  })

  it('takes over a pid file naming this process that it does not hold: left from before a restart', () => {
    writeFileSync(ownerFile, `${process.pid}\n`)
    claim().release()
  })

  it('takes over a pid file that names no process', () => {
    writeFileSync(ownerFile, 'garbage')
    claim().release()
  })
})
