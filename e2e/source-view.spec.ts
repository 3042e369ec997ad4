// The HTML source view as a writer uses it: the post as readable HTML in a code editor (highlighted, indented, local
// images by their file names), edited with the keyboard, left with Escape then Tab, and taken back into the text
// with the post intact and its images still the post's own.
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { DEMO_PHOTOS_FOLDER } from '../src-service/demo/photos'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { EditorModel, localDraft } from './models/editor'

/** The code editor's text, line by line, as CodeMirror holds it (it draws only the lines in view). */
const sourceText = (page: Page) =>
  page.evaluate(() => {
    const host = document.querySelector('.source-editor__code')!
    return [...host.shadowRoot!.querySelectorAll('.cm-line')].map((line) => line.textContent).join('\n')
  })

test('the HTML source view shows the post as indented, highlighted HTML with images by file name, and takes edits back', async ({
  app,
  service,
  core,
}, testInfo) => {
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  const keyboard = app.page.keyboard
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.write('Azulejos', ['Blue & white tiles — “on every wall”.', ''])
  // The editor's own shortcuts: "- " starts a list, "> " a quotation.
  await keyboard.type('- Tea\nCoffee\n\n> Quoted, in Lisbon: Olá!')
  await keyboard.press('Enter')
  await keyboard.press('Enter')
  await editor.addImages([join(DEMO_PHOTOS_FOLDER, 'azulejos.jpg')])
  await expect(editor.images).toHaveCount(1)
  await expect(editor.saveState).toHaveText('Saved locally')
  const before = (await localDraft(core, 'Azulejos')).content
  expect(before).toContain('<li><p>Tea</p></li>')
  expect(before).toMatch(/src="blogdesk-media:[0-9a-f]{64}"/)

  const toggle = editor.editor.getByRole('button', { name: 'HTML source' })
  await toggle.click()
  const source = editor.editor.getByRole('textbox', { name: 'HTML source' })
  await expect(source, 'the caret is in the source at once').toBeFocused()
  await expect.poll(() => sourceText(app.page)).toContain('<img src="azulejos.jpg"')
  const shown = await sourceText(app.page)
  expect(shown).toContain(['<ul>', '  <li>Tea</li>', '  <li>Coffee</li>', '</ul>'].join('\n'))
  expect(shown).toContain('<p>Blue &amp; white tiles — “on every wall”.</p>')
  expect(shown).not.toContain('blogdesk-media:')
  expect(shown).not.toContain('<p></p>')
  // Highlighted: tag names, attribute names and values each in a colour of their own.
  const colours = await app.page.evaluate(() => {
    const root = document.querySelector('.source-editor__code')!.shadowRoot!
    const colourOf = (text: string) => {
      const span = [...root.querySelectorAll('.cm-line span')].find((candidate) => candidate.textContent === text)
      return span ? getComputedStyle(span).color : null
    }
    return { tag: colourOf('img'), attribute: colourOf('src'), value: colourOf('"azulejos.jpg"') }
  })
  expect(new Set(Object.values(colours)).size, JSON.stringify(colours)).toBe(3)
  expect(Object.values(colours)).not.toContain(null)
  await saveScreenshot(app.page, testInfo, 'source-view.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'source-view-dark.png')
  await app.page.emulateMedia({ colorScheme: null })
  const viewport = app.page.viewportSize()!
  await app.page.setViewportSize({ width: 800, height: 600 })
  await saveScreenshot(app.page, testInfo, 'source-view-800x600.png')
  await app.page.setViewportSize(viewport)
  await expectAccessible(app.page, testInfo, 'the HTML source view')

  // Unchanged, back and forth: the post is exactly what it was.
  await toggle.click()
  await expect(editor.text).toBeFocused()
  await expect(editor.saveState).toHaveText('Saved locally')
  expect((await localDraft(core, 'Azulejos')).content).toBe(before)

  // Edited with the keyboard: Enter indents inside a list, Tab indents, the end tag comes by itself.
  await toggle.click()
  await expect(source).toBeFocused()
  await keyboard.press('ControlOrMeta+End')
  await keyboard.press('Enter')
  await keyboard.type('<h2>')
  await keyboard.type('Added in the source & kept')
  await expect.poll(() => sourceText(app.page)).toContain('<h2>Added in the source & kept</h2>')
  await keyboard.press('ControlOrMeta+End')
  await keyboard.press('Enter')
  await keyboard.press('Tab')
  await keyboard.type('x')
  await expect.poll(() => sourceText(app.page), 'Tab indents').toMatch(/\n\s{2}x$/)
  await keyboard.press('Backspace')
  await keyboard.press('Backspace')
  await keyboard.press('Backspace')
  // Tab stays in the code; Escape then Tab moves on, as CodeMirror advises for keyboard users.
  await keyboard.press('Escape')
  await keyboard.press('Tab')
  await expect(source, 'Escape then Tab leaves the code editor').not.toBeFocused()
  await expect(toggle).toBeFocused()
  await expect(editor.saveState).toHaveText('Saved locally')
  const whileOpen = (await localDraft(core, 'Azulejos')).content
  expect(whileOpen, 'saved while open with the image’s own address').toMatch(/src="blogdesk-media:[0-9a-f]{64}"/)
  expect(whileOpen).not.toContain('azulejos.jpg')

  await keyboard.press('Enter')
  await expect(editor.text.getByRole('heading', { name: 'Added in the source & kept' })).toBeVisible()
  await expect(editor.images, 'the image is still the post’s own').toHaveCount(1)
  await expect(editor.images).toHaveAttribute('src', /^data:image\//)
  await expect(editor.text.locator('li')).toHaveText(['Tea', 'Coffee'])
  await expect(editor.text.locator('blockquote')).toHaveText('Quoted, in Lisbon: Olá!')
  await expect(editor.saveState).toHaveText('Saved locally')
  const after = (await localDraft(core, 'Azulejos')).content
  expect(after).toContain('<h2>Added in the source &amp; kept</h2>')
  expect(after).toMatch(/<img src="blogdesk-media:[0-9a-f]{64}"/)
  expect(after.replace('\n<h2>Added in the source &amp; kept</h2>', '').replaceAll('\n<p></p>', '')).toBe(before.replaceAll('\n<p></p>', ''))
  await saveScreenshot(app.page, testInfo, 'source-view-back.png')
  // An image without alt text written in the source: publishing from there asks about it as from the rich text, and
  // describing it takes the HTML back into the editor with that image's properties open.
  await toggle.click()
  await expect(source).toBeFocused()
  await keyboard.press('ControlOrMeta+End')
  await keyboard.press('Enter')
  await keyboard.type('<img src="azulejos.jpg">')
  await expect.poll(() => sourceText(app.page)).toMatch(/<img src="azulejos.jpg">\s*$/)
  await editor.publishButton.click()
  const missing = app.page.getByRole('dialog', { name: 'An image has no alt text' })
  await expect(missing).toBeVisible()
  await expect(editor.stateBadge, 'nothing was sent while the question is open').toHaveText('Draft')
  await saveScreenshot(app.page, testInfo, 'source-view-missing-alt.png')
  await missing.getByRole('button', { name: 'Describe image 1…' }).click()
  await expect(source, 'back in the rich text').toHaveCount(0)
  await expect(editor.images).toHaveCount(2)
  const properties = app.page.getByRole('dialog', { name: 'Image properties' })
  await expect(properties.getByRole('textbox', { name: 'Alt text' })).toBeFocused()
  await properties.getByRole('textbox', { name: 'Alt text' }).fill('The same tiles, closer')
  await properties.getByRole('button', { name: 'Apply' }).click()
  await expect(properties).toHaveCount(0)
  await expect(editor.text.locator('img[alt="The same tiles, closer"]')).toHaveCount(1)
  await expect(editor.text.locator('img:not([alt])'), 'the image described is the one that had no alt text').toHaveCount(0)
})
