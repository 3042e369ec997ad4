import { expect, test } from 'vitest'
import { seededRandom } from './seeded-random'
import { UsedNonces } from './used-nonces'

test('a nonce counts as used until it expires, then may be recorded again', () => {
  const nonces = new UsedNonces(10, 1000)
  expect(nonces.record('melody', 'a', 500, 0)).toEqual({ kind: 'recorded' })
  expect(nonces.record('melody', 'a', 500, 500)).toEqual({ kind: 'replayed' })
  expect(nonces.record('melody', 'a', 900, 501)).toEqual({ kind: 'recorded' })
})

test('nonces are per user: another user may spend the same one', () => {
  const nonces = new UsedNonces(10, 1000)
  nonces.record('melody', 'a', 500, 0)
  expect(nonces.record('ivy', 'a', 500, 0)).toEqual({ kind: 'recorded' })
})

test('a full share is refused, never made room for by forgetting a nonce that has not expired', () => {
  const nonces = new UsedNonces(3, 1000)
  for (const key of ['a', 'b', 'c']) expect(nonces.record('melody', key, 10_000 + key.charCodeAt(0), 0).kind).toBe('recorded')
  expect(nonces.record('melody', 'd', 10_000, 1)).toEqual({ kind: 'full', freeAt: 10_000 + 'a'.charCodeAt(0) + 1 })
  for (const key of ['a', 'b', 'c']) expect(nonces.record('melody', key, 10_000, 2).kind).toBe('replayed')
  // Other users have their own share.
  expect(nonces.record('ivy', 'd', 10_000, 3).kind).toBe('recorded')
})

test('once the oldest nonce expires, its room is given to the next', () => {
  const nonces = new UsedNonces(2, 1_000_000)
  nonces.record('melody', 'a', 100, 0)
  nonces.record('melody', 'b', 10_000, 0)
  expect(nonces.record('melody', 'c', 10_000, 100).kind).toBe('full')
  expect(nonces.record('melody', 'c', 10_000, 101).kind).toBe('recorded')
  expect(nonces.record('melody', 'b', 10_000, 102).kind).toBe('replayed')
})

test('expired nonces, and users left without any, are swept out as time passes', () => {
  const nonces = new UsedNonces(1000, 100)
  for (let index = 0; index < 50; index++) nonces.record(`user ${index % 5}`, `n${index}`, 150, 0)
  expect(nonces.size).toBe(50)
  nonces.record('later', 'x', 10_000, 200)
  expect(nonces.size).toBe(1)
})

test('a share held full costs the same per request whatever its size (×1, ×2, ×4), as its oldest nonces expire one by one', { timeout: 60_000, retry: 2 }, () => {
  // A user whose client keeps the share at its bound: each request finds one nonce expired and records one more.
  const steadyAtTheBound = (capacity: number) => {
    const nonces = new UsedNonces(capacity, Number.POSITIVE_INFINITY)
    for (let index = 0; index < capacity; index++) nonces.record('melody', `old ${index}`, 1_000 + index, 0)
    return () => {
      for (let step = 0; step < 2_000; step++) {
        const now = 1_001 + step
        expect(nonces.record('melody', `new ${step}`, now + capacity, now).kind).toBe('recorded')
      }
    }
  }
  const sizes = [4_000, 8_000, 16_000]
  const best = sizes.map(() => Number.POSITIVE_INFINITY)
  for (let round = 0; round < 7; round++) {
    sizes.forEach((capacity, index) => {
      const run = steadyAtTheBound(capacity)
      const start = performance.now()
      run()
      best[index] = Math.min(best[index]!, performance.now() - start)
    })
  }
  const [one = 1, , four = 0] = best
  // A scan of the share per request would take about 4 times as long at ×4.
  expect(four / one).toBeLessThan(2)
})

test('answers as a plain list of every live nonce would, over a long random run of users, replays and expiries', () => {
  // The model: each user's live nonces in a map, every expired one dropped before each answer.
  const capacity = 5
  const model = new Map<string, Map<string, number>>()
  const answerOfModel = (user: string, nonce: string, expiresAt: number, now: number) => {
    const nonces = model.get(user) ?? new Map<string, number>()
    model.set(user, nonces)
    if ((nonces.get(nonce) ?? Number.NEGATIVE_INFINITY) >= now) return { kind: 'replayed' }
    for (const [held, expiry] of nonces) if (expiry < now) nonces.delete(held)
    if (nonces.size >= capacity) return { kind: 'full', freeAt: Math.min(...nonces.values()) + 1 }
    nonces.set(nonce, expiresAt)
    return { kind: 'recorded' }
  }
  const ledger = new UsedNonces(capacity, 50)
  const next = seededRandom(7)
  const random = (below: number) => Math.floor(next() * below)
  let now = 0
  for (let step = 0; step < 20_000; step++) {
    now += random(4)
    const user = `user ${random(3)}`
    const nonce = `n${random(12)}`
    const expiresAt = now + 1 + random(60)
    expect(ledger.record(user, nonce, expiresAt, now), `step ${step}`).toEqual(answerOfModel(user, nonce, expiresAt, now))
  }
})
