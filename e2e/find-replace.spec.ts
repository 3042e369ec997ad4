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
