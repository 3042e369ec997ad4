import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { NS } from '../src-protocol'
import { FileVault } from '../src-main/core'
import { testCipher } from '../src-main/core/testing/core-fixture'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { installBridge } from './harness/bridge'
import { saveScreenshot } from './harness/screenshots'
import { startServiceProcess } from '../src-service/testing/service-process'
import { accountLabelOf, fetchWeblogTitles } from './harness/weblog-listing'
import { AppModel } from './models/app'

test('adding the sandbox account lists its weblogs in the sidebar', async ({ app, service, appDataDir }, testInfo) => {
  const { sandbox } = service
  const titles = await fetchWeblogTitles(sandbox)
  expect(titles.length, 'the demo data has weblogs').toBeGreaterThan(0)

  await expect(app.addAccountForm).toBeVisible()
  await app.addAccount(sandbox)

  await expect.poll(() => app.weblogTitles()).toEqual(titles)
  await expect.poll(() => app.accountLabels()).toEqual([`${titles[0]} — ${sandbox.username}`])
  await expect(app.selectedWeblogTitle).toHaveText(titles[0]!)
  const vaultFile = await readFile(join(appDataDir, 'secrets.bin'), 'utf8')
  expect(vaultFile, 'the API password is not stored as typed').not.toContain(sandbox.apiPassword)

  await saveScreenshot(app.page, testInfo, 'weblogs.png')
  await expectAccessible(app.page, testInfo, 'main')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'weblogs-dark.png')
})

test('a wrong API password is refused with words that say what to check, and nothing is added', async ({ app, service, core }, testInfo) => {
  const { sandbox } = service
  await app.addAccount({ ...sandbox, apiPassword: `${sandbox.apiPassword}-wrong` })

  await expect(app.errorNotice).toContainText('Sign-in refused')
  await expect(app.errorNotice).toContainText('The username or API password is wrong')
  expect(await app.errorMessage()).toContain('API password')
  await expect(app.errorNotice.getByRole('button', { name: 'Retry' }), 'retrying the same password cannot help').toHaveCount(0)
  await expect(app.addAccountForm.getByLabel('Username'), 'the details stay for correcting').toHaveValue(sandbox.username)
  expect(await app.accountLabels()).toEqual([])
  expect(await core.handlers['accounts:list'](null)).toEqual([])

  await saveScreenshot(app.page, testInfo, 'wrong-password.png')
})

test('an unreachable server is named, with what to check and a Retry button', async ({ app, service }, testInfo) => {
  const { sandbox } = service
  await service.stop()
  await app.addAccount(sandbox)

  await expect(app.errorNotice).toContainText('Server unreachable')
  await expect(app.errorNotice).toContainText(`Could not reach ${new URL(sandbox.atomBase).host}`)
  const retry = app.errorNotice.getByRole('button', { name: 'Retry' })
  await expect(retry).toBeVisible()
  await retry.click()
  await expect(app.errorNotice).toContainText(`Could not reach ${new URL(sandbox.atomBase).host}`)
  expect(await app.accountLabels()).toEqual([])

  await saveScreenshot(app.page, testInfo, 'unreachable.png')
})

test('weblogs that cannot be loaded say why under their account, and Retry loads them once the server is back', async ({
  page,
  renderer,
  core,
  service,
}, testInfo) => {
  const { sandbox } = service
  const titles = await fetchWeblogTitles(sandbox)
  // Added while the window was closed, so nothing of its weblogs was ever seen; the server is down when it opens.
  await core.handlers['accounts:add'](sandbox)
  await service.stop()
  const bridge = await installBridge(page, core)
  const app = new AppModel(page)
  try {
    await page.goto(renderer.url)
    const notice = app.sidebar.getByRole('alert')
    await expect(notice).toContainText('Server unreachable')
    await expect(notice).toContainText(`Could not reach ${new URL(sandbox.atomBase).host}`)
    await saveScreenshot(page, testInfo, 'weblogs-unreachable.png')

    const revived = await startServiceProcess(service.dataDir, service.port)
    try {
      await notice.getByRole('button', { name: 'Retry' }).click()
      await expect.poll(() => app.weblogTitles()).toEqual(titles)
      await expect(notice).toHaveCount(0)
    } finally {
      await revived.stop()
    }
  } finally {
    bridge.close()
  }
})

