// Images as a writer expects: alt text asked for as an image is added, the selected image's properties (caption,
// alignment, width, link to the original) written as plain HTML, the image sent at that width and the original linked,
// a published figure read back with the same properties, and images without alt text listed at publish.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { DEMO_PHOTOS_FOLDER } from '../src-service/demo/photos'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { chooseFiles, pasteFiles } from './harness/files'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel, fetchWeblogPosts, localDraft } from './models/editor'

const PHOTO = join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg') // 1200 × 800
const TILES = join(DEMO_PHOTOS_FOLDER, 'azulejos.jpg')
const ALT = 'A yellow tram climbing a narrow street'
const CAPTION = 'The 28 on its way up to Graça'

async function screenshots(page: Page, testInfo: Parameters<typeof saveScreenshot>[1], name: string): Promise<void> {
  await saveScreenshot(page, testInfo, `${name}.png`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, `${name}-dark.png`)
  await page.emulateMedia({ colorScheme: null })
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer())

test('an image is described as it is added, given a caption, alignment and width, and published so', async ({ app, service, core }, testInfo) => {
  // Three dialogs checked by axe in light and dark, a publish and a second draft, on a machine shared with other work.
  test.setTimeout(180_000)
  const editor = new EditorModel(app.page)
  const page = app.page
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)

  // The weblog's widest image, kept on this computer.
  const setting = page.getByRole('spinbutton', { name: 'Widest image, in pixels' })
  await expect(setting).toHaveValue('1200')
  await setting.fill('1000')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved: images are sent at most 1000 pixels wide.' })).toBeVisible()
  await screenshots(page, testInfo, 'images-weblog-setting')

  await editor.write('Up to Graça', ['The tram takes the hill slowly.'])
  await chooseFiles(editor.imagePicker, [PHOTO])
  const describe = editor.altTextDialog
  await expect(describe).toBeVisible()
  const altField = describe.getByRole('textbox', { name: 'Alt text' })
  await expect(altField, 'the suggestion from the file name, ready to be typed over').toHaveValue('Tram 28')
  await expect(altField).toBeFocused()
  await altField.fill('')
  await describe.getByRole('button', { name: 'Add image' }).click()
  await expect(describe.getByText('Describe the image, or mark it as decorative.')).toBeVisible()
  await screenshots(page, testInfo, 'images-alt-dialog')
  await expectAccessible(page, testInfo, 'alt text dialog')
  await altField.fill(ALT)
  await page.keyboard.press('Enter')
  await expect(describe).toHaveCount(0)
  await expect(editor.images).toHaveCount(1)
  await expect(editor.images).toHaveAttribute('alt', ALT)

  // The properties, from the keyboard: the image selected, Alt+Enter.
  await editor.images.click()
  await expect(editor.editor.getByRole('button', { name: 'Image properties…' })).toBeEnabled()
  await page.keyboard.press('Alt+Enter')
  const properties = page.getByRole('dialog', { name: 'Image properties' })
  await expect(properties).toBeVisible()
  await expect(properties.getByRole('textbox', { name: 'Alt text' })).toHaveValue(ALT)
  await properties.getByRole('textbox', { name: 'Caption' }).fill(CAPTION)
  await properties.getByRole('radio', { name: 'Right, text around it' }).check()
  await properties.getByRole('radio', { name: 'A width of my choice' }).check()
  await properties.getByRole('spinbutton', { name: 'Width in pixels' }).fill('400')
  await properties.getByRole('checkbox', { name: /^Link to the original/ }).check()
  await screenshots(page, testInfo, 'images-properties')
  await expectAccessible(page, testInfo, 'image properties dialog')
  // On the smallest window the fields scroll and the actions stay in view.
  await page.setViewportSize({ width: 800, height: 600 })
  await expect(properties.getByRole('button', { name: 'Apply' })).toBeInViewport()
  await screenshots(page, testInfo, 'images-properties-800x600')
  await page.setViewportSize({ width: 1200, height: 760 })
  await properties.getByRole('button', { name: 'Apply' }).click()
  await expect(properties).toHaveCount(0)
  await expect(editor.text.locator('figure.post-figure--right figcaption')).toHaveText(CAPTION)
  await expect(editor.images).toHaveAttribute('width', '400')
  await screenshots(page, testInfo, 'images-figure-in-editor')

  // Saved as plain HTML, which any source view shows and keeps.
  await expect(editor.saveState).toHaveText('Saved locally')
  const saved = (await localDraft(core, 'Up to Graça')).content
  const local = /src="(blogdesk-media:[0-9a-f]{64})"/.exec(saved)![1]!
  expect(saved).toContain(
    `<figure class="alignright"><a href="${local}"><img src="${local}" alt="${ALT}" width="400"></a><figcaption>${CAPTION}</figcaption></figure>`,
  )
  await editor.editor.getByRole('button', { name: 'HTML source' }).click()
  await expect(editor.editor.getByText(`<figcaption>${CAPTION}</figcaption>`, { exact: false })).toBeVisible()
  await editor.editor.getByRole('button', { name: 'HTML source' }).click()
  await expect(editor.text.locator('figure.post-figure--right figcaption')).toHaveText(CAPTION)

  await editor.publishByKeys()
  await expect(editor.stateBadge).toHaveText('Published')
  const post = (await fetchWeblogPosts(service.sandbox, weblog!)).find((candidate) => candidate.title === 'Up to Graça')
  const published = await (await fetch(post!.permalink!)).text()
  const figure = /<figure class="alignright">.*?<\/figure>/s.exec(published)?.[0]
  expect(figure, 'the weblog shows the figure with its alignment').toBeDefined()
  expect(figure).toContain(`alt="${ALT}"`)
  expect(figure).toContain('width="400"')
  expect(figure).toContain(`<figcaption>${CAPTION}</figcaption>`)
  const shown = new URL(/<img src="([^"]+)"/.exec(figure!)![1]!, post!.permalink!).href
  const linked = new URL(/<a href="([^"]+)"/.exec(figure!)![1]!, post!.permalink!).href
  expect((await sharp(await download(shown)).metadata()).width, 'the image was scaled to its width before upload').toBe(400)
  expect(sha256(await download(linked)), 'the link goes to the original, as added').toBe(sha256(readFileSync(PHOTO)))

  // The published figure, opened in the editor, has the same properties back.
  const account = (await core.handlers['accounts:list'](null))[0]!
  const [postWeblog] = (await core.handlers['weblogs:list']({ accountId: account.id, refresh: false })).filter((candidate) => candidate.title === weblog)
  const copy = await core.handlers['drafts:create']({ accountId: account.id, weblogPostUri: postWeblog!.postUri })
  await core.handlers['drafts:save']({ draftId: copy.id, title: 'As published', content: `<p>From the weblog.</p>\n${figure!}` })
  await editor.openDraft('As published')
  await expect(editor.title).toHaveValue('As published')
  await editor.images.click()
  await page.keyboard.press('Alt+Enter')
  await expect(properties.getByRole('textbox', { name: 'Alt text' })).toHaveValue(ALT)
  await expect(properties.getByRole('textbox', { name: 'Caption' })).toHaveValue(CAPTION)
  await expect(properties.getByRole('radio', { name: 'Right, text around it' })).toBeChecked()
  await expect(properties.getByRole('spinbutton', { name: 'Width in pixels' })).toHaveValue('400')
  await expect(properties.getByRole('checkbox', { name: /^Link to the original/ })).toBeChecked()
  await page.keyboard.press('Escape')
  await expect(properties).toHaveCount(0)
})

