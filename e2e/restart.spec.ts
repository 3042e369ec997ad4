// Quitting and reopening Blogdesk: the window and the main process's core close, and new ones open on the same data
// dir. A draft comes back as it was written, and a publish queued while the service was down is still queued, and
// goes out once the service is back.
import { startServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel, fetchWeblogPosts } from './models/editor'

const KEPT = { title: 'Half a thought', text: 'Kept on this computer: it was never published.' }
const QUEUED = { title: 'Sent after a restart', text: 'Published while the service was down, then the app was closed.' }

test('a draft and a queued publish survive closing Blogdesk and opening it again', async ({ app, service, reopen }, testInfo) => {
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write(KEPT.title, [KEPT.text])
  await expect(editor.saveState).toHaveText('Saved locally')
  await editor.write(QUEUED.title, [QUEUED.text])
  await expect(editor.saveState).toHaveText('Saved locally')
  await service.stop()
  await editor.publishButton.click()
  await expect(editor.stateBadge).toHaveText(/^(Queued|Waiting)/)

  const { page, bridge, pageErrors } = await reopen()
  const again = new EditorModel(page)
  await again.openDrafts(weblog!)
  await expect(again.draftItem(KEPT.title)).toContainText('Draft')
  await expect(again.draftItem(QUEUED.title)).toContainText(/Queued|Waiting/)
  await again.openDraft(KEPT.title)
  await expect(again.title).toHaveValue(KEPT.title)
  await expect(again.text).toHaveText(KEPT.text)
  await saveScreenshot(page, testInfo, 'restart-reopened.png')
  await expectAccessible(page, testInfo, 'editor after a restart')

  await again.openDraft(QUEUED.title)
  await expect(again.stateBadge).toHaveText(/^(Queued|Waiting)/)
  const revived = await startServiceProcess(service.dataDir, service.port)
  try {
    await expect(again.stateBadge).toHaveText('Published', { timeout: 60_000 })
    expect((await fetchWeblogPosts(service.sandbox, weblog!)).filter((post) => post.title === QUEUED.title)).toHaveLength(1)
    await saveScreenshot(page, testInfo, 'restart-published.png')
  } finally {
    await revived.stop()
  }
  expect([...bridge.bugs, ...bridge.deliveryFailures, ...pageErrors]).toEqual([])
})
