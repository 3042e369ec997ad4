import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/harness/chromium'

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  workers: 1,
  // CI runs a failed journey once more and reports it as flaky, so that one slow moment of a shared machine (a
  // service that took long to start) does not hold a landing; a journey that fails twice fails the run.
  retries: process.env['CI'] ? 1 : 0,
  reporter: 'list',
  use: {
    viewport: { width: 1200, height: 760 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
})