test('with the server unreachable, the weblogs are listed as last seen and their drafts stay at hand', async ({ app, service }, testInfo) => {
  const { sandbox } = service
  const titles = await fetchWeblogTitles(sandbox)
  await app.addAccount(sandbox)
  await expect.poll(() => app.weblogTitles()).toEqual(titles)

  await service.stop()
  await app.page.reload()
  await expect.poll(() => app.weblogTitles()).toEqual(titles)
  await expect(app.sidebar.getByRole('alert')).toHaveCount(0)
  await app.weblogPlace(titles[0]!, 'Drafts').click()
  await expect(app.weblogPlace(titles[0]!, 'Drafts')).toHaveAttribute('aria-current', 'page')
  await saveScreenshot(app.page, testInfo, 'weblogs-offline.png')
})

test('removing an account asks first, then forgets it and returns to the first-run screen', async ({ app, service, core }, testInfo) => {
  const { sandbox } = service
  await app.addAccount(sandbox)
  const label = await accountLabelOf(sandbox)
  await expect.poll(() => app.accountLabels()).toEqual([label])

  await app.openAccountSettings(label)
  await expect(app.main.getByRole('heading', { name: label, level: 1 })).toBeVisible()
  await expectAccessible(app.page, testInfo, 'account settings')
  await app.settingsSection('Remove this account').getByRole('button', { name: 'Remove account…' }).click()
  await expect(app.confirmDialog).toContainText(`Remove ${label}?`)
  await saveScreenshot(app.page, testInfo, 'remove-account-confirm.png')

  await app.confirmDialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(app.confirmDialog).toBeHidden()
  expect(await core.handlers['accounts:list'](null)).toHaveLength(1)

  await app.settingsSection('Remove this account').getByRole('button', { name: 'Remove account…' }).click()
  await app.confirmDialog.getByRole('button', { name: 'Remove account' }).click()
  await expect(app.welcomeHeading).toBeVisible()
  expect(await app.accountLabels()).toEqual([])
  expect(await core.handlers['accounts:list'](null)).toEqual([])
})

test('a paused account says why across the window; a new API password is checked, kept, and publishing goes on', async ({
  app: before,
  service,
  core: coreBefore,
  appDataDir,
  reopen,
}, testInfo) => {
  const { sandbox } = service
  await before.addAccount(sandbox)
  const label = await accountLabelOf(sandbox)
  await expect.poll(() => before.accountLabels()).toEqual([label])
  const [account] = await coreBefore.handlers['accounts:list'](null)
  const list = (await coreBefore.handlers['lists:list']({ accountId: account!.id, refresh: true })).collections.find((each) => each.title === 'Specifications')!
  // The API password changed on the server while Blogdesk was closed: what it keeps no longer works.
  await new FileVault(join(appDataDir, 'secrets.bin'), testCipher).set(`account:${account!.id}:api-password`, 'the-old-password')
  const { core, page, bridge, pageErrors } = await reopen()
  const app = new AppModel(page)
  await expect.poll(() => app.accountLabels()).toEqual([label])
  const operation = core.sync.enqueueListItem({
    accountId: account!.id,
    listUri: list.postUri,
    item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/paused', title: 'Held while paused' } },
  })

  await expect(app.pausedBanner).toContainText(`Publishing to ${label} is paused.`)
  await expect(app.pausedBanner).toContainText('refused the sign-in')
  await expect(app.outboxButton).toHaveAccessibleName('Outbox: 1 waiting to publish')
  await saveScreenshot(app.page, testInfo, 'paused-banner.png')
  await expectAccessible(app.page, testInfo, 'paused banner')

  await app.pausedBanner.getByRole('button', { name: 'Change API password' }).click()
  const form = app.settingsSection('API password')
  await form.getByLabel('New API password').fill('still-the-wrong-one')
  await form.getByRole('button', { name: 'Save API password' }).click()
  await expect(form.getByRole('alert')).toContainText('Sign-in refused')
  await expect(app.main.getByRole('alert').filter({ hasText: 'Publishing is paused' })).toBeVisible()

  await form.getByLabel('New API password').fill(sandbox.apiPassword)
  await form.getByRole('button', { name: 'Save API password' }).click()
  await expect(form.getByRole('status')).toContainText('The server accepted the new API password.')
  await expect(app.outboxButton).toHaveAccessibleName('Outbox: Everything is sent')
  await expect(app.pausedBanner).toHaveCount(0)
  expect(core.sync.operation(operation.id)).toMatchObject({ state: 'done' })
  expect([...bridge.bugs, ...bridge.deliveryFailures, ...pageErrors]).toEqual([])
})

