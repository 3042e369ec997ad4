import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { testCipher } from '../testing/core-fixture'
import { FileVault } from './vault'

describe('FileVault', () => {
  let dir: string
  let file: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-vault-'))
    file = join(dir, 'nested', 'secrets.bin')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps a secret across instances without writing it in the clear', async () => {
    await new FileVault(file, testCipher).set('account:1:api-password', 'correct horse battery')
    expect(await new FileVault(file, testCipher).get('account:1:api-password')).toBe('correct horse battery')
    expect(readFileSync(file, 'utf8')).not.toContain('correct horse')
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('answers null for a secret it never had, and forgets a deleted one', async () => {
    const vault = new FileVault(file, testCipher)
    expect(await vault.get('nothing')).toBeNull()
    await vault.set('a', 'one')
    await vault.delete('a')
    expect(await vault.get('a')).toBeNull()
  })

  it('loses no update when many are made at once', async () => {
    const vault = new FileVault(file, testCipher)
    await Promise.all(Array.from({ length: 25 }, (_, i) => vault.set(`key-${i}`, `secret-${i}`)))
    const reread = new FileVault(file, testCipher)
    for (let i = 0; i < 25; i++) expect(await reread.get(`key-${i}`)).toBe(`secret-${i}`)
  })
})
