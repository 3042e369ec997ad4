// The outbox inside the core: openCore starts the engine over the app's store and accounts, close stops it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NS } from '../../../src-protocol'
import { melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import { AtomClient } from '..'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'

describe('core outbox', () => {
  let service: ServiceFixture
  let fixture: CoreFixture

  beforeEach(async () => {
    service = await startTestService([melody], async (store) => { await store.lists.add({ ownerId: (await store.users.find('melody'))!.id, title: 'Reading', type: 'links' }) })
    fixture = await openTestCore()
  })

  afterEach(async () => {
    await fixture.dispose()
    await service.dispose()
  })

  it('sends what is queued through core.sync with the account of the core, and keeps the record across a restart', async () => {
    const account = await fixture.core.handlers['accounts:add']({ atomBase: service.origin, username: 'melody', apiPassword: melody.password })
    const client = new AtomClient({ fetch, credentials: async () => ({ username: 'melody', password: melody.password }) })
    const [list] = await client.listCollections(`${service.origin}/t/atom/lists`)
    const changes: string[] = []
    fixture.core.sync.on('changed', ({ operation }) => changes.push(operation?.state ?? 'none'))

    const operation = fixture.core.sync.enqueueListItem({
      accountId: account.id,
      listUri: list!.postUri,
      item: { ns: NS.link, fields: { url: 'http://127.0.0.1:9/queued', title: 'Queued through the core' } },
    })
    await fixture.core.sync.drain()
    expect(changes).toEqual(['queued', 'sending', 'done'])

    const restarted = await fixture.reopen()
    expect(restarted.sync.operation(operation.id)).toMatchObject({ state: 'done', result: { fields: { url: 'http://127.0.0.1:9/queued' } } })
    expect(restarted.sync.counts()).toEqual({ waiting: 0, needsAttention: 0 })
  })
})
