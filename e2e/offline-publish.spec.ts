// Publishing while the service is down: Publish answers at once and the post waits, Queued, saying why; once the
// service is back on the same address and data, the outbox sends it by itself, and the weblog has it exactly once.
import { startServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel, fetchWeblogPosts } from './models/editor'

const TITLE = 'Written on the night train'
/** The outbox retries with backoff (2 s, then up to 4 s, 8 s…): the post goes out on the first try after the service is back. */
const BACK_ONLINE_TIMEOUT_MS = 40_000

test('a post published while the service is down waits, Queued, and is published exactly once when it is back', async ({ app, service }, testInfo) => {
  test.setTimeout(90_000)
  const editor = new EditorModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write(TITLE, ['No signal between Coimbra and Porto, and the post is ready anyway.'])
  await expect(editor.saveState).toHaveText('Saved locally')

  await service.stop()
  await editor.publishButton.click()
  await expect(editor.stateBadge).toHaveText('Queued')
  await expect(editor.publishStatus).toContainText('Queued to publish')
  await expect(editor.publishStatus, 'the first try found the service down, and says so').toContainText('Blogdesk keeps trying')
  await expect(editor.draftItem(TITLE)).toContainText('Queued')
  await saveScreenshot(app.page, testInfo, 'offline-publish-queued.png')
  await expectAccessible(app.page, testInfo, 'editor with a queued post')

  const revived = await startServiceProcess(service.dataDir, service.port)
  try {
    await expect(editor.stateBadge).toHaveText('Published', { timeout: BACK_ONLINE_TIMEOUT_MS })
    await expect(editor.viewOnWeblog).toBeVisible()
    await saveScreenshot(app.page, testInfo, 'offline-publish-published.png')
    const posts = await fetchWeblogPosts(service.sandbox, weblog!)
    expect(posts.filter((post) => post.title === TITLE)).toHaveLength(1)
  } finally {
    await revived.stop()
  }
})
