// Publishing while the service is down: Publish answers at once and the post waits, saying why; the status bar says
// which server cannot be reached, how many wait and when the next try is. Once the service is back on the same
// address and data, the outbox sends it within seconds by itself, and the weblog has it exactly once.
import type { Page } from '@playwright/test'
import { startServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel, fetchWeblogPosts } from './models/editor'

const TITLE = 'Written on the night train'
/** The server is probed every 2 s at most while the post waits: it goes out a few seconds after the service is back. */
const BACK_ONLINE_TIMEOUT_MS = 10_000
const NEXT_TRY = '(next try in \\d s|trying now)'

test('a post published while the service is down waits, the status bar says which server, and it is published exactly once within seconds of its return', async ({ app, service }, testInfo) => {
  test.setTimeout(90_000)
  const editor = new EditorModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write(TITLE, ['No signal between Coimbra and Porto, and the post is ready anyway.'])
  await expect(editor.saveState).toHaveText('Saved locally')

  await service.stop()
  await editor.publishButton.click()
  await expect(editor.stateBadge).toHaveText(new RegExp(`^Waiting — ${NEXT_TRY}$`))
  await expect(editor.publishStatus).toContainText('Queued to publish')
  await expect(editor.publishStatus, 'the first try found the service down, and says so').toContainText('Blogdesk keeps trying')
  await expect(editor.draftItem(TITLE)).toContainText('Waiting')
  const host = new URL(service.sandbox.atomBase).host
  await expect(app.connection).toHaveText(new RegExp(`^Can't reach ${host.replaceAll('.', '\\.')} — 1 waiting, ${NEXT_TRY}$`))
  await expect(app.statusBar.getByRole('button', { name: 'Try now' })).toBeVisible()
  await expectCountdownsAgree(app.page)
  await saveScreenshot(app.page, testInfo, 'offline-publish-unreachable-light.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'offline-publish-unreachable-dark.png')
  await app.page.emulateMedia({ colorScheme: 'light' })
  await expectAccessible(app.page, testInfo, 'editor with a post waiting for its server')
  await app.statusBar.getByRole('button', { name: 'Try now' }).click()
  await expect(app.connection, 'tried at once, still out of reach').toHaveText(new RegExp(`^Can't reach`))

  const revived = await startServiceProcess(service.dataDir, service.port)
  try {
    await expect(editor.stateBadge).toHaveText('Published', { timeout: BACK_ONLINE_TIMEOUT_MS })
    await expect(app.connection).toHaveText('Online')
    await expect(editor.viewOnWeblog).toBeVisible()
    await saveScreenshot(app.page, testInfo, 'offline-publish-published.png')
    const posts = await fetchWeblogPosts(service.sandbox, weblog!)
    expect(posts.filter((post) => post.title === TITLE)).toHaveLength(1)
  } finally {
    await revived.stop()
  }
})

/**
 * The sidebar, the draft's badge, its row in the list and the status bar each say when the next try is: read in one
 * frame, again and again over a few seconds, they all say the same number (they derive from one instant and one clock).
 */
async function expectCountdownsAgree(page: Page): Promise<void> {
  for (let sample = 0; sample < 12; sample += 1) {
    const countdowns = await page.evaluate(() => {
      const found: { where: string; says: string }[] = []
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT)
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const element = node as HTMLElement
        const own = [...element.childNodes].filter((child) => child.nodeType === Node.TEXT_NODE).map((child) => child.textContent).join('')
        const match = /next try in (\d+) s|trying now/.exec(own)
        if (match) found.push({ where: element.className, says: match[1] ?? '0' })
      }
      return found
    })
    expect(countdowns.length, 'the sidebar, the badge, the draft\'s row and the status bar count down').toBeGreaterThanOrEqual(4)
    expect(new Set(countdowns.map((countdown) => countdown.says)).size, JSON.stringify(countdowns)).toBe(1)
    await page.waitForTimeout(330)
  }
}
