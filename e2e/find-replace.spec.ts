// Find and replace in the post: the menu's Find… and Ctrl+F open the find bar, the matches are highlighted and
// counted, Enter and Shift+Enter go from one to the next, and Replace all is a single change that one undo takes back.
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel, localDraft } from './models/editor'

const TITLE = 'Up to Graça'
const PARAGRAPHS = ['The tram climbs the hill; the tram stops at every corner.', 'Trams are yellow. A tram is slow, and Tram 28 is slower.']
const SAVED = PARAGRAPHS.map((text) => `<p>${text}</p>`).join('\n')

test('find highlights and counts the matches, goes next and back, and Replace all is undone by one undo', async ({ app, service, core }, testInfo) => {
  // Three accessibility checks, each in light and dark, on a machine shared with other work.
  test.setTimeout(150_000)
  const editor = new EditorModel(app.page)
  const keyboard = app.page.keyboard
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write(TITLE, PARAGRAPHS)
  await expect(editor.saveState).toHaveText('Saved locally')

  // Edit › Find… in the menu, as the main process sends it.
  await app.menuCommand('find')
  const find = editor.findBar.getByRole('searchbox', { name: 'Find' })
  await expect(find).toBeFocused()
  await keyboard.type('tram')
  await expect(editor.findCount).toHaveText('1 of 5')
  await expect(editor.highlightedMatches).toHaveCount(5)
  await keyboard.press('Enter')
  await expect(editor.findCount).toHaveText('2 of 5')
  await keyboard.press('Shift+Enter')
  await keyboard.press('Shift+Enter')
  await expect(editor.findCount, 'Shift+Enter from the first goes round to the last').toHaveText('5 of 5')
  await expect(editor.text.locator('.find-match--current')).toHaveText('Tram')

  const matchCase = editor.findBar.getByRole('button', { name: 'Match case' })
  await matchCase.click()
  await expect(matchCase).toHaveAttribute('aria-pressed', 'true')
  await expect(editor.findCount).toHaveText(/ of 3$/)
  await matchCase.click()
  await editor.findBar.getByRole('button', { name: 'Whole word' }).click()
  await expect(editor.findCount, '“Trams” is not the word “tram”').toHaveText(/ of 4$/)
  await saveScreenshot(app.page, testInfo, 'find-replace-matches.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'find-replace-matches-dark.png')
  await app.page.emulateMedia({ colorScheme: null })
  await expectAccessible(app.page, testInfo, 'find bar')

  await keyboard.press('ControlOrMeta+h')
  const replacement = editor.findBar.getByRole('textbox', { name: 'Replace with' })
  await expect(replacement, 'with a query already typed, Ctrl+H goes to the replacement').toBeFocused()
  await keyboard.type('cable car')
  await editor.findBar.getByRole('button', { name: 'Replace all' }).click()
  await expect(editor.findCount).toHaveText('Replaced 4')
  await expect(editor.text.locator('p').first()).toHaveText('The cable car climbs the hill; the cable car stops at every corner.')
  await expect(editor.text.locator('p').last()).toHaveText('Trams are yellow. A cable car is slow, and cable car 28 is slower.')
  await saveScreenshot(app.page, testInfo, 'find-replace-replaced.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'find-replace-replaced-dark.png')
  await app.page.emulateMedia({ colorScheme: null })
  await expectAccessible(app.page, testInfo, 'find and replace bar')

  await keyboard.press('Escape')
  await expect(editor.findBar, 'Escape closes the bar').toHaveCount(0)
  await expect(editor.text, 'and the focus is back in the text').toBeFocused()
  await expect(editor.highlightedMatches).toHaveCount(0)
  await keyboard.press('ControlOrMeta+z')
  for (const [index, paragraph] of PARAGRAPHS.entries()) await expect(editor.text.locator('p').nth(index), 'one undo restores every match').toHaveText(paragraph)
  await expect(editor.saveState).toHaveText('Saved locally')
  expect((await localDraft(core, TITLE)).content).toBe(SAVED)

  // A single replacement, from the keyboard alone: Enter in the replacement replaces the current match.
  await keyboard.press('ControlOrMeta+h')
  await keyboard.type('stops')
  await keyboard.press('Tab')
  await expect(editor.findCount).toHaveText('1 of 1')
  await app.page.getByRole('textbox', { name: 'Replace with' }).focus()
  await keyboard.type('halts')
  await keyboard.press('Enter')
  await expect(editor.findCount).toHaveText('No matches')
  await expect(editor.text.locator('p').first()).toHaveText('The tram climbs the hill; the tram halts at every corner.')

  // The bar fits a small window.
  await app.page.setViewportSize({ width: 800, height: 600 })
  await saveScreenshot(app.page, testInfo, 'find-replace-800x600.png')
  const bar = await editor.findBar.boundingBox()
  expect(bar!.x + bar!.width, 'the bar is within the window').toBeLessThanOrEqual(800)
  for (const name of ['Close', 'Replace all', 'Next match']) await expect(editor.findBar.getByRole('button', { name })).toBeInViewport()
  await expectAccessible(app.page, testInfo, 'find bar at 800×600')
})

/** 50,000 words: 2,500 paragraphs of 20 words, every 25th with the word looked for (100 matches). */
const LONG_TITLE = 'The whole coast, end to end'
const LONG_PARAGRAPHS = Array.from({ length: 2_500 }, (_, index) =>
  index % 25 === 24
    ? `<p>At mile ${index + 1} the lighthouse stands white above the rocks and the road bends down to the sea once again.</p>`
    : `<p>At mile ${index + 1} the ferry crosses the river at dawn and the gulls follow it to the other bank again.</p>`,
)
const LONG_SAVED = LONG_PARAGRAPHS.join('\n')
/** A post this long takes seconds to open, and each step over all of it longer than usual, on a shared machine. */
const LONG_STEP = { timeout: 30_000 }

test('in a 50,000-word post, find counts every match, Shift+Enter goes round to the last in view, and Replace all is one undo', async ({
  app,
  service,
  core,
}, testInfo) => {
  test.setTimeout(180_000)
  const account = await core.accounts.add(service.sandbox)
  const [weblog] = await core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
  const draft = await core.handlers['drafts:create']({ accountId: account.id, weblogPostUri: weblog!.postUri })
  await core.handlers['drafts:save']({ draftId: draft.id, title: LONG_TITLE, content: LONG_SAVED })
  core.accounts.announce()

  const editor = new EditorModel(app.page)
  const keyboard = app.page.keyboard
  await editor.openDrafts(weblog!.title)
  await editor.openDraft(LONG_TITLE)
  await expect(editor.text.locator('p')).toHaveCount(LONG_PARAGRAPHS.length, LONG_STEP)
  await expect(app.page.getByText('50,000 words', { exact: true }), 'the post is as long as it says').toBeVisible(LONG_STEP)
  await editor.text.locator('p').first().click()
  await keyboard.press('ControlOrMeta+f')
  await expect(editor.findBar.getByRole('searchbox', { name: 'Find' })).toBeFocused()
  await keyboard.type('lighthouse')
  await expect(editor.findCount).toHaveText('1 of 100', LONG_STEP)
  // Every match on screen is highlighted; those far off are not drawn until the pane comes near them.
  const allOnScreenHighlighted = async (where: string) => {
    const onScreen = await editor.matchesOnScreen('lighthouse')
    expect(onScreen.shown, `some matches are on screen ${where}`).toBeGreaterThan(0)
    expect(onScreen.highlighted, `every match on screen is highlighted ${where}`).toBe(onScreen.shown)
  }
  await allOnScreenHighlighted('at the first match')
  expect(await editor.highlightedMatches.count(), 'not all 100 are drawn').toBeLessThan(100)
  await keyboard.press('Shift+Enter')
  await expect(editor.findCount, 'Shift+Enter from the first goes round to the last').toHaveText('100 of 100', LONG_STEP)
  await expect(editor.text.locator('.find-match--current'), 'the last match, at the end of the post, is brought into view').toBeInViewport()
  await allOnScreenHighlighted('at the last match')
  await saveScreenshot(app.page, testInfo, 'find-replace-50000-words.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'find-replace-50000-words-dark.png')
  await app.page.emulateMedia({ colorScheme: null })
  // Scrolled far back, to the middle of the post (as a scroll bar dragged there would).
  await editor.text.getByText('At mile 1250 the lighthouse').evaluate((paragraph) => paragraph.scrollIntoView({ block: 'center' }))
  await expect
    .poll(async () => (await editor.matchesOnScreen('lighthouse')).highlighted, { message: 'scrolled to the middle, its matches are highlighted', ...LONG_STEP })
    .toBeGreaterThan(0)
  await allOnScreenHighlighted('in the middle of the post')

  await keyboard.press('ControlOrMeta+h')
  await keyboard.type('beacon')
  await editor.findBar.getByRole('button', { name: 'Replace all' }).click()
  await expect(editor.findCount).toHaveText('Replaced 100', LONG_STEP)
  await expect(editor.text.locator('p', { hasText: 'lighthouse' })).toHaveCount(0, LONG_STEP)
  await expect(editor.text.locator('p', { hasText: 'beacon' })).toHaveCount(100)
  await keyboard.press('Escape')
  await expect(editor.text).toBeFocused()
  await keyboard.press('ControlOrMeta+z')
  await expect(editor.text.locator('p', { hasText: 'lighthouse' }), 'one undo restores every match').toHaveCount(100, LONG_STEP)
  await expect(editor.text.locator('p', { hasText: 'beacon' })).toHaveCount(0)
  await expect(editor.saveState).toHaveText('Saved locally', LONG_STEP)
  await expect.poll(async () => (await localDraft(core, LONG_TITLE)).content === LONG_SAVED, { timeout: 30_000 }).toBe(true)
})
