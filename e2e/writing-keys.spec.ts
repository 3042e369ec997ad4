// What is typed goes where the caret is drawn, at machine speed: an image selected a moment ago is never replaced by
// the text typed after the caret moved away from it, and focus and selection move with the key that moves them.
import { join } from 'node:path'
import { DEMO_PHOTOS_FOLDER } from '../src-service/demo/photos'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { EditorModel, fetchWeblogPosts, localDraft } from './models/editor'

const FAST_TRIES = 30

test('clicking an image, pressing Ctrl+End and typing at once never replaces the image: saved and published with it', async ({
  app,
  service,
  core,
}, testInfo) => {
  // 30 tries, a save and a publish: well within a minute alone, longer on a machine shared with other work.
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  const weblog = await editor.openSandboxDrafts(app, service.sandbox)
  await editor.write('Tiles of Lisbon', ['Blue and white, on every other wall.'])
  await editor.addImages([join(DEMO_PHOTOS_FOLDER, 'azulejos.jpg')])
  await expect(editor.images).toHaveCount(1)

  let typed = ''
  for (let attempt = 0; attempt < FAST_TRIES; attempt++) {
    // Said at the try that lost it, rather than as a click waiting for an image that is gone.
    await expect(editor.images, `the image is still there before try ${attempt + 1}`).toHaveCount(1)
    await editor.images.click()
    await app.page.keyboard.press('ControlOrMeta+End')
    await app.page.keyboard.type('ab')
    typed += 'ab'
  }
  await expect(editor.images, 'every fast try kept the image').toHaveCount(1)
  await expect(editor.text.locator('p').last()).toHaveText(typed)
  await saveScreenshot(app.page, testInfo, 'writing-keys-image-kept.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'writing-keys-image-kept-dark.png')
  await app.page.emulateMedia({ colorScheme: null })
  await expect(editor.saveState).toHaveText('Saved locally')
  const saved = (await localDraft(core, 'Tiles of Lisbon')).content
  expect(saved.match(/<img /g), 'the local draft has the image').toHaveLength(1)
  expect(saved).toContain(`<p>${typed}</p>`)

  await editor.publishByKeys()
  await expect(editor.stateBadge).toHaveText('Published')
  const post = (await fetchWeblogPosts(service.sandbox, weblog)).find((candidate) => candidate.title === 'Tiles of Lisbon')
  const published = await (await fetch(post!.permalink!)).text()
  expect(published.match(/<img /g), 'the weblog has the image').toHaveLength(1)
  expect(published).toContain(typed)
})

test('an image is never the last thing in a post, shows it is selected, takes typing beside it, and is removed only with a word and an undo', async ({
  app,
  service,
}, testInfo) => {
  // An accessibility check in light and dark, on a machine shared with other work.
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.write('Trams', ['The 28 climbs to Graça.'])
  await editor.addImages([join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg')])
  await expect(editor.images).toHaveCount(1)
  await expect(editor.text.locator(':scope > *').last(), 'a line after the image, for the caret').toHaveJSProperty('tagName', 'P')

  await editor.images.click()
  await expect(editor.images).toHaveClass(/ProseMirror-selectednode/)
  await saveScreenshot(app.page, testInfo, 'writing-keys-image-selected.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'writing-keys-image-selected-dark.png')
  await app.page.emulateMedia({ colorScheme: null })
  await expectAccessible(app.page, testInfo, 'a selected image in the text')
  await expect(editor.images, 'the check left the image selected').toHaveClass(/ProseMirror-selectednode/)

  await app.page.keyboard.type('Yellow and slow.')
  await expect(editor.images, 'typing over a selected image goes beside it').toHaveCount(1)
  await expect(editor.text.locator(':scope > *').last()).toHaveText('Yellow and slow.')

  await editor.images.click()
  await app.page.keyboard.press('Delete')
  await expect(editor.images, 'Delete on a selected image removes it: that is what the key is for').toHaveCount(0)
  await expect(editor.editor.getByRole('status').filter({ hasText: 'Image removed' })).toHaveText(/Image removed\. (Ctrl\+Z|⌘Z) brings it back\./)
  await app.page.keyboard.press('ControlOrMeta+z')
  await expect(editor.images, 'one undo brings it back').toHaveCount(1)
  await expect(editor.text.locator(':scope > *').last()).toHaveText('Yellow and slow.')
})

const QUICK_ROUNDS = 20

test('at machine speed, Enter in the title sends the next key to the text, and Ctrl+K links exactly what was just selected', async ({
  app,
  service,
  core,
}, testInfo) => {
  // Twenty rounds of each, every key a round trip to the browser: on a shared two-core machine, over a minute.
  test.setTimeout(180_000)
  const editor = new EditorModel(app.page)
  const keyboard = app.page.keyboard
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.startPost()

  for (let round = 0; round < QUICK_ROUNDS; round++) {
    await editor.title.focus()
    await keyboard.press('ControlOrMeta+a')
    await keyboard.type(`Ferries ${round}\n${round % 10}`)
    await expect(editor.title, 'the key after Enter is not in the title').toHaveValue(`Ferries ${round}`)
  }
  const digits = Array.from({ length: QUICK_ROUNDS }, (_, round) => String(round % 10))
    .reverse()
    .join('')
  await expect(editor.text.locator('p').first(), 'every key after Enter went to the start of the text').toHaveText(digits)

  for (let round = 0; round < QUICK_ROUNDS; round++) {
    const word = `pier${round}`
    await keyboard.press('ControlOrMeta+End')
    await keyboard.type(`\nBoats leave from the ${word}`)
    for (let letter = 0; letter < word.length; letter++) await keyboard.press('Shift+ArrowLeft')
    await keyboard.press('ControlOrMeta+k')
    await keyboard.type(`example.com/${round}\n`)
    await expect(editor.text.locator(`a[href="https://example.com/${round}"]`), 'the link is on the whole selection').toHaveText(word)
    await expect(editor.text.locator('p').last(), 'no key of the address landed in the text').toHaveText(`Boats leave from the ${word}`)
  }
  await saveScreenshot(app.page, testInfo, 'writing-keys-fast-links.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'writing-keys-fast-links-dark.png')
  await app.page.emulateMedia({ colorScheme: null })

  // Home, End and Shift+End act on the line where the caret is drawn, however fast the next key follows.
  await keyboard.press('ControlOrMeta+End')
  await keyboard.type('\nmiddle')
  await keyboard.press('Home')
  await keyboard.type('start ')
  await keyboard.press('End')
  await keyboard.type(' end')
  await keyboard.press('Home')
  await keyboard.press('Shift+End')
  await keyboard.type('replaced')
  await expect(editor.text.locator('p').last()).toHaveText('replaced')
  await keyboard.press('ControlOrMeta+Home')
  await keyboard.type('^')
  await expect(editor.text.locator('p').first(), 'Ctrl+Home goes to the start of the post').toHaveText(`^${digits}`)
  await expect(editor.saveState).toHaveText('Saved locally')
  const saved = (await localDraft(core, `Ferries ${QUICK_ROUNDS - 1}`)).content
  expect(saved.match(/<a /g), 'one link per round, none split or short').toHaveLength(QUICK_ROUNDS)
})

test('PageDown moves the caret a page down the post, and the key typed next goes where it is drawn', async ({ app, service }) => {
  // Sixty paragraphs typed first, each a round trip to the browser: a loaded machine needs more than a minute.
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  const keyboard = app.page.keyboard
  await editor.openSandboxDrafts(app, service.sandbox)
  await writeLongWalk(editor, 'A long walk')
  await keyboard.press('ControlOrMeta+Home')
  await keyboard.press('PageDown')
  await keyboard.type('@')
  const typedIn = editor.text.locator('p').filter({ hasText: '@' })
  await expect(typedIn).toHaveCount(1)
  await expect(typedIn, 'the caret went down a page, and stayed on screen').toBeInViewport()
  const index = await typedIn.evaluate((paragraph) => [...paragraph.parentElement!.children].indexOf(paragraph))
  expect(index).toBeGreaterThan(3)
  expect(index).toBeLessThan(59)
  await keyboard.press('PageUp')
  await keyboard.press('PageUp')
  await keyboard.type('#')
  await expect(editor.text.locator('p').first(), 'PageUp on the first page goes to the start').toHaveText(/^#Paragraph 0/)
})

test('PageDown pressed before the pane has scrolled to the caret moves a page down from the caret, not from where the pane was', async ({
  app,
  service,
}) => {
  test.setTimeout(120_000)
  const editor = new EditorModel(app.page)
  const keyboard = app.page.keyboard
  await editor.openSandboxDrafts(app, service.sandbox)
  await writeLongWalk(editor, 'A longer walk')
  // Ctrl+Home and PageDown in one task: the pane's scroll to the caret waits for the next frame, as it did when the
  // PageDown journey above once typed into paragraph 1 with the pane scrolled by one paragraph.
  await editor.text.evaluate((text) => {
    const mac = /Mac|iPhone|iPad/.test(navigator.platform)
    text.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', ctrlKey: !mac, metaKey: mac, bubbles: true, cancelable: true }))
    text.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageDown', bubbles: true, cancelable: true }))
  })
  await keyboard.type('@')
  const typedIn = editor.text.locator('p').filter({ hasText: '@' })
  await expect(typedIn).toHaveCount(1)
  await expect(typedIn).toBeInViewport()
  const index = await typedIn.evaluate((paragraph) => [...paragraph.parentElement!.children].indexOf(paragraph))
  expect(index, 'a page down from the start of the post').toBeGreaterThan(3)
  expect(index).toBeLessThan(59)
})

test('Ctrl+K pressed before the page has reported a selection the browser just made links that selection', async ({ app, service }) => {
  const editor = new EditorModel(app.page)
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.write('Ferry times', ['Boats leave from the pier'])
  // The browser selects the last word, as Shift+Ctrl+ArrowLeft does, and Ctrl+K comes in the same task: before the
  // `selectionchange` that would tell the editor, the tightest a fast typist or a macro gets.
  await editor.text.evaluate((text) => {
    const words = text.querySelector('p')!.firstChild!
    const end = words.textContent!.length
    document.getSelection()!.setBaseAndExtent(words, end, words, end - 'pier'.length)
    const mac = /Mac|iPhone|iPad/.test(navigator.platform)
    text.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: !mac, metaKey: mac, bubbles: true, cancelable: true }))
  })
  await app.page.keyboard.type('example.com/pier\n')
  await expect(editor.text.locator('a[href="https://example.com/pier"]')).toHaveText('pier')
  await expect(editor.text.locator('p').first()).toHaveText('Boats leave from the pier')
})

test('typed characters take the formatting where they are typed, the Markdown shortcuts still work, and a selection is typed over', async ({ app, service, core }) => {
  const editor = new EditorModel(app.page)
  const keyboard = app.page.keyboard
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.write('Typed as it reads', ['Plain and '])
  await keyboard.press('ControlOrMeta+b')
  await keyboard.type('bold')
  await keyboard.press('ControlOrMeta+b')
  // Each \n is an Enter: the second one after the item leaves the list.
  await keyboard.type(' again.\n## A heading\n- an item\n\nThe last wrod')
  await keyboard.press('Shift+ControlOrMeta+ArrowLeft')
  await keyboard.type('word')

  await expect(editor.text.locator('p').first()).toHaveText('Plain and bold again.')
  await expect(editor.text.locator('p strong')).toHaveText('bold')
  await expect(editor.text.locator('h2')).toHaveText('A heading')
  await expect(editor.text.locator('ul li')).toHaveText('an item')
  await expect(editor.text.locator('p', { hasText: 'The last' })).toHaveText('The last word')
  await expect(editor.saveState).toHaveText('Saved locally')
  const saved = (await localDraft(core, 'Typed as it reads')).content
  expect(saved).toContain('<p>Plain and <strong>bold</strong> again.</p>')
  expect(saved).toContain('<h2>A heading</h2>')
  expect(saved).toContain('<p>The last word</p>')
})

/** A post of 60 paragraphs, long enough to page through: the first typed, the rest inserted (each a round trip). */
async function writeLongWalk(editor: EditorModel, title: string): Promise<void> {
  await editor.write(title, ['Paragraph 0 of the walk.'])
  for (let paragraph = 1; paragraph < 60; paragraph++) {
    await editor.page.keyboard.press('Enter')
    await editor.page.keyboard.insertText(`Paragraph ${paragraph} of the walk, along the river and up the hill.`)
  }
}
