import { expect, test } from 'vitest'
import { FREE_FAILURES, SignInThrottle } from './sign-in-throttle'

const MINUTE = 60_000

function throttleAt(start: number) {
  const clock = { now: start }
  return { clock, throttle: new SignInThrottle(() => clock.now) }
}

test('after the free failures each attempt waits a pause that doubles, up to 15 minutes', () => {
  const { clock, throttle } = throttleAt(0)
  for (let failure = 0; failure < FREE_FAILURES.account; failure++) expect(throttle.attempt('Melody', 'a').allowed).toBe(true)
  expect(throttle.attempt('melody', 'b')).toEqual({ allowed: false, pausedBy: 'account', pausedForMs: MINUTE })
  const pauses: number[] = []
  for (let round = 0; round < 6; round++) {
    const verdict = throttle.attempt('melody', 'b')
    if (verdict.allowed) throw new Error('let through during a pause')
    pauses.push(verdict.pausedForMs)
    clock.now += verdict.pausedForMs
    expect(throttle.attempt('melody', 'b').allowed).toBe(true)
  }
  expect(pauses).toEqual([1, 2, 4, 8, 15, 15].map((minutes) => minutes * MINUTE))
})

test('the right password forgets the account’s failures, but still counts the address’s others', () => {
  const { throttle } = throttleAt(0)
  for (let failure = 0; failure < FREE_FAILURES.account - 1; failure++) throttle.attempt('melody', 'a')
  const verdict = throttle.attempt('melody', 'a')
  if (!verdict.allowed) throw new Error('paused too early')
  verdict.attempt.succeeded()
  expect(throttle.attempt('melody', 'a')).toMatchObject({ allowed: true, attempt: { accountFailures: 1 } })
  for (let failure = 0; failure < FREE_FAILURES.address - FREE_FAILURES.account; failure++) throttle.attempt(`other ${failure}`, 'a')
  expect(throttle.attempt('ivy', 'a')).toMatchObject({ allowed: false, pausedBy: 'address' })
  expect(throttle.attempt('ivy', 'b').allowed).toBe(true)
})

test('failures are forgotten after an hour without another', () => {
  const { clock, throttle } = throttleAt(0)
  for (let failure = 0; failure < FREE_FAILURES.account; failure++) throttle.attempt('melody', 'a')
  clock.now += 60 * MINUTE + 1
  expect(throttle.attempt('melody', 'a')).toMatchObject({ allowed: true, attempt: { accountFailures: 1 } })
})
