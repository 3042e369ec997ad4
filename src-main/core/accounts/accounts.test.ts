// Accounts against the real service over HTTP: adding verifies with the server, and only a verified account is kept.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ivy, melody, startTestService, type ServiceFixture } from '../../../src-service/testing/service-fixture'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'

describe('accounts', () => {
  let service: ServiceFixture
  let fixture: CoreFixture
  beforeEach(async () => {
    service = await startTestService([melody, ivy])
    fixture = await openTestCore()
  })
  afterEach(async () => {
    await fixture.dispose()
    await service.dispose()
  })

  const addMelody = (apiPassword = melody.password) =>
    fixture.core.handlers['accounts:add']({ atomBase: service.origin, username: 'melody', apiPassword })

  it("adds an account, lists only that person's weblogs, and remembers the account after a restart", async () => {
    const changes: unknown[] = []
    fixture.core.onEvent((event, payload) => changes.push([event, payload]))

    const account = await addMelody()
    expect(account).toMatchObject({ username: 'melody', atomBase: service.origin })
    expect(changes).toEqual([['accounts:changed', [account]]])

    const weblogs = await fixture.core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
    expect(weblogs.map((weblog) => weblog.title)).toEqual(melody.weblogs.map((weblog) => weblog.title))
    expect(weblogs[0]).toMatchObject({
      postUri: expect.stringMatching(new RegExp(`^${service.origin}/t/atom/weblog/blog_id=\\d+$`)),
      categoriesUri: expect.stringMatching(/\/svc=categories$/),
      uploadUri: expect.stringMatching(/\/svc=upload$/),
    })

    const restarted = await fixture.reopen()
    // Named by its first weblog once the weblogs were read, and still after the restart.
    expect(await restarted.handlers['accounts:list'](null)).toEqual([{ ...account, label: `${melody.weblogs[0]!.title} — melody` }])
    expect(await restarted.handlers['weblogs:list']({ accountId: account.id, refresh: true })).toEqual(weblogs)
  })

  it('answers with the weblogs as last read unless asked to read them again, so the sidebar shows at once', async () => {
    const account = await addMelody()
    const read = await fixture.core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
    await service.withStore(async (store) => { await store.weblogs.add({ ownerId: (await store.users.find('melody'))!.id, title: 'Night Shifts', slug: 'night-shifts' }) })

    expect(await fixture.core.handlers['weblogs:list']({ accountId: account.id, refresh: false })).toEqual(read)
    const again = await fixture.core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
    expect(again.map((weblog) => weblog.title)).toEqual([...read.map((weblog) => weblog.title), 'Night Shifts'])
    expect(await fixture.core.handlers['weblogs:list']({ accountId: account.id, refresh: false })).toEqual(again)
  })

  it('keeps the API password out of the database and its write-ahead log', async () => {
    await addMelody()
    const written = ['blogdesk.sqlite', 'blogdesk.sqlite-wal', 'secrets.bin'].filter((name) => existsSync(join(fixture.dataDir, name)))
    expect(written).toContain('blogdesk.sqlite-wal')
    for (const name of written) expect(readFileSync(join(fixture.dataDir, name)).includes(melody.password), name).toBe(false)
  })

  it('refuses a wrong API password in words, and keeps nothing', async () => {
    await expect(addMelody('not-the-password')).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/refused the sign-in: "The username or API password is wrong\./),
    })
    expect(await fixture.core.handlers['accounts:list'](null)).toEqual([])
  })

  it('refuses to add the same account twice', async () => {
    await addMelody()
    await expect(addMelody()).rejects.toMatchObject({ code: 'rejected', message: expect.stringMatching(/already in your accounts/) })
    expect(await fixture.core.handlers['accounts:list'](null)).toHaveLength(1)
  })

  it('says the server is unreachable when it is down, and what to do', async () => {
    const account = await addMelody()
    await service.dispose()
    // Two turns of the event loop: the server's sockets close at the end of this one, and Node's HTTP client reads
    // that in the next. A request sent before would go into the kept-alive connection and break ("the request may or
    // may not have reached it"); Electron's network stack, which the app uses, sends such a request again itself.
    for (let turn = 0; turn < 2; turn++) await new Promise(setImmediate)
    await expect(fixture.core.handlers['weblogs:list']({ accountId: account.id, refresh: true })).rejects.toMatchObject({
      code: 'offline',
      message: expect.stringMatching(/^Could not reach 127\.0\.0\.1:\d+\. Check the address/),
    })
  })

  it('says plainly when the address is not an Atom server', async () => {
    await expect(
      fixture.core.handlers['accounts:add']({ atomBase: `${service.origin}/nothing-here`, username: 'melody', apiPassword: melody.password }),
    ).rejects.toMatchObject({ code: 'rejected', message: expect.stringMatching(/No Atom weblog listing was found/) })
  })

  it('answers not-found for an account that does not exist', async () => {
    await expect(fixture.core.handlers['weblogs:list']({ accountId: 'gone', refresh: true })).rejects.toMatchObject({ code: 'not-found' })
  })
})
