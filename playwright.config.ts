import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/harness/chromium'

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  workers: 1,
  // CI runs each journey again once after a failure and reports it as flaky: one journey (PageDown in
  // writing-keys.spec.ts) failed once in a fresh run and passed in every other, and a landing should not hang on it.
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