test('the JSON side is connected by signing in with OAuth in its own window, which can be cancelled', async ({ app, service, platform }, testInfo) => {
  const { sandbox } = service
  await app.addAccount(sandbox)
  const label = await accountLabelOf(sandbox)
  await expect.poll(() => app.accountLabels()).toEqual([label])
  await app.openAccountSettings(label)
  const form = app.settingsSection('Activity feed')
  await form.getByLabel('JSON base URL').fill(sandbox.jsonBase)
  await form.getByLabel('API key').fill(sandbox.apiKey)
  await form.getByLabel('API secret').fill(sandbox.apiSecret)

  // Nobody answers the first sign-in window: the person cancels instead.
  await form.getByRole('button', { name: 'Sign in with OAuth' }).click()
  await expect(form.getByRole('status')).toContainText('Waiting for you to sign in')
  await saveScreenshot(app.page, testInfo, 'oauth-waiting.png')
  await form.getByRole('button', { name: 'Cancel' }).click()
  await expect(form.getByRole('alert')).toContainText('cancelled before it was finished')
  expect(platform.authorizePages.map((shown) => shown.closed)).toEqual([true])

  // The second time the person signs in on the service's page, in a window of its own, and approves.
  platform.onAuthorizePage(async (url) => {
    const window = await app.page.context().newPage()
    await window.goto(url)
    await window.getByLabel('Username').fill(sandbox.username)
    await window.getByLabel('Password').fill(sandbox.loginPassword)
    await window.getByRole('button', { name: 'Approve' }).click()
    await window.waitForLoadState()
    await window.close()
  })
  await form.getByRole('button', { name: 'Sign in with OAuth' }).click()
  await expect(form).toContainText(`Connected to ${new URL(sandbox.jsonBase).host} as ${sandbox.username}`)
  expect(platform.authorizePages.map((shown) => shown.closed)).toEqual([true, true])
  await saveScreenshot(app.page, testInfo, 'oauth-connected.png')
})

test('the add-account form says which fields need attention before asking the server', async ({ app, core }) => {
  await app.addAccount({ atomBase: 'ftp://blog.example.com', username: ' ', apiPassword: '' })

  const form = app.addAccountForm
  await expect(form.getByLabel('Atom base URL')).toHaveAccessibleDescription(/starting with http:\/\/ or https:\/\//)
  await expect(form.getByLabel('Atom base URL')).toBeFocused()
  await expect(form.getByLabel('Username')).toHaveAccessibleDescription('Enter your username on that server.')
  await expect(form.getByLabel('API password')).toHaveAccessibleDescription(/Enter the API password\.$/)
  await expect(app.errorNotice).toHaveCount(0)
  expect(await core.handlers['accounts:list'](null)).toEqual([])
})
