// Random numbers for tests and benches, never for production: a seed fixes the whole sequence, so a failing run can
// be replayed and a measured document is the same in every run. Tests and benches of the app, the service and the
// protocol share this one generator (as they share test-fixtures.ts); the renderer's tests cannot import it.

/** mulberry32: a small, fast generator of numbers in [0, 1), shaped like Math.random. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
