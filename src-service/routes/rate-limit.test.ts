// The token bucket on its own clock: a minute's allowance at once, then the steady rate, per client.
import { describe, expect, it } from 'vitest'
import { RateLimiter } from './rate-limit'

describe('rate limiter', () => {
  it('lets a client burst to its limit, then says how long to wait, and refills over time', () => {
    let now = 0
    const limiter = new RateLimiter(6, () => now)
    for (let n = 0; n < 6; n++) expect(limiter.take('a')).toEqual({ allowed: true })
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 10 })
    expect(limiter.take('b')).toEqual({ allowed: true })
    now += 4_000
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 6 })
    now += 6_000
    expect(limiter.take('a')).toEqual({ allowed: true })
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 10 })
    now += 60_000
    for (let n = 0; n < 6; n++) expect(limiter.take('a')).toEqual({ allowed: true })
  })

  it('refuses a limit that is not above zero', () => {
    expect(() => new RateLimiter(0)).toThrow(/above 0/)
  })
})
