import { NS } from '../src-protocol'
import type { AccountSummary, OutboxItem } from '../src-shared/contract'
import { startServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'

test('the outbox says why an operation needs attention, Retry sends it again, Discard drops it, and the status bar follows', async ({
  app,
  service,
  core,
  platform,
}, testInfo) => {
  const { sandbox } = service
  await app.addAccount(sandbox)
  await expect.poll(() => app.accountLabels()).toHaveLength(1)
  const [account] = (await core.handlers['accounts:list'](null)) as [AccountSummary]
  const list = (await core.handlers['lists:list']({ accountId: account.id, refresh: true })).collections.find((each) => each.title === 'Specifications')!
  const changes: OutboxItem[] = []
  core.onEvent((event, payload) => {
    if (event === 'outbox:changed') changes.push(payload as OutboxItem)
  })

  // A list item for a list that is not on the server: the server refuses it, and it waits for the person.
  const missingList = `${new URL(list.postUri).origin}/t/atom/lists/list_id=999999`
  const refused = core.sync.enqueueListItem({
    accountId: account.id,
    listUri: missingList,
    item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/nowhere', title: 'A link for a list that is gone' } },
  })
  await expect(app.outboxButton).toHaveAccessibleName('Outbox: 1 needs attention')

  await app.openOutbox()
  const entry = app.outboxEntry('A link for a list that is gone')
  await expect(entry).toContainText('Needs attention')
  const reason = core.sync.operation(refused.id)!.lastError!
  expect(reason).toMatch(/\w+ \w+ \w+/)
  await expect(entry).toContainText(reason)
  await saveScreenshot(app.page, testInfo, 'outbox-needs-attention.png')
  await expectAccessible(app.page, testInfo, 'outbox')

  const before = changes.length
  await entry.getByRole('button', { name: 'Retry' }).click()
  await expect.poll(() => changes.slice(before).map((item) => item.state)).toEqual(['queued', 'sending', 'needs-attention'])
  await expect(entry).toContainText('Needs attention')

  // With the server down, a new item waits (and the computer going offline says so); it goes once all is back.
  await service.stop()
  const waiting = core.sync.enqueueListItem({
    accountId: account.id,
    listUri: list.postUri,
    item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/later', title: 'Sent when the server is back' } },
  })
  const waitingEntry = app.outboxEntry('Sent when the server is back')
  await expect(waitingEntry).toContainText('Waiting')
  await expect(waitingEntry).toContainText(`Could not reach ${new URL(sandbox.atomBase).host}`)
  await expect(app.outboxButton).toHaveAccessibleName('Outbox: 1 waiting to publish · 1 needs attention')
  platform.setOnline(false)
  await expect(app.connection).toHaveText('Offline (this computer)')
  await saveScreenshot(app.page, testInfo, 'outbox-offline.png')

  const revived = await startServiceProcess(service.dataDir, service.port)
  try {
    platform.setOnline(true)
    await expect(app.connection).toHaveText('Online')
    await expect(waitingEntry).toContainText('Sent')
    await expect(app.outboxButton).toHaveAccessibleName('Outbox: 1 needs attention')
    expect(core.sync.operation(waiting.id)).toMatchObject({ state: 'done' })

    await entry.getByRole('button', { name: 'Discard' }).click()
    await expect(app.confirmDialog).toContainText('Discard “A link for a list that is gone”?')
    await app.confirmDialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(entry).toBeVisible()
    await entry.getByRole('button', { name: 'Discard' }).click()
    await app.confirmDialog.getByRole('button', { name: 'Discard' }).click()
    await expect(entry).toHaveCount(0)
    await expect(app.outboxButton).toHaveAccessibleName('Outbox: Everything is sent')
    expect(core.sync.operation(refused.id)).toBeNull()
    await saveScreenshot(app.page, testInfo, 'outbox-after-discard.png')
  } finally {
    await revived.stop()
  }
})

test('an empty outbox says so', async ({ app, service }, testInfo) => {
  await app.addAccount(service.sandbox)
  await expect.poll(() => app.accountLabels()).toHaveLength(1)
  await app.openOutbox()
  await expect(app.main.getByRole('heading', { name: 'Outbox', level: 1 })).toBeVisible()
  await expect(app.main).toContainText('Nothing is waiting.')
  await expect(app.outboxButton).toHaveAttribute('aria-current', 'page')
  await saveScreenshot(app.page, testInfo, 'outbox-empty.png')
})
