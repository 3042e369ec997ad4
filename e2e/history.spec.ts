// History: publishing, writing offline and restoring each keep a version with its reason; a version shows the words
// it differs by from the current text and a preview of itself; restoring one is undone from its toast.
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { EditorModel } from './models/editor'

const TITLE = 'Night train to Porto'
const PUBLISHED = 'We leave Lisbon at ten and sleep through Coimbra.'
const OFFLINE = ' No signal after Aveiro, so this part waits on the laptop.'

test('history keeps versions for publishing, writing offline and restoring, shows word changes and a preview, and a restore is undone', async ({ app, service, platform }, testInfo) => {
  test.setTimeout(150_000)
  const page = app.page
  const editor = new EditorModel(page)
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.write(TITLE, [PUBLISHED])
  await expect(editor.saveState).toHaveText('Saved locally')
  await editor.publishButton.click()
  await expect(editor.stateBadge).toHaveText('Published', { timeout: 20_000 })

  // Offline, more is written: a version of its own.
  platform.setOnline(false)
  await editor.text.click()
  await page.keyboard.press('Control+End')
  await page.keyboard.type(OFFLINE)
  await expect(editor.saveState).toHaveText('Saved locally')

  await editor.editor.getByRole('button', { name: 'History' }).click()
  const history = page.getByRole('list', { name: 'History' })
  const versions = history.getByRole('listitem')
  await expect(versions).toHaveCount(3)
  await expect(versions.nth(0)).toContainText('Edited offline')
  await expect(versions.nth(0)).toContainText('Current version')
  await expect(versions.nth(1)).toContainText('Published')
  await expect(versions.nth(2)).toContainText('Edited')

  // The published version against the current text: the words written offline are inserted.
  const published = versions.nth(1)
  await published.getByRole('button', { name: /^Show the changes since/ }).click()
  const changes = published.getByLabel('Changes from this version to the current text')
  await expect(changes.locator('ins')).toContainText('No signal after Aveiro')
  await saveScreenshot(page, testInfo, 'history-changes.png')
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, 'history-changes-dark.png')
  await page.emulateMedia({ colorScheme: 'light' })
  await expectAccessible(page, testInfo, 'the history with a version compared')
  await published.getByRole('button', { name: 'Preview' }).click()
  const preview = published.getByRole('article', { name: 'Preview of this version' })
  await expect(preview).toContainText(PUBLISHED)
  await expect(preview).not.toContainText('Aveiro')

  // Restore it: the text is the published one again, the restore is a version too, and the toast offers Undo.
  await published.getByRole('button', { name: /^Restore the version of/ }).click()
  await expect(editor.text).toHaveText(PUBLISHED)
  const toast = page.getByRole('status').filter({ hasText: /^Restored the version of/ })
  await expect(toast).toBeVisible()
  await expect(versions).toHaveCount(4)
  await expect(versions.nth(0)).toContainText('Restored the version of')
  // The words removed by the restore, seen from the version written offline.
  await versions.nth(1).getByRole('button', { name: /^Show the changes since/ }).click()
  await expect(versions.nth(1).locator('del')).toContainText('No signal after Aveiro')
  await page.locator('.toast').getByRole('button', { name: 'Undo', exact: true }).focus()
  await saveScreenshot(page, testInfo, 'history-restored-undo.png')
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, 'history-restored-undo-dark.png')
  await page.emulateMedia({ colorScheme: 'light' })
  await expectAccessible(page, testInfo, 'the Undo toast of a restore')
  await page.keyboard.press('Enter')
  await expect(editor.text).toHaveText(`${PUBLISHED}${OFFLINE}`)
  await expect(toast).toHaveCount(0)
  await expect(versions).toHaveCount(5)
})
