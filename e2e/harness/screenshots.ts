import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page, TestInfo } from '@playwright/test'
import { screenshotsDir } from './paths'

/**
 * A full-page screenshot, attached to the test's report and kept in test-results/screenshots/ for people to look at.
 * Transitions are finished first: a theme switched just before would otherwise be caught halfway (a light drop zone
 * behind dark mode's text).
 */
export async function saveScreenshot(page: Page, testInfo: TestInfo, fileName: string): Promise<void> {
  const path = testInfo.outputPath(fileName)
  await page.screenshot({ path, fullPage: true, animations: 'disabled' })
  await testInfo.attach(fileName, { path, contentType: 'image/png' })
  await mkdir(screenshotsDir, { recursive: true })
  await copyFile(path, join(screenshotsDir, fileName))
}
