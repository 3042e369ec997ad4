// A weblog whose server keeps fewer categories than were sent (Movable Type keeps only the first; here Blogdesk's
// service started with --categories-per-post 1): the published post says which ones were dropped instead of
// pretending the weblog filed it under all of them.
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { AtomClient } from '../src-main/core'
import { startServiceProcess } from '../src-service/testing/service-process'
import type { Sandbox } from '../src-service/testing/service-fixture'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel } from './models/editor'
import { PostsModel } from './models/posts'

/** The categories the weblog filed the newest post under, as its Atom feed says. */
async function newestPostCategories({ atomBase, username, apiPassword }: Sandbox, title: string): Promise<string[] | undefined> {
  const client = new AtomClient({ fetch, credentials: async () => ({ username, password: apiPassword }) })
  const page = await client.feedPage(`${atomBase}/t/atom/weblog/blog_id=1`)
  return page.posts.find((post) => post.title === title)?.categories
}

async function chooseCategory(page: Page, picker: PostsModel, typed: string): Promise<void> {
  await picker.categoryPicker.focus()
  await page.keyboard.type(typed)
  await page.keyboard.press('Enter')
  await page.keyboard.press('Escape')
}

test('a post sent with three categories to a server that keeps one says which two were dropped', async ({ app, workDir }, testInfo) => {
  test.slow()
  const movableTypeLike = await startServiceProcess(join(workDir, 'keeps-one-category'), 0, { categoriesPerPost: 1 })
  try {
    const editor = new EditorModel(app.page)
    const posts = new PostsModel(app.page)
    const [weblog] = await fetchWeblogTitles(movableTypeLike.sandbox)
    await app.addAccount(movableTypeLike.sandbox)
    await editor.openDrafts(weblog!)
    await editor.write('Night trains', ['The sleeper to Porto leaves at eleven.'])
    for (const typed of ['Trav', 'Mus', 'Kit']) await chooseCategory(app.page, posts, typed)
    const dropped = app.page.getByRole('alert').filter({ hasText: 'The weblog did not keep every category' })
    await expect(dropped, 'nothing is said before the weblog has answered').toHaveCount(0)

    await editor.publishButton.click()
    await expect(editor.stateBadge).toHaveText('Published')
    await expect.poll(() => newestPostCategories(movableTypeLike.sandbox, 'Night trains')).toEqual(['Travel'])
    await expect(dropped).toContainText('It filed the post under Travel and dropped “Music”, “Kitchen”.')
    await expect(dropped).toContainText('Movable Type keeps only the first')
    await expect(dropped, 'it does not claim the post is filed under the dropped ones').not.toContainText(/under [^.]*(Music|Kitchen)[^.]* and dropped/)
    await expectAccessible(app.page, testInfo, 'post with dropped categories')
    await dropped.scrollIntoViewIfNeeded()
    await saveScreenshot(app.page, testInfo, 'categories-dropped.png')
    await app.page.emulateMedia({ colorScheme: 'dark' })
    await saveScreenshot(app.page, testInfo, 'categories-dropped-dark.png')
    await app.page.emulateMedia({ colorScheme: 'light' })

    // Posts lists the post under the one category the weblog kept.
    await posts.openPosts(weblog!)
    const listed = posts.post('Night trains')
    await expect(listed.locator('.post-item__categories')).toHaveText('Categories: Travel')
    await expectAccessible(app.page, testInfo, 'posts with a post that lost categories')
    await saveScreenshot(app.page, testInfo, 'categories-dropped-posts.png')
    await app.page.emulateMedia({ colorScheme: 'dark' })
    await saveScreenshot(app.page, testInfo, 'categories-dropped-posts-dark.png')
  } finally {
    await movableTypeLike.stop()
  }
})
