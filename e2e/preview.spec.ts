// Preview in the weblog's own look: the draft drawn inside the weblog's stylesheet and the frame its page puts around
// a post, read from the service's public page, shown again from the cache once the service is gone, beside the
// editor on a wide window, and in a neutral style that says why when the look was never read.
import { join } from 'node:path'
import type { Page, TestInfo } from '@playwright/test'
import { DEMO_PHOTOS_FOLDER } from '../src-service/demo/photos'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel } from './models/editor'
import { PreviewModel } from './models/preview'

const TITLE = 'Tiles of Lisbon'
const PARAGRAPHS = ['Blue and white, on every other wall of Alfama.', 'The oldest are in the museum; the best are on the street.']
/** From the service's public page style (src-service/public/page.ts): its accent on headings, in light and dark. */
const ACCENT = { light: 'rgb(31, 95, 139)', dark: 'rgb(140, 196, 234)' }

async function screenshots(page: Page, testInfo: TestInfo, name: string) {
  await saveScreenshot(page, testInfo, `${name}-light.png`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, `${name}-dark.png`)
  await page.emulateMedia({ colorScheme: null })
}

test('the preview draws the draft in the weblog’s own style, with its local image, beside the editor when wide, and from the cache offline', async ({
  app,
  service,
}, testInfo) => {
  test.setTimeout(150_000)
  const editor = new EditorModel(app.page)
  const preview = new PreviewModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write(TITLE, PARAGRAPHS)
  await editor.addImages([join(DEMO_PHOTOS_FOLDER, 'azulejos.jpg')])
  await expect(editor.images).toHaveCount(1)

  await preview.toggle.click()
  await expect(preview.toggle).toHaveAttribute('aria-pressed', 'true')
  await preview.ready()
  await expect(preview.about).toHaveText(/^In the weblog’s style, as read /)
  await expect(preview.frameElement, 'nothing in the preview runs').toHaveAttribute('sandbox', 'allow-same-origin')
  // The frame the service's post page puts around a post, with the draft in it.
  await expect(preview.frame.locator('main > article > h1')).toHaveText(TITLE)
  // (the editor's empty line after the image is there too, as the weblog will have it)
  await expect(preview.frame.locator('main > article > div.content > p').filter({ hasText: /./ })).toHaveText(PARAGRAPHS)
  // Styles that come from the weblog's stylesheet, not from the editor (serif) or the browser.
  expect(await preview.styleOf('body', 'font-family')).toBe('system-ui, sans-serif')
  expect(await preview.styleOf('main', 'max-width')).toBe('672px')
  expect(await preview.styleOf('h1', 'color')).toBe(ACCENT.light)
  // The image not yet uploaded shows from its local preview.
  const image = preview.frame.locator('div.content img')
  await expect(image).toHaveAttribute('src', /^data:image\//)
  expect(await image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true)
  await expect(editor.text, 'on a window under 1600 px the preview takes the text’s place').toBeHidden()
  await screenshots(app.page, testInfo, 'preview-weblog-style')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  expect(await preview.styleOf('h1', 'color'), 'the weblog’s own dark colours').toBe(ACCENT.dark)
  await app.page.emulateMedia({ colorScheme: null })
  await expectAccessible(app.page, testInfo, 'preview in the weblog’s style')

  // Wide: the editor and the preview side by side; what is typed shows in the preview once typing pauses.
  await app.page.setViewportSize({ width: 1920, height: 1080 })
  await expect(editor.text).toBeVisible()
  await expect(preview.frameElement).toBeVisible()
  await screenshots(app.page, testInfo, 'preview-side-by-side-1920')
  const textBox = (await editor.text.boundingBox())!
  const frameBox = (await preview.frameElement.boundingBox())!
  expect(frameBox.x, 'the preview stands to the right of the text').toBeGreaterThanOrEqual(textBox.x + textBox.width)
  await editor.text.locator('p').nth(1).click()
  await app.page.keyboard.press('End')
  await app.page.keyboard.type(' Look up.')
  await expect(preview.frame.locator('div.content p').nth(1)).toHaveText(`${PARAGRAPHS[1]} Look up.`)
  await preview.ready()
  await expectAccessible(app.page, testInfo, 'editor and preview side by side')
  await app.page.setViewportSize({ width: 1280, height: 720 })

  // The service is gone: the look comes from the local cache, and reading it again says it could not.
  await service.stop()
  await preview.toggle.click()
  await expect(preview.pane).toHaveCount(0)
  await preview.toggle.click()
  await preview.ready()
  expect(await preview.styleOf('h1', 'color'), 'the cached look, offline').toBe(ACCENT.light)
  await preview.readAgain.click()
  await expect(preview.about).toHaveText(/^The weblog’s look could not be read again: .+\. This is how it looked when last read\.$/)
  await preview.ready()
  expect(await preview.styleOf('body', 'font-family')).toBe('system-ui, sans-serif')
  await screenshots(app.page, testInfo, 'preview-offline-cached')
})

test('a weblog whose look was never read is previewed in a neutral style, saying why', async ({ app, service }, testInfo) => {
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  const preview = new PreviewModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  // Gone before any draft is opened (the look is asked for as a draft opens), once the sidebar lists the weblog.
  await expect(app.page.getByRole('list', { name: weblog!, exact: true }).getByRole('button', { name: 'Drafts', exact: true })).toBeVisible()
  await service.stop()
  await editor.openDrafts(weblog!)
  await editor.write(TITLE, PARAGRAPHS)
  await expect(editor.saveState).toHaveText('Saved locally')

  await preview.toggle.click()
  await preview.ready()
  await expect(preview.about).toHaveText(/^Shown in a neutral style: .*could not be reached/)
  await expect(preview.frame.locator('h1')).toHaveText(TITLE)
  await expect(preview.frame.locator('article p')).toHaveText(PARAGRAPHS)
  expect(await preview.styleOf('h1', 'color'), 'not the weblog’s accent').not.toBe(ACCENT.light)
  expect(await preview.styleOf('main', 'max-width')).toBe('640px')
  await screenshots(app.page, testInfo, 'preview-neutral')
  await expectAccessible(app.page, testInfo, 'preview in a neutral style')
})
