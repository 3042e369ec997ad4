// The core thread's entry from the TypeScript sources, for tests and benches under plain Node: what the built
// core-worker.js is in the app. Worker threads do not inherit the test runner's TypeScript loader, so this registers tsx.
import { register } from 'tsx/esm/api'

register()
await import('../../core-worker.ts')
