// Publishing while the service is down: Publish answers at once and the post waits, saying why; the status bar says
// which server cannot be reached, how many wait and when the next try is. Once the service is back on the same
// address and data, the outbox sends it within seconds by itself, and the weblog has it exactly once.
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
