// A friend's activity: picked by username and from the neighbours the user added, shown newest first, older pages
// read as the reader scrolls, news announced by an "N new" button that inserts it without moving what the reader is
// looking at, and the saved events shown with a notice while the service is away.
import { openStore } from '../src-service/store'
import { startServiceProcess, type ServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { accountLabelOf } from './harness/weblog-listing'
import { FeedModel } from './models/feed'

/** Jane's archive, older than the demo's weeks of activity: enough that her stream takes several pages. */
const ARCHIVE_POSTS = 120
const DAY_MS = 24 * 60 * 60 * 1000

/** Gives Jane posts on the (stopped) service's store, each with its event, published `daysAgo`. */
async function giveJanePosts(dataDir: string, posts: { title: string; content: string; daysAgo: number }[]): Promise<void> {
  const store = await openStore(dataDir)
  try {
    await store.transaction(async () => {
      const jane = (await store.users.find('jane'))!
      const [weblog] = await store.weblogs.ownedBy(jane.id)
      for (const { title, content, daysAgo } of posts) {
        const issued = new Date(Date.now() - daysAgo * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z')
        const post = await store.posts.create(weblog!.id, jane.id, { title, content, contentKind: 'xhtml', summary: null, issued, categories: [] }, issued)
        await store.events.record({ actorId: jane.id, verb: 'NewAsset', objectType: 'Post', objectId: post.id, published: issued })
      }
    })
  } finally {
    await store.close()
  }
}

/** A long history for Jane, older than the demo's weeks of activity: posts from 40 to 160 days ago. */
function giveJaneAnArchive(dataDir: string): Promise<void> {
  return giveJanePosts(
    dataDir,
    Array.from({ length: ARCHIVE_POSTS }, (_, index) => ({
      title: `Archive note ${index + 1}`,
      content: `<p>From the archive, <em>number ${index + 1}</em>.</p>`,
      daysAgo: 160 - (index + 1),
    })),
  )
}

test('a friend’s feed: followed by name or as a neighbour, newest first, paged, live, and offline', async ({ app, core, service }, testInfo) => {
  test.setTimeout(120_000)
  const feed = new FeedModel(app.page)
  const { sandbox } = service
  await service.stop()
  await giveJaneAnArchive(service.dataDir)
  let running: ServiceProcess = await startServiceProcess(service.dataDir, service.port)
  try {
    // The account, with its JSON side (the shell's settings connect it with OAuth; the sandbox has a token ready).
    const account = await core.accounts.add(sandbox)
    await core.accounts.attachJson(account.id, sandbox)
    core.accounts.announce()
    await feed.openFriends(await accountLabelOf(sandbox))
    await expect(feed.neighbours.getByRole('listitem')).toHaveCount(5)
    await expect(feed.listPane.getByText('You follow no one yet.')).toBeVisible()

    // By username: Jane's feed opens, newest first.
    await feed.follow('jane')
    await expect(feed.feedTitle).toHaveText('Jane Mallory')
    await expect(feed.friend('Jane Mallory')).toHaveAttribute('aria-current', 'true')
    await expect(feed.events.first()).toBeVisible()
    await expect.poll(() => feed.eventNames()).toContainEqual(expect.stringMatching(/^Jane Mallory (posted|favorited|commented on|added) /))
    const times = await feed.eventTimes()
    expect(times.length).toBeGreaterThan(3)
    expect(times).toEqual([...times].sort((a, b) => b - a))
    await expect(feed.neighbours.getByRole('button', { name: 'Follow Jane Mallory' }), 'a friend is not offered again').toHaveCount(0)
    await saveScreenshot(app.page, testInfo, 'feed-jane.png')
    await app.page.emulateMedia({ colorScheme: 'dark' })
    await saveScreenshot(app.page, testInfo, 'feed-jane-dark.png')
    await app.page.emulateMedia({ colorScheme: null })
    await expectAccessible(app.page, testInfo, 'activity feed')

    // The keyboard scrolls the feed.
    await feed.scroller.focus()
    await app.page.keyboard.press('PageDown')
    await expect.poll(() => feed.scrollTop()).toBeGreaterThan(0)

    // Scrolling to the end reads older pages, until the archive's first note.
    const end = feed.main.getByText('That is everything Jane Mallory has done.')
    await expect(async () => {
      await feed.scroller.press('End')
      await expect(end).toBeInViewport({ timeout: 1_000 })
    }).toPass({ timeout: 30_000 })
    await expect.poll(() => feed.eventNames()).toContainEqual(expect.stringMatching(/^Jane Mallory posted “Archive note 1” /))
    const oldest = await feed.eventTimes()
    expect(oldest).toEqual([...oldest].sort((a, b) => b - a))
    expect(oldest.at(-1)!).toBeLessThan(times.at(-1)!)
    await saveScreenshot(app.page, testInfo, 'feed-older.png')

    // News while the reader is halfway down: announced, not inserted, and nothing moves until they ask.
    await feed.scrollTo(1500)
    await expect.poll(async () => (await feed.inView()).name).not.toBe('')
    const before = await feed.inView()
    await running.stop()
    running = await startServiceProcess(service.dataDir, service.port, { simulateSeconds: 0.3 })
    const jane = core.feed.friends(account.id).find((friend) => friend.username === 'jane')!
    await expect.poll(async () => (await core.feed.refresh(jane.id)).newCount, { timeout: 60_000, intervals: [500] }).toBeGreaterThan(0)
    await expect(feed.newEventsButton).toBeVisible()
    expect(await feed.inView(), 'the news did not move the feed').toEqual(before)
    await saveScreenshot(app.page, testInfo, 'feed-news.png')

    const arrived = Number(/(\d+) new/.exec((await feed.newEventsButton.textContent()) ?? '')![1])
    await feed.newEventsButton.click()
    await expect(feed.newEventsButton).toHaveCount(0)
    const after = await feed.inView()
    expect(after.name, 'the reader still sees the same event…').toBe(before.name)
    expect(Math.abs(after.top - before.top), '…at the same place').toBeLessThanOrEqual(1)
    expect(after.scrollTop).toBeGreaterThan(before.scrollTop)
    await feed.scrollTo(0)
    await expect(feed.events.first().getByText('New', { exact: true })).toBeVisible()
    expect(arrived).toBeGreaterThan(0)
    await running.stop()
    running = await startServiceProcess(service.dataDir, service.port)

    // From the neighbours: Nick's feed.
    await feed.followNeighbour('Nick Holloway')
    await expect(feed.feedTitle).toHaveText('Nick Holloway')
    await expect(feed.friend('Nick Holloway')).toHaveAttribute('aria-current', 'true')
    await expect.poll(() => feed.eventNames()).toContainEqual(expect.stringMatching(/^Nick Holloway /))
    await expect(feed.neighbours.getByRole('button', { name: 'Follow Nick Holloway' })).toHaveCount(0)

    // Offline: Jane's saved events, with a notice that says so.
    await feed.friend('Jane Mallory').click()
    await expect(feed.feedTitle).toHaveText('Jane Mallory')
    await running.stop()
    await feed.main.getByRole('button', { name: 'Check for news' }).click()
    await expect(feed.offlineNotice).toContainText('Could not reach')
    await expect(feed.events.first()).toBeVisible()
    await expect.poll(() => feed.eventNames()).toContainEqual(expect.stringMatching(/^Jane Mallory /))
    await saveScreenshot(app.page, testInfo, 'feed-offline.png')
    await expectAccessible(app.page, testInfo, 'activity feed offline')
  } finally {
    await running.stop()
  }
})

test('a newly followed friend’s remote images load only once the reader says so, and her HTML names nothing on the page', async ({ app, core, service }) => {
  const feed = new FeedModel(app.page)
  const { sandbox } = service
  // Any server's image would do: the page's own requests tell whether it was asked for.
  const pixel = `http://127.0.0.1:${service.port}/tracking-pixel.gif?reader=melody`
  await service.stop()
  await giveJanePosts(service.dataDir, [{ title: 'Tram 28', content: `<p>Up the hill.</p><p><img src="${pixel}" alt="The tram at Graça"/></p><p><a id="blog" name="api" href="https://example.org/">Timetables</a></p>`, daysAgo: 0 }])
  const running = await startServiceProcess(service.dataDir, service.port)
  const requested: string[] = []
  app.page.on('request', (request) => requested.push(request.url()))
  try {
    const account = await core.accounts.add(sandbox)
    await core.accounts.attachJson(account.id, sandbox)
    core.accounts.announce()
    await feed.openFriends(await accountLabelOf(sandbox))
    await feed.follow('jane')
    await expect(feed.feedTitle).toHaveText('Jane Mallory')

    // Drawn with its alt text standing in, and never asked for.
    await expect(feed.events.first().getByRole('img', { name: 'The tram at Graça' })).toBeVisible()
    await expect(feed.main.getByText('Remote images are not loaded')).toBeVisible()
    expect(requested).not.toContain(pixel)
    // An id or name from a friend's HTML could shadow the page's own globals (DOM clobbering): neither is kept.
    await expect(feed.events.first().getByRole('link', { name: 'Timetables' })).toBeVisible()
    await expect(app.page.locator('[id="blog"], [name="api"]')).toHaveCount(0)

    await feed.main.getByRole('button', { name: 'Load remote images' }).click()
    await expect(feed.main.getByText('Remote images are loaded')).toBeVisible()
    await expect.poll(() => requested).toContain(pixel)
  } finally {
    await running.stop()
  }
})
