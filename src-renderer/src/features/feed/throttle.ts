// News can arrive in bursts (the poller looks at several friends in a row; a busy friend posts ten times a second in
// the benchmark). Counts and lists are redrawn at most twice a second: faster is only flicker, and work.

/** How often news redraws the feed and the friends list at most. */
export const NEWS_REDRAW_INTERVAL_MS = 500

export interface Throttled {
  (): void
  cancel(): void
}

/** `work` runs at once when called, then at most once every `intervalMs` while calls keep coming; the last call always runs. */
export function throttled(work: () => void, intervalMs: number): Throttled {
  let lastRun = Number.NEGATIVE_INFINITY
  let timer: ReturnType<typeof setTimeout> | null = null
  const run = () => {
    timer = null
    lastRun = Date.now()
    work()
  }
  const call = () => {
    if (timer !== null) return
    timer = setTimeout(run, Math.max(0, lastRun + intervalMs - Date.now()))
  }
  call.cancel = () => {
    if (timer !== null) clearTimeout(timer)
    timer = null
  }
  return call
}
