import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Store } from '../store'
import { RenderCache } from './render-cache'
import { openTestStore } from '../testing/postgres'

describe('RenderCache', () => {
  let dataDir: string
  let store: Store
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-render-cache-'))
    store = await openTestStore(dataDir)
  })
  afterEach(async () => {
    await store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const listing = async () => (await store.users.find('ana'))?.displayName ?? 'nobody'

  it('renders once while nothing is written, and again after any write', async () => {
    const cache = new RenderCache(store)
    const render = vi.fn(listing)
    expect(await cache.document('page', render)).toBe('nobody')
    expect(await cache.document('page', render)).toBe('nobody')
    expect(render).toHaveBeenCalledTimes(1)

    await store.users.add({ username: 'ana', displayName: 'Ana', loginPassword: 'login-pw-ana', apiPassword: 'api-pw-ana' })
    expect(await cache.document('page', render)).toBe('Ana')
    expect(render).toHaveBeenCalledTimes(2)
  })

  it('keeps each key apart and forgets the oldest beyond its size', async () => {
    const cache = new RenderCache(store, 2)
    const render = vi.fn(async (key: string) => `document ${key}`)
    for (const key of ['a', 'b', 'c']) await cache.document(key, () => render(key))
    expect(await cache.document('c', () => render('c'))).toBe('document c')
    expect(await cache.document('a', () => render('a'))).toBe('document a')
    expect(render.mock.calls.map(([key]) => key)).toEqual(['a', 'b', 'c', 'a'])
  })
})
