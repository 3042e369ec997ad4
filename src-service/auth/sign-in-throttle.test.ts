import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import type { Store } from '../store'
import { dropTestDatabase, openTestStore } from '../testing/postgres'
import { FREE_FAILURES, SignInThrottle } from './sign-in-throttle'

const MINUTE = 60_000

let dataDir: string
let store: Store
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-throttle-'))
  store = await openTestStore(dataDir)
})
afterEach(async () => {
  await store.close()
  await dropTestDatabase(dataDir)
  rmSync(dataDir, { recursive: true, force: true })
})

function throttleAt(start: number) {
  const clock = { now: start }
  return { clock, throttle: new SignInThrottle(store.signInFailures, () => clock.now) }
}

test('after the free failures each attempt waits a pause that doubles, up to 15 minutes', async () => {
  const { clock, throttle } = throttleAt(1_000_000)
  for (let failure = 0; failure < FREE_FAILURES.account; failure++) expect((await throttle.attempt('Melody', 'a')).allowed).toBe(true)
  expect(await throttle.attempt('melody', 'b')).toEqual({ allowed: false, pausedBy: 'account', pausedForMs: MINUTE })
  const pauses: number[] = []
  for (let round = 0; round < 6; round++) {
    const verdict = await throttle.attempt('melody', 'b')
    if (verdict.allowed) throw new Error('let through during a pause')
    pauses.push(verdict.pausedForMs)
    clock.now += verdict.pausedForMs
    expect((await throttle.attempt('melody', 'b')).allowed).toBe(true)
  }
  expect(pauses).toEqual([1, 2, 4, 8, 15, 15].map((minutes) => minutes * MINUTE))
})

test('the right password forgets the account’s failures, but still counts the address’s others', async () => {
  const { throttle } = throttleAt(1_000_000)
  for (let failure = 0; failure < FREE_FAILURES.account - 1; failure++) await throttle.attempt('melody', 'a')
  const verdict = await throttle.attempt('melody', 'a')
  if (!verdict.allowed) throw new Error('paused too early')
  await verdict.attempt.succeeded()
  expect(await throttle.attempt('melody', 'a')).toMatchObject({ allowed: true, attempt: { accountFailures: 1 } })
  for (let failure = 0; failure < FREE_FAILURES.address - FREE_FAILURES.account; failure++) await throttle.attempt(`other ${failure}`, 'a')
  expect(await throttle.attempt('ivy', 'a')).toMatchObject({ allowed: false, pausedBy: 'address' })
  expect((await throttle.attempt('ivy', 'b')).allowed).toBe(true)
})

test('an attempt held back by its address is not counted against the account', async () => {
  const { throttle } = throttleAt(1_000_000)
  for (let failure = 0; failure < FREE_FAILURES.address; failure++) await throttle.attempt(`other ${failure}`, 'a')
  for (let refused = 0; refused < FREE_FAILURES.account; refused++) {
    expect(await throttle.attempt('melody', 'a')).toMatchObject({ allowed: false, pausedBy: 'address' })
  }
  expect(await throttle.attempt('melody', 'b')).toMatchObject({ allowed: true, attempt: { accountFailures: 1 } })
})

test('attempts sent together are counted one after the other: no more slip through than are free', async () => {
  const { throttle } = throttleAt(1_000_000)
  const verdicts = await Promise.all(Array.from({ length: 3 * FREE_FAILURES.account }, () => throttle.attempt('melody', 'a')))
  expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(FREE_FAILURES.account)
})

test('failures are forgotten after an hour without another', async () => {
  const { clock, throttle } = throttleAt(1_000_000)
  for (let failure = 0; failure < FREE_FAILURES.account; failure++) await throttle.attempt('melody', 'a')
  clock.now += 60 * MINUTE + 1
  expect(await throttle.attempt('melody', 'a')).toMatchObject({ allowed: true, attempt: { accountFailures: 1 } })
})

test('an attempt timed just before the last counted failure is not held while the free failures last', async () => {
  // Attempts sent together each read the clock before waiting for the account's row, so they can arrive out of order.
  const { clock, throttle } = throttleAt(1_000_000)
  expect((await throttle.attempt('melody', 'a')).allowed).toBe(true)
  clock.now -= 5
  expect((await throttle.attempt('melody', 'a')).allowed).toBe(true)
})
