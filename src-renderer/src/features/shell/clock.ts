// One clock for every countdown in the window. Each countdown ("next try in N s" in the sidebar, the status bar, a
// draft's badge, the outbox) is derived from the one instant core reported and from this one `now`, so all of them
// show the same number on every frame; with a timer each, they ticked at their own moments and disagreed.

/** How often the shared `now` moves while anything counts down: a countdown is never more than this late. */
export const TICK_MS = 250

type Listener = () => void

export interface SharedClock {
  /** The time at the last tick (stable between ticks, as React's external stores need); read afresh when it starts. */
  now(): number
  /** Calls `listener` on every tick while subscribed; the clock runs only while someone listens. */
  subscribe(listener: Listener): () => void
}

export function createSharedClock(
  readTime: () => number = Date.now,
  timers: { setInterval(callback: () => void, ms: number): unknown; clearInterval(handle: unknown): void } = {
    setInterval: (callback, ms) => setInterval(callback, ms),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  },
): SharedClock {
  const listeners = new Set<Listener>()
  let now = readTime()
  let timer: unknown = null
  const tick = () => {
    now = readTime()
    for (const listener of listeners) listener()
  }
  return {
    now: () => now,
    subscribe(listener) {
      listeners.add(listener)
      if (timer === null) {
        now = readTime()
        timer = timers.setInterval(tick, TICK_MS)
      }
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && timer !== null) {
          timers.clearInterval(timer)
          timer = null
        }
      }
    },
  }
}

/** Whole seconds from `now` until the instant `iso` (never below 0); null without an instant. */
export function secondsUntil(iso: string | null, now: number): number | null {
  return iso === null ? null : Math.max(0, Math.ceil((Date.parse(iso) - now) / 1_000))
}
