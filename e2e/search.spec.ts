// Search across an account's drafts and posts: Ctrl+Shift+F (or Edit › Search All Posts…, or Search in the sidebar)
// opens it, the results come as one types with the matched words marked, drafts and published posts told apart, and
// choosing one opens it in the editor with the find bar on its first match. An account with 1,000 drafts and its weblog's posts listed.
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { EditorModel } from './models/editor'

const DRAFTS = 1_000
const LONG_TITLE = 'Night train to Porto'
/** The word searched for sits far down a long draft, so opening at it must scroll there. */
const FILLER = Array.from({ length: 40 }, (_, index) => `<p>Paragraph ${index + 1}: the carriage rocks and the lights of small stations go by.</p>`).join('')
const LONG_TEXT = `${FILLER}<p>At dawn the train crosses the viaduct over the Douro, slowly.</p>`

test('search finds drafts and posts as one types, marks the words, and opens a result at its first match', async ({ app, core, service }, testInfo) => {
  test.setTimeout(240_000)
  await app.page.setViewportSize({ width: 1280, height: 800 })
  const account = await core.accounts.add(service.sandbox)
  const [weblog] = await core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
  const address = { accountId: account.id, weblogPostUri: weblog!.postUri }
  for (let index = 1; index < DRAFTS; index++) {
    const draft = await core.handlers['drafts:create'](address)
    await core.handlers['drafts:save']({ draftId: draft.id, title: `Note ${index}`, content: `<p>Number ${index}, about the harbour and the market.</p>` })
  }
  const long = await core.handlers['drafts:create'](address)
  await core.handlers['drafts:save']({ draftId: long.id, title: LONG_TITLE, content: LONG_TEXT })
  // The weblog's posts as listed once: search finds them from then on, offline too.
  const { posts } = await core.handlers['posts:page']({ ...address, pageUri: null })
  const post = posts.find((candidate) => candidate.draftId === null && /\b[A-Za-z]{6,}\b/.test(candidate.title))!
  const postWord = post.title.match(/\b[A-Za-z]{6,}\b/)![0]
  core.accounts.announce()

  const page = app.page
  const editor = new EditorModel(page)
  await editor.openDrafts(weblog!.title)
  const dialog = page.getByRole('dialog', { name: 'Search drafts and posts' })
  const field = dialog.getByRole('searchbox', { name: 'Words to find' })
  const results = dialog.getByRole('list', { name: 'Results' })
  const status = dialog.getByRole('status')

  // Ctrl+Shift+F opens it from anywhere, the field focused, and says what to type.
  await page.keyboard.press('Control+Shift+F')
  await expect(field).toBeFocused()
  await expect(status).toContainText('Type words from the title or the text')
  await saveScreenshot(page, testInfo, 'search-empty.png')
  await expectAccessible(page, testInfo, 'search, before anything is typed')

  // As one types: the last word is a prefix, the match is marked in the words around it.
  await page.keyboard.type('viad')
  await expect(results.getByRole('listitem')).toHaveCount(1)
  const hit = results.getByRole('button').first()
  await expect(hit).toContainText('Draft')
  await expect(hit).toContainText(LONG_TITLE)
  await expect(hit.locator('mark')).toHaveText('viaduct')
  await page.keyboard.type('uct harb')
  await expect(status).toContainText('Nothing here contains “viaduct harb”')
  await saveScreenshot(page, testInfo, 'search-nothing.png')

  // Many matches: the list says more match and how to narrow them.
  await field.fill('harbour')
  await expect(status).toContainText('more match')
  await expect(results.getByRole('listitem')).toHaveCount(50)

  // A published post, told apart from the drafts.
  await field.fill(postWord.toLowerCase())
  const postHit = results.getByRole('button').filter({ hasText: 'Published' }).first()
  await expect(postHit).toBeVisible()
  await expect(postHit.locator('mark').first()).toHaveText(new RegExp(postWord, 'i'))
  await saveScreenshot(page, testInfo, 'search-results.png')
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, 'search-results-dark.png')
  await page.emulateMedia({ colorScheme: 'light' })
  await expectAccessible(page, testInfo, 'search results')

  // ↓ to the result, Enter: the post opens in the editor.
  await field.press('ArrowDown')
  await expect(postHit).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(editor.title).toHaveValue(post.title)

  // From the sidebar's Search, a draft far down: the editor opens on the match, scrolled to it, the find bar showing it.
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await field.fill('viaduct')
  await expect(results.getByRole('listitem')).toHaveCount(1)
  await field.press('Enter')
  await expect(editor.title).toHaveValue(LONG_TITLE)
  await expect(editor.findBar.getByRole('searchbox', { name: 'Find' })).toHaveValue('viaduct')
  await expect(editor.findCount).toHaveText('1 of 1')
  const current = editor.text.locator('.find-match--current')
  await expect(current).toHaveText('viaduct')
  await expect(current).toBeInViewport()
  await saveScreenshot(page, testInfo, 'search-opened-at-match.png')
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, 'search-opened-at-match-dark.png')
  await page.emulateMedia({ colorScheme: 'light' })
  // Escape goes back to the text with the match selected.
  await page.keyboard.press('Escape')
  await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe('viaduct')

  // Edit › Search All Posts… opens it too, with the words searched last selected to type over.
  await app.menuCommand('search')
  await expect(field).toBeFocused()
  await expect(field).toHaveValue('viaduct')
  // Escape clears the search field first, as in any search field, and then closes.
  await page.keyboard.press('Escape')
  await expect(field).toHaveValue('')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})
