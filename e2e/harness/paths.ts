import { join } from 'node:path'

export const repoRoot = join(import.meta.dirname, '..', '..')
/** What `npm run build` leaves behind; the e2e tests run the built renderer and preload, as the app does. */
export const builtRendererDir = join(repoRoot, 'out', 'renderer')
export const builtPreloadFile = join(repoRoot, 'out', 'preload', 'index.cjs')
/** Screenshots kept across runs (Playwright empties its own output folder before each run). */
export const screenshotsDir = join(repoRoot, 'test-results', 'screenshots')
