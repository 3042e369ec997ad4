import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { saveScreenshot } from './harness/screenshots'
import { startServiceProcess } from '../src-service/testing/service-process'
import { fetchWeblogTitles } from './harness/weblog-listing'

test('adding the sandbox account lists its weblogs in the sidebar', async ({ app, service, appDataDir }, testInfo) => {
  const { sandbox } = service
  const titles = await fetchWeblogTitles(sandbox)
  expect(titles.length, 'the demo data has weblogs').toBeGreaterThan(0)

  await expect(app.addAccountForm).toBeVisible()
  await app.addAccount(sandbox)

  await expect.poll(() => app.weblogTitles()).toEqual(titles)
  expect(await app.accountLabels()).toEqual([`${sandbox.username} @ ${new URL(sandbox.atomBase).host}`])
  await expect(app.selectedWeblogTitle).toHaveText(titles[0]!)
  const vaultFile = await readFile(join(appDataDir, 'secrets.bin'), 'utf8')
  expect(vaultFile, 'the API password is not stored as typed').not.toContain(sandbox.apiPassword)

  await saveScreenshot(app.page, testInfo, 'weblogs.png')
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

test('weblogs that cannot be loaded say why under their account, and Retry loads them once the server is back', async ({ app, service }, testInfo) => {
  const { sandbox } = service
  const titles = await fetchWeblogTitles(sandbox)
  await app.addAccount(sandbox)
  await expect.poll(() => app.weblogTitles()).toEqual(titles)

  await service.stop()
  await app.page.reload()
  const notice = app.sidebar.getByRole('alert')
  await expect(notice).toContainText('Server unreachable')
  await expect(notice).toContainText(`Could not reach ${new URL(sandbox.atomBase).host}`)
  await saveScreenshot(app.page, testInfo, 'weblogs-unreachable.png')

  const revived = await startServiceProcess(service.dataDir, service.port)
  try {
    await notice.getByRole('button', { name: 'Retry' }).click()
    await expect.poll(() => app.weblogTitles()).toEqual(titles)
    await expect(notice).toHaveCount(0)
  } finally {
    await revived.stop()
  }
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
