import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'

test('first run: one click on “Try the local sandbox” starts it and shows its weblogs, with the activity feed connected', async ({
  app,
  platform,
  core,
}, testInfo) => {
  await expect(app.welcomeHeading).toBeVisible()
  await expect(app.connection).toHaveText('Online')
  await saveScreenshot(app.page, testInfo, 'sandbox-welcome.png')
  await expectAccessible(app.page, testInfo, 'welcome')

  await app.trySandboxButton.click()
  // Starting the sandbox service is a process of its own coming up.
  await expect.poll(() => app.accountLabels(), { timeout: 30_000 }).toHaveLength(1)
  const { sandbox } = platform.sandbox!
  const label = `${sandbox.username} @ ${new URL(sandbox.atomBase).host}`
  const titles = await fetchWeblogTitles(sandbox)
  expect(titles.length, 'the sandbox has demo weblogs').toBeGreaterThan(0)
  expect(await app.accountLabels()).toEqual([label])
  await expect.poll(() => app.weblogTitles()).toEqual(titles)
  await expect(app.selectedWeblogTitle).toHaveText(titles[0]!)
  await expect(app.weblogPlace(titles[0]!, 'Drafts')).toHaveAttribute('aria-current', 'page')
  await expect(app.outboxButton).toHaveAccessibleName('Outbox: Everything is sent')
  await saveScreenshot(app.page, testInfo, 'sandbox-main.png')
  await expectAccessible(app.page, testInfo, 'main')

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
