// Deleting a draft can be undone: it goes to the Trash with an Undo offered for a few seconds, and the Trash view
// restores it or deletes it for good.
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { EditorModel } from './models/editor'

test('a deleted draft is undone from the toast, restored from the Trash, and deleted forever', async ({ app, core, service }, testInfo) => {
  test.setTimeout(120_000)
  // Wide enough for the drafts list beside the editor (narrower, it is a drawer: layout.spec.ts).
  await app.page.setViewportSize({ width: 1280, height: 800 })
  const account = await core.accounts.add(service.sandbox)
  const [weblog] = await core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
  const address = { accountId: account.id, weblogPostUri: weblog!.postUri }
  for (const title of ['Kept for later', 'Second thoughts']) {
    const draft = await core.handlers['drafts:create'](address)
    await core.handlers['drafts:save']({ draftId: draft.id, title, content: `<p>${title}, written on the train.</p>` })
  }
  core.accounts.announce()

  const editor = new EditorModel(app.page)
  const page = app.page
  const deleteButton = editor.editor.getByRole('button', { name: 'Delete', exact: true })
  const toast = page.getByRole('status').filter({ hasText: 'Draft moved to Trash' })
  const undo = page.getByRole('button', { name: 'Undo', exact: true })
  await editor.openDrafts(weblog!.title)

  // Delete, then Undo from the keyboard: the draft is back in the list and open again, text and all.
  await editor.openDraft('Second thoughts')
  await deleteButton.click()
  await expect(toast).toBeVisible()
  await expect(editor.draftItem('Second thoughts')).toHaveCount(0)
  await expect(editor.editor).toHaveCount(0)
  // The toast waits while the focus is in it, however long reading (or the accessibility check) takes.
  await undo.focus()
  await saveScreenshot(page, testInfo, 'trash-undo-toast.png')
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, 'trash-undo-toast-dark.png')
  await page.emulateMedia({ colorScheme: 'light' })
  await expectAccessible(page, testInfo, 'the Undo toast')
  await page.keyboard.press('Enter')
  await expect(toast).toHaveCount(0)
  await expect(editor.draftItem('Second thoughts')).toHaveCount(1)
  await expect(editor.title).toHaveValue('Second thoughts')
  await expect(editor.text).toContainText('Second thoughts, written on the train.')

  // Delete again and let the toast go: the draft waits in the Trash, and Restore brings it back.
  await deleteButton.click()
  await expect(toast).toBeVisible()
  await page.getByRole('button', { name: 'Dismiss', exact: true }).click()
  await expect(toast).toHaveCount(0)
  await page.getByRole('button', { name: 'Trash', exact: true }).click()
  const trash = page.getByRole('list', { name: 'Trash', exact: true })
  const trashed = trash.getByRole('listitem').filter({ hasText: 'Second thoughts' })
  await expect(trashed).toContainText('Deleted')
  await saveScreenshot(page, testInfo, 'trash-view.png')
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, 'trash-view-dark.png')
  await page.emulateMedia({ colorScheme: 'light' })
  await expectAccessible(page, testInfo, 'the Trash view')
  await trashed.getByRole('button', { name: 'Restore “Second thoughts”' }).click()
  await expect(trash.getByRole('listitem')).toHaveCount(0)
  await expect(page.getByText('The Trash is empty.')).toBeVisible()
  await expect(editor.title).toHaveValue('Second thoughts')

  // Deleted again while the Trash is shown, it appears there. Delete forever asks first; Cancel keeps it, confirming
  // removes it and its history for good.
  await deleteButton.click()
  await trashed.getByRole('button', { name: 'Delete “Second thoughts” forever' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Delete this draft forever?' })
  await expect(dialog).toBeVisible()
  await expectAccessible(page, testInfo, 'the Delete forever question')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(trashed).toHaveCount(1)
  await trashed.getByRole('button', { name: 'Delete “Second thoughts” forever' }).click()
  await dialog.getByRole('button', { name: 'Delete forever' }).click()
  await expect(trash.getByRole('listitem')).toHaveCount(0)
  expect(await core.handlers['drafts:trash'](address)).toEqual([])

  await page.getByRole('button', { name: 'Back to drafts', exact: true }).click()
  await expect(editor.draftsList.getByRole('listitem')).toHaveCount(1)
  await expect(editor.draftItem('Kept for later')).toHaveCount(1)

  // Empty Trash asks first, then deletes everything in it for good.
  await editor.openDraft('Kept for later')
  await deleteButton.click()
  await page.getByRole('button', { name: 'Trash', exact: true }).click()
  await expect(trash.getByRole('listitem')).toHaveCount(1)
  await page.getByRole('button', { name: 'Empty Trash…', exact: true }).click()
  const emptyQuestion = page.getByRole('alertdialog', { name: 'Empty the Trash?' })
  await expect(emptyQuestion).toContainText('This cannot be undone.')
  await saveScreenshot(page, testInfo, 'trash-empty-question.png')
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, 'trash-empty-question-dark.png')
  await page.emulateMedia({ colorScheme: 'light' })
  await expectAccessible(page, testInfo, 'the Empty Trash question')
  await emptyQuestion.getByRole('button', { name: 'Empty Trash' }).click()
  await expect(page.getByText('The Trash is empty.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Empty Trash…', exact: true })).toBeDisabled()
  expect(await core.handlers['drafts:trash'](address)).toEqual([])
})