test('images without alt text are listed at publish, to describe or to publish as they are', async ({ app, service, core }, testInfo) => {
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  const page = app.page
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  // A post written before alt text was asked for: its image has none.
  const account = (await core.handlers['accounts:list'](null))[0]!
  const [target] = (await core.handlers['weblogs:list']({ accountId: account.id, refresh: false })).filter((candidate) => candidate.title === weblog)
  const image = await core.handlers['media:importFile']({ path: PHOTO })
  const draft = await core.handlers['drafts:create']({ accountId: account.id, weblogPostUri: target!.postUri })
  await core.handlers['drafts:save']({ draftId: draft.id, title: 'Old notes', content: `<p>Written long ago.</p>\n<img src="blogdesk-media:${image.hash}">\n<p>The end.</p>` })
  await editor.openDraft('Old notes')
  await expect(editor.images).toHaveCount(1)

  await editor.publishButton.click()
  const missing = page.getByRole('dialog', { name: 'An image has no alt text' })
  await expect(missing).toBeVisible()
  await expect(missing.getByRole('button', { name: 'Publish anyway' })).toBeVisible()
  await screenshots(page, testInfo, 'images-missing-alt')
  await expectAccessible(page, testInfo, 'images without alt text at publish')
  await expect(editor.stateBadge, 'nothing was sent while the question is open').not.toHaveText('Published')

  await missing.getByRole('button', { name: 'Describe image 1…' }).click()
  const properties = page.getByRole('dialog', { name: 'Image properties' })
  await expect(properties.getByRole('textbox', { name: 'Alt text' })).toBeFocused()
  await properties.getByRole('checkbox', { name: 'Decorative image (no alt text)' }).check()
  // Replace keeps what was set: the new photo goes up, still decorative.
  await chooseFiles(properties.getByLabel('Choose the image that replaces this one'), [TILES])
  await expect(properties.getByRole('button', { name: 'Replace image…' })).toBeEnabled()
  await properties.getByRole('button', { name: 'Apply' }).click()
  await expect(properties).toHaveCount(0)

  await editor.publishButton.click()
  await expect(editor.stateBadge).toHaveText('Published')
  const post = (await fetchWeblogPosts(service.sandbox, weblog!)).find((candidate) => candidate.title === 'Old notes')
  const published = await (await fetch(post!.permalink!)).text()
  const decorative = /<img src="([^"]+)" alt="" \/>/.exec(published)
  expect(decorative, 'a decorative image says so with an empty alt').not.toBeNull()
  expect(sha256(await download(new URL(decorative![1]!, post!.permalink!).href)), 'the replacing photo was sent').toBe(sha256(readFileSync(TILES)))
})

test('a pasted image is asked for its alt text like one added from the toolbar, and keeps it', async ({ app, service, core }, testInfo) => {
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write('Pasted in', ['A picture copied from elsewhere follows.'])

  await pasteFiles(editor.text, [PHOTO])
  const describe = editor.altTextDialog
  await expect(describe, 'a pasted image is asked for its alt text too').toBeVisible()
  const altField = describe.getByRole('textbox', { name: 'Alt text' })
  await expect(altField).toHaveValue('Tram 28')
  await expect(altField).toBeFocused()
  await screenshots(app.page, testInfo, 'images-pasted-alt-dialog')
  await altField.fill(ALT)
  await app.page.keyboard.press('Enter')
  await expect(describe).toHaveCount(0)
  await expect(editor.images).toHaveCount(1)
  await expect(editor.images).toHaveAttribute('alt', ALT)
  await expect(editor.saveState).toHaveText('Saved locally')
  expect((await localDraft(core, 'Pasted in')).content).toMatch(new RegExp(`<img src="blogdesk-media:[^"]+" alt="${ALT}"`))
})
