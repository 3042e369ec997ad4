import { expect, test } from 'vitest'
import { UsedNonces } from './used-nonces'

test('a nonce counts as used until it expires, then not', () => {
  const nonces = new UsedNonces(10, 1000)
  expect(nonces.use('a', 500, 0)).toBe(false)
  expect(nonces.use('a', 500, 500)).toBe(true)
  expect(nonces.use('a', 500, 501)).toBe(false)
})

test('a nonce whose expiry has already passed is not stored at all', () => {
  const nonces = new UsedNonces(10, 1000)
  expect(nonces.use('stale', 99, 100)).toBe(false)
  expect(nonces.size).toBe(0)
})

test('expired nonces are swept out as time passes, not only when the cap is reached', () => {
  const nonces = new UsedNonces(1000, 100)
  for (let index = 0; index < 50; index++) nonces.use(`n${index}`, 150, 0)
  expect(nonces.size).toBe(50)
  nonces.use('later', 10_000, 200)
  expect(nonces.size).toBe(1)
})

test('never more than the capacity, dropping the longest-held first', () => {
  const nonces = new UsedNonces(3, 1000)
  for (const key of ['a', 'b', 'c', 'd', 'e']) nonces.use(key, 10_000, 0)
  expect(nonces.size).toBe(3)
  expect(nonces.use('a', 10_000, 1)).toBe(false)
  expect(nonces.use('e', 10_000, 1)).toBe(true)
})

test('using a nonce again keeps it the longest and moves it to the back of the queue', () => {
  const nonces = new UsedNonces(2, 1000)
  nonces.use('a', 500, 0)
  nonces.use('b', 10_000, 0)
  expect(nonces.use('a', 100, 1)).toBe(true)
  nonces.use('c', 10_000, 2)
  expect(nonces.use('a', 10_000, 400)).toBe(true)
  expect(nonces.use('b', 10_000, 401)).toBe(false)
})
