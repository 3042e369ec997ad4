import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'

test('first run: one click on “Try the local sandbox” starts it and shows its weblogs, with the activity feed connected', async ({
  app,
  platform,
  core,
}, testInfo) => {
  // Seven screens checked by axe in two themes each, and a service started: more than the default minute.
  test.setTimeout(120_000)
  await expect(app.welcomeHeading).toBeVisible()
  await expect(app.connection).toHaveText('Online')
  await saveScreenshot(app.page, testInfo, 'sandbox-welcome.png')
  await expectAccessible(app.page, testInfo, 'welcome')

  await app.trySandboxButton.click()
  // Starting the sandbox service is a process of its own coming up.
  await expect.poll(() => app.accountLabels(), { timeout: 30_000 }).toHaveLength(1)
  const { sandbox } = platform.sandbox!
  const titles = await fetchWeblogTitles(sandbox)
  expect(titles.length, 'the sandbox has demo weblogs').toBeGreaterThan(0)
  // Named by its weblog and the user, not by the server's address; it opens on its first weblog's posts, ready to write.
  const label = `${titles[0]} — ${sandbox.username}`
  await expect.poll(() => app.accountLabels()).toEqual([label])
  await expect.poll(() => app.weblogTitles()).toEqual(titles)
  await expect(app.selectedWeblogTitle).toHaveText(titles[0]!)
  await expect(app.weblogPlace(titles[0]!, 'Posts')).toHaveAttribute('aria-current', 'page')
  await expect(app.main.getByRole('button', { name: 'New post' })).toBeFocused()
  await expect(app.main, 'no protocol addresses on the first screen').not.toContainText('PostURI')
  await expect(app.outboxButton).toHaveAccessibleName('Outbox: Everything is sent')
  await saveScreenshot(app.page, testInfo, 'sandbox-main.png')
  await expectAccessible(app.page, testInfo, 'main')

  // The addresses the server announced are one click away, in a sheet that Escape closes.
  await app.main.getByRole('button', { name: 'Weblog details' }).click()
  const details = app.page.getByRole('dialog', { name: `Details of ${titles[0]}` })
  await expect(details).toContainText('PostURI')
  await expect(details).toContainText(`${sandbox.atomBase}/t/atom/weblog/`)
  await saveScreenshot(app.page, testInfo, 'sandbox-weblog-details.png')
  await expectAccessible(app.page, testInfo, 'weblog details')
  await app.page.keyboard.press('Escape')
  await expect(details).toBeHidden()
  await expect(app.main.getByRole('button', { name: 'Weblog details' })).toBeFocused()

  await app.openAccountSettings(label)
  await expect(app.settingsSection('Activity feed')).toContainText(`Connected to ${new URL(sandbox.jsonBase).host} as ${sandbox.username}`)

  await app.openAddAccount()
  await expect(app.addAccountForm).toBeVisible()
  await saveScreenshot(app.page, testInfo, 'sandbox-add-account.png')
  await expectAccessible(app.page, testInfo, 'add account')
  await app.addAccountForm.getByRole('button', { name: 'Cancel' }).click()
  await expect(app.selectedWeblogTitle).toHaveText(titles[0]!)

  // The sandbox is one account however often it is tried (here: after a restart of the window).
  await app.page.reload()
  await expect.poll(() => app.weblogTitles()).toEqual(titles)
  expect(await core.handlers['accounts:trySandbox'](null)).toMatchObject({ label })
  expect(await core.handlers['accounts:list'](null)).toHaveLength(1)
})
