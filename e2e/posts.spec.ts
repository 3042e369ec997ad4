// The weblog's published posts: paged through as the person scrolls, opened in the browser, deleted after a
// confirmation, and still shown (with when they were read) when the computer is offline.
import { AtomClient } from '../src-main/core'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { PostsModel } from './models/posts'

const WEBLOG = 'Valse de Melody'
/** The demo weblog's posts, as src-service/demo/posts.ts seeds them. */
const DEMO_POSTS = 48

test('the posts list pages through the feed, opens a post in the browser, deletes one, and reads offline', async ({
  app,
  core,
  platform,
  service,
}, testInfo) => {
  const { atomBase, username, apiPassword } = service.sandbox
  const account = await core.handlers['accounts:add']({ atomBase, username, apiPassword })
  const [weblog] = (await core.handlers['weblogs:list']({ accountId: account.id, refresh: true })).filter((candidate) => candidate.title === WEBLOG)
  const posts = new PostsModel(app.page)
  await posts.openPosts(WEBLOG)

  const items = posts.postsList.getByRole('listitem')
  await expect(items).toHaveCount(20)
  const newest = (await posts.postTitles())[0]!
  await saveScreenshot(app.page, testInfo, 'posts-list.png')
  await expectAccessible(app.page, testInfo, 'posts list')

  // The button brings the next page from the keyboard (focusing it scrolls the end into view, which asks too: one
  // request is sent either way); scrolling to the end brings the one after.
  await posts.postsList.getByRole('button', { name: 'Load older posts' }).focus()
  await app.page.keyboard.press('Enter')
  await expect(items).toHaveCount(40)
  await items.last().scrollIntoViewIfNeeded()
  await expect(items).toHaveCount(DEMO_POSTS)
  await expect(posts.postsList.getByText('That is every post on the weblog.')).toBeVisible()
  expect(new Set(await posts.postTitles()).size, 'no post is listed twice').toBe(DEMO_POSTS)

  const server = new AtomClient({ fetch, credentials: async () => ({ username, password: apiPassword }) })
  const [first] = (await server.feedPage(weblog!.feedUri!)).posts
  await posts.post(newest).getByRole('button', { name: `Open in browser “${newest}”` }).click()
  await expect.poll(() => platform.openedLinks).toEqual([first!.permalink])

  await posts.post(newest).getByRole('button', { name: `Delete “${newest}”` }).click()
  await expect(posts.deleteDialog).toBeVisible()
  await expect(posts.deleteDialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await saveScreenshot(app.page, testInfo, 'posts-delete-confirm.png')
  await expectAccessible(app.page, testInfo, 'delete confirmation')
  await posts.deleteDialog.getByRole('button', { name: 'Delete post' }).click()
  await expect(posts.deleteDialog).toBeHidden()
  await expect(posts.post(newest)).toHaveCount(0)
  await core.sync.drain()
  await expect(server.getPost(first!.editUri)).rejects.toMatchObject({ kind: 'not-found' })

  platform.setOnline(false)
  await posts.postsList.getByRole('button', { name: 'Refresh' }).click()
  const offline = posts.postsList.getByRole('alert').filter({ hasText: 'Offline' })
  await expect(offline).toContainText('These are the posts as read today at')
  await expect(items.first()).toBeVisible()
  await expect(posts.post(newest)).toHaveCount(0)
  await saveScreenshot(app.page, testInfo, 'posts-offline.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'posts-offline-dark.png')
  await expectAccessible(app.page, testInfo, 'posts list offline')
})
