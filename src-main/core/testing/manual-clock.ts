// A clock that moves only when a test says so: backoff and Retry-After can be checked to the millisecond without
// waiting for them.
import type { Clock } from '../sync'

interface Timer {
  at: number
  callback: () => void
}

export class ManualClock implements Clock {
  #now: number
  readonly #timers = new Set<Timer>()

  constructor(start = Date.now()) {
    this.#now = start
  }

  now(): number {
    return this.#now
  }

  setTimer(callback: () => void, ms: number): () => void {
    const timer = { at: this.#now + ms, callback }
    this.#timers.add(timer)
    return () => this.#timers.delete(timer)
  }

  /** Moves time on by `ms`, firing the timers that fall due, earliest first. */
  advance(ms: number): void {
    const until = this.#now + ms
    for (;;) {
      const next = [...this.#timers].filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0]
      if (!next) break
      this.#timers.delete(next)
      this.#now = Math.max(this.#now, next.at)
      next.callback()
    }
    this.#now = until
  }
}
