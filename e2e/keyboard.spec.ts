// Keyboard first, with no mouse: the skip link is the first Tab stop, F6 and Shift+F6 move between the panes, New post
// is two key presses from the start of the window, the toolbar is one Tab stop with a More menu when narrow, the
// shortcuts sheet lists the table the keys use, Ctrl+Enter publishes only from the post and asks the first time, and
// the focus outline has at least 3:1 contrast, 2 px solid, in both themes.
import type { Page } from '@playwright/test'
import { shortcuts } from '../src-shared/contract'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { EditorModel, fetchWeblogPosts } from './models/editor'

/** What has the focus, as a person hears it: its role-ish tag and its name. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null
    if (!element || element === document.body) return 'nothing'
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? ''
    return `${element.getAttribute('role') ?? element.tagName.toLowerCase()} ${name}`
  })
}

/** Which pane the focus is in: 'sidebar', 'list', 'main', or 'none'. */
function focusedPane(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.closest('[data-pane]')?.getAttribute('data-pane') ?? 'none')
}

/** Key presses from a freshly loaded window until New post has the focus, pressing `key` each time (at most 40). */
async function pressesToNewPost(page: Page, key: string): Promise<number> {
  await page.reload()
  const editor = new EditorModel(page)
  await expect(editor.newPostButton).toBeVisible()
  for (let presses = 1; presses <= 40; presses++) {
    await page.keyboard.press(key)
    if (await editor.newPostButton.evaluate((button) => button === document.activeElement)) return presses
  }
  return Number.POSITIVE_INFINITY
}

test('the skip link comes first, F6 cycles the panes and remembers where the focus was, and New post is 2 presses away', async ({ app, service }, testInfo) => {
  // Three fresh windows, and axe in both themes.
  test.setTimeout(180_000)
  const page = app.page
  const editor = new EditorModel(page)
  await editor.openSandboxDrafts(app, service.sandbox)
  await expect(editor.newPostButton).toBeVisible()

  const byTab = await pressesToNewPost(page, 'Tab')
  const byF6 = await pressesToNewPost(page, 'F6')
  testInfo.annotations.push({ type: 'figure', description: `Tab stops to New post: ${byTab}; F6 presses: ${byF6}` })
  expect(byF6, 'F6 reaches New post in at most 3 presses').toBeLessThanOrEqual(3)

  await page.reload()
  await expect(editor.newPostButton).toBeVisible()
  await page.keyboard.press('Tab')
  const skipLink = page.getByRole('link', { name: 'Skip to main content' })
  await expect(skipLink).toBeFocused()
  const box = await skipLink.boundingBox()
  expect(box && box.y >= 0 && box.width > 0, 'the skip link is in view while it has the focus').toBe(true)
  await saveScreenshot(page, testInfo, 'keyboard-skip-link.png')
  await page.keyboard.press('Enter')
  expect(await focusedPane(page)).toBe('main')

  // F6 forwards from the main pane wraps to the sidebar, then the list, then the main pane; Shift+F6 goes back.
  const forwards: string[] = []
  for (let step = 0; step < 3; step++) {
    await page.keyboard.press('F6')
    forwards.push(await focusedPane(page))
  }
  expect(forwards).toEqual(['sidebar', 'list', 'main'])
  const backwards: string[] = []
  for (let step = 0; step < 3; step++) {
    await page.keyboard.press('Shift+F6')
    backwards.push(await focusedPane(page))
  }
  expect(backwards).toEqual(['list', 'sidebar', 'main'])

  // The list pane remembers the control last focused in it.
  await page.keyboard.press('F6')
  await page.keyboard.press('F6')
  expect(await focusedPane(page)).toBe('list')
  await page.keyboard.press('Enter')
  await expect(editor.title, 'New post opened a draft with its title focused').toBeFocused({ timeout: 20_000 })
  await page.keyboard.type('Walking the Alfama')
  await page.keyboard.press('Shift+F6')
  expect(await focusedPane(page)).toBe('list')
  const inList = await focused(page)
  await page.keyboard.press('F6')
  expect(await focusedPane(page)).toBe('main')
  await expect(editor.title, 'back in the editor where the focus was').toBeFocused()
  await page.keyboard.press('Shift+F6')
  expect(await focused(page)).toBe(inList)
  await expectAccessible(page, testInfo, 'keyboard skip link and panes')
})

