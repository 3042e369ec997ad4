// Writing a post and publishing it: typed in the editor, kept locally as it is written ("Saved locally"), queued
// with Publish, and then on the service — in the weblog's feed and on its public page.
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel, fetchWeblogPosts, localDraft } from './models/editor'

const TITLE = 'Notes from the Tagus'
const FIRST_DRAFT = ['The ferry to Cacilhas leaves every twenty minutes, and the crossing takes ten.', 'Bring a jacket: the wind on the river is cold even in June.']
const AFTERTHOUGHT = ' Tickets are sold on the pier.'
const PARAGRAPHS = [FIRST_DRAFT[0]!, FIRST_DRAFT[1]! + AFTERTHOUGHT]

test('a post written, saved locally and published is on the weblog’s feed and its public page', async ({ app, service, core, platform }, testInfo) => {
  const editor = new EditorModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await expect(editor.newPostButton).toBeVisible()

  await editor.write(TITLE, FIRST_DRAFT)
  await expect(editor.saveState).toHaveText('Saved locally')
  await expect(editor.stateBadge).toHaveText('Draft')
  await expect(editor.draftItem(TITLE), 'the list shows the draft with its first words').toContainText('The ferry to Cacilhas')
  // Typing again after the save redraws the indicator while the text has the caret: the words go on where it was.
  await app.page.keyboard.type(AFTERTHOUGHT)
  await expect(editor.saveState).not.toHaveText('Saved locally')
  await expect(editor.saveState).toHaveText('Saved locally')
  expect((await localDraft(core, TITLE)).content, '"Saved locally" is true: the text is in the local draft').toBe(
    PARAGRAPHS.map((text) => `<p>${text}</p>`).join('\n'),
  )
  await saveScreenshot(app.page, testInfo, 'publish-written.png')
  await expectAccessible(app.page, testInfo, 'editor')

  await editor.publishByKeys()
  await expect(editor.stateBadge).toHaveText('Published')
  // Drafts holds unpublished writing only: the post is listed with the posts now, and the editor offers Update.
  await expect(editor.draftItem(TITLE)).toHaveCount(0)
  await expect(editor.publishButton).toHaveText('Update')
  await saveScreenshot(app.page, testInfo, 'publish-published.png')

  const post = (await fetchWeblogPosts(service.sandbox, weblog!)).find((candidate) => candidate.title === TITLE)
  expect(post, 'the post is in the weblog’s feed').toBeDefined()
  const page = await fetch(post!.permalink!)
  expect(page.status).toBe(200)
  const html = await page.text()
  for (const paragraph of PARAGRAPHS) expect(html).toContain(paragraph)

  await editor.viewOnWeblog.click()
  await expect.poll(() => platform.openedLinks).toContain(post!.permalink)
})
