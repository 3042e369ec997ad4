// Every main screen fits every window from 800x600 to 2560x1440: no text drawn over text, the window never scrolls
// sideways, the list pane a drawer in a narrow window, History and the category picker over the editor there, axe
// content in both themes. Each screen is photographed at each size in light and dark: <screen>-<width>x<height>-<theme>.png.
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { expectFits } from './harness/layout'
import { saveScreenshot } from './harness/screenshots'
import { accountLabelOf, fetchWeblogTitles } from './harness/weblog-listing'
import { CollectionsModel } from './models/collections'
import { EditorModel } from './models/editor'
import { FeedModel } from './models/feed'
import { PostsModel } from './models/posts'

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
]
/** The list pane is a drawer below this width (app-shell.css). */
const DRAWER_BELOW = 1100

for (const { width, height } of SIZES) {
  test(`every main screen fits ${width}x${height}, light and dark`, async ({ app, core, service }, testInfo) => {
    test.setTimeout(360_000)
    const { page } = app
    await page.setViewportSize({ width, height })
    const narrow = width < DRAWER_BELOW
    const editor = new EditorModel(page)
    const posts = new PostsModel(page)
    const feed = new FeedModel(page)
    const collections = new CollectionsModel(page)
    const { sandbox } = service
    const [weblog] = await fetchWeblogTitles(sandbox)
    const label = await accountLabelOf(sandbox)

    /** Checks the screen as drawn now in both themes, and photographs it. */
    const screen = async (name: string, overlays: string[] = []) => {
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme })
        // A transition cut short (the theme changing under it) ends too: its rejected promise counts as finished.
        await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))))
        await expectFits(page, `${name} at ${width}x${height} (${theme})`, overlays)
        await saveScreenshot(page, testInfo, `${name}-${width}x${height}-${theme}.png`)
      }
      await page.emulateMedia({ colorScheme: null })
      await expectAccessible(page, testInfo, `${name} at ${width}x${height}`)
    }
    /** In a narrow window the list pane is a drawer: its button opens it, Escape closes it and the focus goes back. */
    const listToggle = page.locator('.app-shell__list-bar').getByRole('button')
    const showList = async () => {
      if (!narrow) return
      await expect(listToggle).toHaveAttribute('aria-expanded', 'false')
      await listToggle.click()
      await expect(listToggle).toHaveAttribute('aria-expanded', 'true')
    }

    // The account, with its JSON side (the sandbox has a token ready), as the feed's journey adds it.
    const account = await core.accounts.add(sandbox)
    await core.accounts.attachJson(account.id, sandbox)
    core.accounts.announce()
    await expect.poll(() => app.accountLabels(), { timeout: 20_000 }).toEqual([label])
    await expect(app.selectedWeblogTitle).toHaveText(weblog!)
    await screen('posts-landing')

    await app.openAccountSettings(label)
    await expect(app.settingsSection('Activity feed')).toBeVisible()
    await screen('accounts')

    await posts.openPosts(weblog!)
    await showList()
    await expect(posts.postsList).toBeVisible()
    await screen('posts')
    if (narrow) {
      await page.keyboard.press('Escape')
      await expect(listToggle).toHaveAttribute('aria-expanded', 'false')
      await expect(listToggle).toBeFocused()
    }

    await editor.openDrafts(weblog!)
    await showList()
    await editor.write('A window of any size', ['Written to see that every screen fits, from a small laptop to a large monitor.'])
    await expect(editor.saveState).toHaveText('Saved locally')
    if (narrow) await expect(listToggle, 'the drawer closes once a draft is opened').toHaveAttribute('aria-expanded', 'false')
    await screen('editor')
    await showList()
    await expect(editor.draftItem('A window of any size')).toBeVisible()
    await screen('drafts')
    if (narrow) await page.keyboard.press('Escape')

    await editor.editor.getByRole('button', { name: 'History' }).click()
    await expect(page.getByRole('complementary', { name: 'History' })).toBeVisible()
    // History lies beside the text where both have room, and over its edge where not: never a squeezed column of text.
    const { textWidth, beside } = await page.evaluate(() => {
      const text = document.querySelector('.post-editor__main')!.getBoundingClientRect()
      const history = document.querySelector('.revisions')!.getBoundingClientRect()
      return { textWidth: text.width, beside: history.left >= text.right - 1 }
    })
    expect(textWidth, 'the text keeps its width beside History').toBeGreaterThanOrEqual(480)
    await expect(editor.title, 'the text stays where it was').toBeInViewport()
    await screen('history', beside ? [] : ['.revisions'])
    await page.getByRole('complementary', { name: 'History' }).getByRole('button', { name: 'Close' }).click()

    // The category picker by keys alone: ↓ opens its list over the text, whole in the window (never cut off by the
    // pane's edge), Enter chooses, Escape closes the list, Backspace takes the choice back.
    await posts.categoryPicker.focus()
    await page.keyboard.press('ArrowDown')
    const categoryList = page.getByRole('listbox', { name: 'Categories' })
    await expect(posts.categoryOptions.first()).toBeVisible()
    await expect(categoryList, 'the whole list is in view').toBeInViewport({ ratio: 1 })
    await screen('category-picker', ['[role="listbox"]'])
    const firstCategory = (await posts.categoryOptions.first().textContent())!.trim()
    await page.keyboard.press('Enter')
    expect(await posts.chosenCategoryNames()).toEqual([firstCategory])
    await page.keyboard.press('Escape')
    await expect(categoryList).toBeHidden()
    await page.keyboard.press('Backspace')
    await expect(posts.chosenCategories).toHaveCount(0)

    // Deleting the draft offers Undo at the window's foot, over nothing one reads, with the focus on it (the Delete
    // button it came from is gone); Enter undoes.
    await editor.editor.getByRole('button', { name: 'Delete', exact: true }).click()
    const undo = page.getByRole('button', { name: 'Undo', exact: true })
    await expect(page.getByRole('status').filter({ hasText: 'Draft moved to Trash' })).toBeVisible()
    await expect(undo).toBeFocused()
    await expect(undo).toBeInViewport({ ratio: 1 })
    await screen('undo-toast')
    await page.keyboard.press('Enter')
    await expect(editor.title).toHaveValue('A window of any size')

    await showList()
    await page.getByRole('button', { name: 'Trash', exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Trash' })).toBeVisible()
    await screen('trash')
    if (narrow) await page.keyboard.press('Escape')

    await collections.openAlbum('Summer in Lisbon')
    await screen('album')
    await collections.openList('Heavy rotation')
    await screen('list')

    await app.sidebar.getByRole('list', { name: `Friends of ${label}` }).getByRole('button', { name: 'Friends' }).click()
    await showList()
    await feed.follow('jane')
    await expect(feed.feedTitle).toHaveText('Jane Mallory')
    await expect(feed.events.first()).toBeVisible()
    await screen('feed')

    await app.openOutbox()
    await expect(app.main.getByRole('heading', { level: 1 })).toBeVisible()
    await screen('outbox')
  })
}
