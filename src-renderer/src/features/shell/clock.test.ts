import { describe, expect, it } from 'vitest'
import { createSharedClock, secondsUntil, TICK_MS } from './clock'

/** A clock whose time and interval the test moves by hand. */
function manualClock(start: number) {
  let time = start
  let tick: (() => void) | null = null
  const clock = createSharedClock(
    () => time,
    {
      setInterval: (callback) => ((tick = callback), 'timer'),
      clearInterval: () => (tick = null),
    },
  )
  return {
    clock,
    running: () => tick !== null,
    advance(ms: number) {
      const end = time + ms
      while (time + TICK_MS <= end) {
        time += TICK_MS
        tick?.()
      }
      time = end
    },
  }
}

describe('the shared countdown clock', () => {
  it('gives every countdown of one instant the same number, whenever each began counting', () => {
    const start = Date.parse('2026-11-27T10:00:00.000Z')
    const deadline = new Date(start + 7_000).toISOString()
    const { clock, advance } = manualClock(start)
    const seen: number[][] = []
    // Three countdowns (sidebar, outbox badge, status bar) subscribe at 0 ms, 300 ms and 1,700 ms.
    const counters: (() => number | null)[] = []
    const follow = () => counters.push(() => secondsUntil(deadline, clock.now()))
    clock.subscribe(() => seen.push(counters.map((read) => read()!)))
    follow()
    advance(300)
    follow()
    advance(1_400)
    follow()
    advance(5_550)
    for (const frame of seen.slice(-20)) expect(new Set(frame).size).toBe(1)
    expect(seen.at(-1)).toEqual([0, 0, 0])
  })

  it('counts whole seconds down to the instant and never below zero', () => {
    const now = Date.parse('2026-11-27T10:00:00.000Z')
    const at = (ms: number) => new Date(now + ms).toISOString()
    expect(secondsUntil(at(5_000), now)).toBe(5)
    expect(secondsUntil(at(4_001), now)).toBe(5)
    expect(secondsUntil(at(4_000), now)).toBe(4)
    expect(secondsUntil(at(-3_000), now)).toBe(0)
    expect(secondsUntil(null, now)).toBeNull()
  })

  it('runs one timer for all listeners, and only while someone listens', () => {
    const { clock, running, advance } = manualClock(0)
    const first = clock.subscribe(() => {})
    const second = clock.subscribe(() => {})
    expect(running()).toBe(true)
    first()
    expect(running()).toBe(true)
    second()
    expect(running()).toBe(false)
    advance(10_000)
    expect(clock.now()).toBe(0)
    clock.subscribe(() => {})
    expect(clock.now()).toBe(10_000)
  })
})