test('at 800×600 zoomed to 125% the toolbar is one line and one Tab stop: arrows, Home and End move in it, the rest is in a More menu', async ({ app, service }, testInfo) => {
  test.setTimeout(120_000)
  const page = app.page
  // At 800×600 itself the list is a drawer and the whole toolbar fits; zoomed to 125% (Ctrl+=) the window is 640×480
  // CSS pixels, and what does not fit goes into the More menu.
  await page.setViewportSize({ width: 640, height: 480 })
  const editor = new EditorModel(page)
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.startPost()

  const toolbar = editor.editor.getByRole('toolbar', { name: 'Formatting' })
  await expect(toolbar).toHaveAttribute('aria-orientation', 'horizontal')
  const drawn = toolbar.locator('[data-roving-item]:visible')
  // One line: every control drawn shares the first one's row, none overlaps the next, none reaches past the bar.
  const boxes = await drawn.evaluateAll((controls) => controls.map((control) => control.getBoundingClientRect().toJSON() as DOMRect))
  const bar = (await toolbar.boundingBox())!
  for (const [index, box] of boxes.entries()) {
    expect(Math.abs(box.top - boxes[0]!.top), 'one row').toBeLessThan(4)
    expect(box.right, 'inside the bar').toBeLessThanOrEqual(bar.x + bar.width + 0.5)
    if (index > 0) expect(box.left, 'no overlap').toBeGreaterThanOrEqual(boxes[index - 1]!.right - 0.5)
  }
  const more = toolbar.getByRole('button', { name: 'More formatting' })
  await expect(more, 'what does not fit is in the More menu').toBeVisible()
  await expect(more).toHaveAttribute('aria-haspopup', 'menu')

  // Back from the text with Shift+Tab, past the categories and the title, into the toolbar.
  await editor.text.click()
  let stops = 0
  while (!(await toolbar.evaluate((element) => element.contains(document.activeElement))) && stops < 10) {
    await page.keyboard.press('Shift+Tab')
    stops++
  }
  const styleSelect = toolbar.getByRole('combobox', { name: 'Text style' })
  await expect(styleSelect, 'the toolbar is entered at its first control').toBeFocused()
  // Right goes through every control drawn, in order, and wraps around; End and Home go to the ends.
  const names = await drawn.evaluateAll((controls) => controls.map((control) => control.getAttribute('aria-label')))
  for (const name of [...names.slice(1), names[0]]) {
    await page.keyboard.press('ArrowRight')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(name)
  }
  await page.keyboard.press('End')
  await expect(more).toBeFocused()
  await page.keyboard.press('Home')
  await expect(styleSelect).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await expect(more, 'Left from the first wraps to the last').toBeFocused()
  // One Tab stop: Shift+Tab leaves the toolbar at once, and Tab comes back to the control last focused.
  await page.keyboard.press('Shift+Tab')
  expect(await toolbar.evaluate((element) => element.contains(document.activeElement))).toBe(false)
  await page.keyboard.press('Tab')
  await expect(more).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(more).toHaveAttribute('aria-expanded', 'true')
  const menu = page.getByRole('menu', { name: 'More formatting' })
  const items = menu.locator('[role^="menuitem"]')
  await expect(items.first()).toBeFocused()
  const overflowed = await items.allTextContents()
  expect(overflowed.join(' | '), 'Undo and Redo moved into the menu').toMatch(/Redo/)
  await page.keyboard.press('ArrowDown')
  await expect(items.nth(1)).toBeFocused()
  await page.keyboard.press('End')
  await expect(items.last()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(items.first(), 'Down from the last wraps to the first').toBeFocused()
  await saveScreenshot(page, testInfo, 'keyboard-toolbar-more-zoomed.png')
  await expectAccessible(page, testInfo, 'toolbar More menu, zoomed to 125%')
  await page.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expect(more, 'Escape gives the focus back to the More button').toBeFocused()
  await expect(more).toHaveAttribute('aria-expanded', 'false')

  // A menu item acts like its button: Numbered list, if it overflowed, makes the paragraph a list.
  await editor.text.click()
  await page.keyboard.type('First of several')
  await more.focus()
  await page.keyboard.press('ArrowUp')
  await expect(items.last(), 'Up opens the menu on its last item').toBeFocused()
  const numbered = menu.getByRole('menuitemcheckbox', { name: /Numbered list/ })
  if ((await numbered.count()) > 0) {
    await numbered.focus()
    await page.keyboard.press('Enter')
    await expect(editor.text.locator('ol li')).toHaveText('First of several')
  }
})

test('Ctrl+/ opens the shortcuts sheet, listing the table the keys use; it keeps the focus and Escape gives it back', async ({ app, service }, testInfo) => {
  const page = app.page
  const editor = new EditorModel(page)
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.newPostButton.focus()

  await page.keyboard.press('ControlOrMeta+/')
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(sheet).toBeVisible()
  for (const { label } of Object.values(shortcuts)) await expect(sheet.getByText(label, { exact: true })).toBeVisible()
  await expect(sheet.getByRole('button', { name: 'Close' })).toBeFocused()
  for (let press = 0; press < 5; press++) {
    await page.keyboard.press('Tab')
    expect(await sheet.evaluate((element) => element.contains(document.activeElement)), 'Tab stays in the sheet').toBe(true)
  }
  await saveScreenshot(page, testInfo, 'keyboard-shortcuts-sheet.png')
  await expectAccessible(page, testInfo, 'shortcuts sheet')
  await page.keyboard.press('Escape')
  await expect(sheet).toBeHidden()
  await expect(editor.newPostButton, 'the focus is back where it was').toBeFocused()

  // Help › Keyboard Shortcuts sends the same command.
  await app.menuCommand('shortcuts')
  await expect(sheet).toBeVisible()
  await sheet.getByRole('button', { name: 'Close' }).press('Enter')
  await expect(sheet).toBeHidden()
})

test('Ctrl+Enter publishes only from the post, asks the first time for each post, and Ctrl+Enter again answers', async ({ app, service }, testInfo) => {
  const page = app.page
  const editor = new EditorModel(page)
  const weblog = await editor.openSandboxDrafts(app, service.sandbox)
  await editor.write('Ferries at dusk', ['The last one leaves at nine.'])
  await expect(editor.saveState).toHaveText('Saved locally')

  // Elsewhere in the window, Ctrl+Enter does nothing.
  await editor.newPostButton.focus()
  await page.keyboard.press('ControlOrMeta+Enter')
  const question = page.getByRole('alertdialog', { name: `Publish “Ferries at dusk” to ${weblog}?` })
  await expect(question).toHaveCount(0)
  await expect(editor.stateBadge).toHaveText('Draft')

  // In the text it asks; Cancel (Escape) leaves the post a draft, with the focus back in the text.
  await editor.text.click()
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(question).toBeVisible()
  await expect(question.getByRole('button', { name: 'Publish' }), 'Publish has the focus: Enter answers').toBeFocused()
  await saveScreenshot(page, testInfo, 'keyboard-publish-confirm.png')
  await expectAccessible(page, testInfo, 'publish confirmation')
  await page.keyboard.press('Escape')
  await expect(question).toBeHidden()
  await expect(editor.stateBadge).toHaveText('Draft')

  // From the title too; Ctrl+Enter pressed again answers as Enter does (publish.spec.ts answers with Enter).
  await editor.title.focus()
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(question).toBeVisible()
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(editor.stateBadge).toHaveText('Published')

  // Once confirmed, Ctrl+Enter publishes this post's changes without asking.
  await editor.text.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.type(' Or so they say.')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
  await expect
    .poll(async () => {
      const post = (await fetchWeblogPosts(service.sandbox, weblog)).find((candidate) => candidate.title === 'Ferries at dusk')
      return post?.permalink ? (await fetch(post.permalink)).text() : ''
    })
    .toContain('Or so they say.')
})

test('the focus outline is 2 px solid with at least 3:1 contrast on its background, light and dark', async ({ app, service }, testInfo) => {
  const page = app.page
  const editor = new EditorModel(page)
  await editor.openSandboxDrafts(app, service.sandbox)
  await editor.startPost()
  await page.keyboard.type('Focus')

  const controls = [
    { name: 'primary button (Publish)', locator: editor.editor.getByRole('button', { name: 'Publish', exact: true }) },
    { name: 'quiet button (History)', locator: editor.editor.getByRole('button', { name: 'History' }) },
    { name: 'toolbar', locator: editor.editor.getByRole('combobox', { name: 'Text style' }) },
    { name: 'title field', locator: editor.title },
    { name: 'New post', locator: editor.newPostButton },
    { name: 'sidebar item', locator: page.getByRole('navigation', { name: 'Accounts' }).getByRole('button', { name: 'Drafts', exact: true }).first() },
  ]
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const { name, locator } of controls) {
      // Focused from the keyboard (F6 lands, then Tab / Shift+Tab to it would be long): focus() after a key press
      // makes :focus-visible apply as it does for keyboard focus.
      await page.keyboard.press('Shift')
      await locator.focus()
      const ring = await locator.evaluate((element) => {
        const style = getComputedStyle(element)
        const offset = parseFloat(style.outlineOffset)
        // An outline drawn outside lies on what is behind the control; one drawn inside lies on the control itself.
        let behind: Element | null = offset >= 0 ? element.parentElement : element
        let background = 'rgba(0, 0, 0, 0)'
        while (behind) {
          const colour = getComputedStyle(behind).backgroundColor
          if (!/rgba\(.*, 0\)$/.test(colour) && colour !== 'transparent') {
            background = colour
            break
          }
          behind = behind.parentElement
        }
        return { width: parseFloat(style.outlineWidth), style: style.outlineStyle, colour: style.outlineColor, background, visible: element.matches(':focus-visible') }
      })
      expect(ring.visible, `${name} shows keyboard focus`).toBe(true)
      expect(ring.style, `${name}: a solid outline`).toBe('solid')
      expect(ring.width, `${name}: at least 2 px`).toBeGreaterThanOrEqual(2)
      const ratio = contrast(ring.colour, ring.background)
      testInfo.annotations.push({ type: 'figure', description: `${colorScheme} ${name}: outline ${ring.colour} on ${ring.background}, ${ratio.toFixed(2)}:1` })
      expect(ratio, `${name} in ${colorScheme}: ${ring.colour} on ${ring.background}`).toBeGreaterThanOrEqual(3)
    }
    await editor.editor.getByRole('button', { name: 'Publish', exact: true }).focus()
    await saveScreenshot(page, testInfo, `keyboard-focus-ring-${colorScheme}.png`)
  }
  await page.emulateMedia({ colorScheme: null })
})

/** WCAG's contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = colour.match(/[\d.]+/g)!.slice(0, 3).map(Number).map((channel) => {
      const c = channel / 255
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  }
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}
