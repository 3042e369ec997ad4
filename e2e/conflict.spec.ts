// A published post edited in Blogdesk while someone else changed it on the server: the publish meets the other
// change, the editor shows both versions side by side, and what the person chooses is what the server ends with.
import { AtomClient, type Core, type RemotePost } from '../src-main/core'
import type { ServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { PostsModel } from './models/posts'

const WEBLOG = 'Valse de Melody'

interface PublishedPost {
  /** Another client of the same account: a second Blogdesk, or the weblog's own web editor. */
  elsewhere: AtomClient
  editUri: string
  onServer(): Promise<RemotePost>
}

/** Set-up through core: the account, and a post published from a draft, sent and settled. */
async function publishThroughCore(core: Core, service: ServiceProcess, post: { title: string; content: string }): Promise<PublishedPost> {
  const { sandbox } = service
  const account = await core.handlers['accounts:add']({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })
  const [weblog] = (await core.handlers['weblogs:list']({ accountId: account.id, refresh: true })).filter((candidate) => candidate.title === WEBLOG)
  const draft = await core.handlers['drafts:create']({ accountId: account.id, weblogPostUri: weblog!.postUri })
  await core.handlers['drafts:save']({ draftId: draft.id, ...post, categories: ['Travel'] })
  await core.handlers['drafts:publish']({ draftId: draft.id })
  await core.sync.drain()

  const elsewhere = new AtomClient({ fetch, credentials: async () => ({ username: sandbox.username, password: sandbox.apiPassword }) })
  const { posts } = await elsewhere.feedPage(weblog!.feedUri!)
  const editUri = posts.find((candidate) => candidate.title === post.title)!.editUri
  return { elsewhere, editUri, onServer: () => elsewhere.getPost(editUri) }
}

test.describe('a post changed on the server while it was edited here', () => {
  // The timetable link carries an id and a name, with which a post could shadow the page's globals (DOM clobbering).
  const timetables = '<p><a id="blog" name="api" href="https://example.org/">Timetables</a></p>'
  const original = { title: 'Tram 28', content: `<p>Up the hill from Martim Moniz.</p><p>Custard tarts at the top.</p>${timetables}` }
  const theirs = { title: 'Tram 28 to Prazeres', content: `<p>Up the hill from Martim Moniz.</p><p>Pastéis de nata at the top, still warm.</p>${timetables}` }

  test('opens side by side, and "Keep mine" puts my version on the server', async ({ app, core, service }, testInfo) => {
    // An accessibility check in light and dark: at load 25 it ran past the default minute.
    test.setTimeout(120_000)
    const published = await publishThroughCore(core, service, original)
    const posts = new PostsModel(app.page)
    await posts.openPosts(WEBLOG)
    await expect(posts.post(original.title)).toBeVisible()
    expect((await posts.postTitles())[0]).toBe(original.title)
    await saveScreenshot(app.page, testInfo, 'conflict-posts-list.png')
    await expectAccessible(app.page, testInfo, 'posts list')

    await posts.editPost(original.title)
    const title = app.page.getByRole('textbox', { name: 'Title', exact: true })
    await expect(title).toHaveValue(original.title)
    await expect(app.page.getByRole('textbox', { name: 'Post text' }).getByRole('link', { name: 'Timetables' })).toHaveCount(1)
    await expect(app.page.locator('[id="blog"], [name="api"]')).toHaveCount(0)
    await published.elsewhere.updatePost(published.editUri, { ...theirs, categories: ['Travel', 'Kitchen'] })
    await title.fill('Tram 28, in the rain')
    await app.page.getByRole('button', { name: 'Update', exact: true }).click()

    await expect(posts.conflictView).toBeVisible()
    await expect(posts.conflictVersion('Yours')).toContainText('Tram 28, in the rain')
    await expect(posts.conflictVersion('Yours')).toContainText('Custard tarts at the top.')
    await expect(posts.conflictVersion('On the server')).toContainText('Tram 28 to Prazeres')
    await expect(posts.conflictVersion('On the server')).toContainText('Categories: Kitchen, Travel')
    // Both versions show the link, and neither keeps its id or name.
    await expect(posts.conflictVersion('Yours').getByRole('link', { name: 'Timetables' })).toBeVisible()
    await expect(posts.conflictVersion('On the server').getByRole('link', { name: 'Timetables' })).toBeVisible()
    await expect(app.page.locator('[id="blog"], [name="api"]')).toHaveCount(0)
    await posts.conflictView.getByText(/^Changed lines/).click()
    const changes = posts.conflictView.getByRole('list', { name: 'Changes from the server’s version to yours' })
    await expect(changes.getByRole('listitem').filter({ hasText: 'Pastéis de nata at the top, still warm.' })).toHaveClass(/--removed/)
    await expect(changes.getByRole('listitem').filter({ hasText: 'Custard tarts at the top.' })).toHaveClass(/--added/)
    await saveScreenshot(app.page, testInfo, 'conflict-side-by-side.png')
    await app.page.emulateMedia({ colorScheme: 'dark' })
    await saveScreenshot(app.page, testInfo, 'conflict-side-by-side-dark.png')
    await expectAccessible(app.page, testInfo, 'conflict view')

    await posts.conflictView.getByRole('button', { name: 'Keep mine' }).click()
    await expect(posts.conflictView).toHaveCount(0)
    await expect(title).toHaveValue('Tram 28, in the rain')
    await expect.poll(async () => (await published.onServer()).title).toBe('Tram 28, in the rain')
    expect(await published.onServer()).toMatchObject({ categories: ['Travel'], content: expect.stringContaining('Custard tarts at the top.') })
    await saveScreenshot(app.page, testInfo, 'conflict-kept-mine.png')
  })

  test('merged by hand, the server ends with the merged text and categories', async ({ app, core, service }, testInfo) => {
    const published = await publishThroughCore(core, service, original)
    const posts = new PostsModel(app.page)
    await posts.openPosts(WEBLOG)
    await posts.editPost(original.title)
    const title = app.page.getByRole('textbox', { name: 'Title', exact: true })
    await expect(title).toHaveValue(original.title)
    await published.elsewhere.updatePost(published.editUri, { ...theirs, categories: ['Travel'] })
    await title.fill('Tram 28, in the rain')
    await app.page.getByRole('button', { name: 'Update', exact: true }).click()

    await expect(posts.conflictView).toBeVisible()
    await posts.conflictView.getByRole('button', { name: 'Merge by hand' }).click()
    const form = posts.mergeForm
    await expect(form.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue('Tram 28, in the rain')
    await expect(form.getByRole('textbox', { name: 'HTML source' })).toHaveValue(/Custard tarts at the top\./)
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill('Tram 28 to Prazeres, in the rain')
    await form
      .getByRole('textbox', { name: 'HTML source' })
      .fill('<p>Up the hill from Martim Moniz.</p><p>Custard tarts, or pastéis de nata, at the top.</p>')
    await posts.categoryPicker.focus()
    await app.page.keyboard.type('Kit')
    await app.page.keyboard.press('Enter')
    await expect.poll(() => posts.chosenCategoryNames()).toEqual(['Travel', 'Kitchen'])
    await app.page.keyboard.press('Escape')
    await saveScreenshot(app.page, testInfo, 'conflict-merge.png')
    await expectAccessible(app.page, testInfo, 'merge by hand')

    await form.getByRole('button', { name: 'Publish merged version' }).click()
    await expect(posts.conflictView).toHaveCount(0)
    await expect.poll(async () => (await published.onServer()).title).toBe('Tram 28 to Prazeres, in the rain')
    expect(await published.onServer()).toMatchObject({
      content: expect.stringContaining('Custard tarts, or pastéis de nata, at the top.'),
      categories: ['Kitchen', 'Travel'],
    })
    await saveScreenshot(app.page, testInfo, 'conflict-merged.png')
  })
})
