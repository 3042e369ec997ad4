// Post properties the protocol carries (excerpt, publish date, categories), scheduling, and a published post edited
// from Posts: "Editing a published post" there, and Update in the editor.
import type { Page } from '@playwright/test'
import { AtomClient } from '../src-main/core'
import type { Sandbox } from '../src-service/testing/service-fixture'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel } from './models/editor'
import { PostsModel } from './models/posts'

/** The post titled `title` as the weblog's Atom feed has it (the author's feed lists scheduled posts too). */
async function serverPost(sandbox: Sandbox, title: string) {
  const { atomBase, username, apiPassword } = sandbox
  const client = new AtomClient({ fetch, credentials: async () => ({ username, password: apiPassword }) })
  // A back-dated post sorts far down: every page is looked at.
  for (let uri: string | null = `${atomBase}/t/atom/weblog/blog_id=1`; uri !== null; ) {
    const page = await client.feedPage(uri)
    const found = page.posts.find((post) => post.title === title)
    if (found) return found
    uri = page.next
  }
  return undefined
}

async function properties(page: Page) {
  const details = page.locator('details.post-properties')
  if ((await details.getAttribute('open')) === null) await details.locator('summary').press('Enter')
  return details
}

async function screenshots(page: Page, testInfo: Parameters<typeof saveScreenshot>[1], name: string) {
  await saveScreenshot(page, testInfo, `${name}.png`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(page, testInfo, `${name}-dark.png`)
  await page.emulateMedia({ colorScheme: 'light' })
}

test('an excerpt, a back-dated publish date and categories go to the weblog with the post', async ({ app, service }, testInfo) => {
  const editor = new EditorModel(app.page)
  const posts = new PostsModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write('Ferry timetables', ['The boats run every twenty minutes.'])

  await posts.categoryPicker.focus()
  await app.page.keyboard.type('Trav')
  await app.page.keyboard.press('Enter')
  await app.page.keyboard.type('Not a category')
  await expect(app.page.getByText('a new one cannot be created through this protocol')).toBeVisible()
  await expect(app.page.getByRole('button', { name: 'Open the weblog’s site ↗' })).toBeVisible()
  await app.page.keyboard.press('Escape')
  await app.page.keyboard.press('Escape')

  const details = await properties(app.page)
  await details.getByRole('radio', { name: 'On a date' }).check()
  await details.getByLabel('Publish date and time').fill('2024-05-06T09:30')
  await details.getByLabel('Excerpt').fill('When the boats leave, and from where.')
  await expect(details.getByText('A date in the past back-dates the post')).toBeVisible()
  await expect(editor.saveState).toHaveText('Saved locally')
  await screenshots(app.page, testInfo, 'properties-set')
  await expectAccessible(app.page, testInfo, 'post properties')

  await editor.publishButton.click()
  await expect(editor.stateBadge).toHaveText('Published')
  const post = await serverPost(service.sandbox, 'Ferry timetables')
  expect(post?.summary).toBe('When the boats leave, and from where.')
  expect(post?.categories).toEqual(['Travel'])
  expect(post?.issued).toBe(new Date('2024-05-06T09:30').toISOString().replace('.000Z', 'Z'))
})

test('a post scheduled for tomorrow is on the service but not on its public page', async ({ app, service }, testInfo) => {
  const editor = new EditorModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write('Opening night', ['Doors open at eight.'])
  const details = await properties(app.page)
  await details.getByRole('radio', { name: 'On a date' }).check()
  const tomorrow = new Date(Date.now() + 24 * 3_600_000)
  const pad = (value: number) => String(value).padStart(2, '0')
  const local = `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T20:00`
  await details.getByLabel('Publish date and time').fill(local)
  await expect(editor.saveState).toHaveText('Saved locally')

  await editor.publishButton.click()
  await expect(editor.publishStatus).toContainText('Scheduled on the weblog for')
  await screenshots(app.page, testInfo, 'properties-scheduled')
  await expectAccessible(app.page, testInfo, 'scheduled post')

  const post = await serverPost(service.sandbox, 'Opening night')
  expect(post, 'the service has it (the author’s feed lists it)').toBeDefined()
  const publicPage = await (await fetch(`${service.sandbox.atomBase}/blogs/valse-de-melody/`)).text()
  expect(publicPage).not.toContain('Opening night')
})

test('a published post edited from Posts shows there as being edited, and goes out with Update', async ({ app, service }, testInfo) => {
  const editor = new EditorModel(app.page)
  const posts = new PostsModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await posts.openPosts(weblog!)
  await expect(posts.postsList.getByRole('listitem').first()).toBeVisible()
  const [newest] = await posts.postTitles()
  await posts.editPost(newest!)
  await expect(editor.publishButton).toHaveText('Update')
  await editor.title.fill(`${newest} (revised)`)
  await expect(editor.saveState).toHaveText('Saved locally')

  await posts.openDrafts(weblog!)
  await expect(editor.draftItem(`${newest} (revised)`), 'a published post’s copy is not a draft').toHaveCount(0)
  await posts.openPosts(weblog!)
  const item = posts.post(newest!)
  await expect(item).toContainText('Editing a published post')
  await expect(item).toContainText('Changes not yet on the weblog')
  await screenshots(app.page, testInfo, 'posts-editing-published')
  await expectAccessible(app.page, testInfo, 'posts list with a post being edited')

  await posts.editPost(newest!)
  await expect(editor.publishButton).toHaveText('Update')
  await editor.publishButton.click()
  await expect(editor.stateBadge).toHaveText('Published')
  await expect.poll(async () => (await serverPost(service.sandbox, `${newest} (revised)`)) !== undefined).toBe(true)
  await screenshots(app.page, testInfo, 'editor-updated')
})
