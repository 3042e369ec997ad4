// A weblog with many drafts: the list opens with the latest changes first and reads more as the reader scrolls, and a
// draft changed meanwhile moves to the top without showing twice.
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { EditorModel } from './models/editor'

const DRAFTS = 120

test('a long drafts list shows the latest first, reads more while scrolling, and keeps each draft once', async ({ app, core, service }, testInfo) => {
  test.setTimeout(120_000)
  const account = await core.accounts.add(service.sandbox)
  const [weblog] = await core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
  const address = { accountId: account.id, weblogPostUri: weblog!.postUri }
  const ids: string[] = []
  for (let number = 1; number <= DRAFTS; number++) {
    const draft = await core.handlers['drafts:create'](address)
    await core.handlers['drafts:save']({ draftId: draft.id, title: `Field note ${number}`, content: `<p>Written on day ${number}.</p>` })
    ids.push(draft.id)
  }
  core.accounts.announce()

  const editor = new EditorModel(app.page)
  await editor.openDrafts(weblog!.title)
  const items = editor.draftsList.getByRole('listitem')
  const [latest] = (await core.handlers['drafts:list']({ ...address, after: null })).drafts
  await expect(items.first()).toContainText(latest!.title)
  const firstRead = await items.count()
  expect(firstRead, 'one page at first, not the whole weblog').toBeLessThan(DRAFTS)
  await expectAccessible(app.page, testInfo, 'a long drafts list')

  // An old draft, not read yet, is changed elsewhere (another window, the outbox): it comes to the top at once.
  await core.handlers['drafts:save']({ draftId: ids[2]!, title: 'Field note 3, revised' })
  await expect(items.first()).toContainText('Field note 3, revised')

  await expect(async () => {
    await items.last().scrollIntoViewIfNeeded()
    await expect(items).toHaveCount(DRAFTS, { timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
  await expect(items.last()).toContainText('Field note 1')
  const titles = await editor.draftsList.locator('.draft-item__title').allTextContents()
  expect(new Set(titles).size, 'no draft listed twice').toBe(DRAFTS)
  expect(titles).not.toContain('Field note 3')
  await saveScreenshot(app.page, testInfo, 'drafts-list-long.png')
})
