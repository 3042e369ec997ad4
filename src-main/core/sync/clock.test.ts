import { describe, expect, it } from 'vitest'
import { retryDelay } from './clock'

const policy = { baseMs: 1000, capMs: 60_000 }

describe('retryDelay', () => {
  it('doubles the ceiling with each attempt, up to the cap, and draws the delay uniformly below it (full jitter)', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8, 40].map((attempt) => retryDelay(attempt, policy, () => 0.999999, null))
    expect(ceilings).toEqual([999, 1999, 3999, 7999, 15999, 31999, 59999, 59999, 59999])
    expect(retryDelay(3, policy, () => 0, null)).toBe(0)
    expect(retryDelay(3, policy, () => 0.5, null)).toBe(2000)
  })

  it("never goes sooner than the server's Retry-After, and no later than the jitter when that is longer", () => {
    expect(retryDelay(1, policy, () => 0.5, 2000)).toBe(2000)
    expect(retryDelay(8, policy, () => 0.5, 2000)).toBe(30_000)
  })
})
