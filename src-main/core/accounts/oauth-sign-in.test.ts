// An account's JSON side against the real service (--demo): the whole OAuth 1.0a sign-in done by core, with the
// test in the person's place at the authorize page (a browser's requests, made with fetch), and the ways it ends
// without an access token, each in words.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountSummary } from '../../../src-shared/contract'
import { LocalStore } from '../store'
import { answerAuthorizePage } from '../testing/authorize-page'
import { openTestCore, testCipher, type CoreFixture } from '../testing/core-fixture'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'
import { Accounts } from './accounts'
import { FileVault } from './vault'

describe('OAuth sign-in against the service', () => {
  let service: SandboxService
  beforeAll(async () => {
    service = await startSandboxService()
  })
  afterAll(async () => {
    await service.dispose()
  })

  let fixture: CoreFixture
  let account: AccountSummary
  beforeEach(async () => {
    fixture = await openTestCore()
    const { sandbox } = service
    account = await fixture.core.handlers['accounts:add']({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })
  })
  afterEach(async () => {
    await fixture.dispose()
  })

  const consumer = () => ({ jsonBase: service.sandbox.jsonBase, apiKey: service.sandbox.apiKey, apiSecret: service.sandbox.apiSecret })
  const login = () => ({ username: service.sandbox.username, password: service.sandbox.loginPassword })
  /** The account as the renderer sees it once its JSON side is signed in. */
  const connected = (): AccountSummary => ({ ...account, json: { jsonBase: service.sandbox.jsonBase, username: service.sandbox.username } })

  it("signs in: request token, the person's approval, access token; then the account reads its JSON side", async () => {
    const { accounts } = fixture.core
    const signIn = await accounts.beginOAuthSignIn(account.id, consumer())
    expect(signIn.authorizeUrl).toMatch(new RegExp(`^${service.sandbox.jsonBase}/oauth/authorize\\?oauth_token=[^&]+$`))

    const callbackUrl = await answerAuthorizePage(signIn.authorizeUrl, 'approve', login())
    expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/blogdesk\/oauth-callback\?oauth_token=.+&oauth_verifier=.+$/)
    const callbackPage = await fetch(callbackUrl)
    expect(callbackPage.status).toBe(200)
    expect(await callbackPage.text()).toMatch(/Blogdesk is connected/)

    expect(await signIn.completion).toEqual(connected())
    const side = accounts.jsonSide(account.id)!
    expect(side).toMatchObject({ jsonBase: service.sandbox.jsonBase, apiKey: service.sandbox.apiKey, username: 'melody' })

    const page = await accounts.jsonClient(account.id).userEvents(side.userUrlId, { limit: 5 })
    expect(page.entries.length).toBeGreaterThan(0)
    expect(page.entries.every((event) => event.actor.preferredUsername === 'melody')).toBe(true)

    // The callback took its one request and closed.
    await expect(fetch(callbackUrl)).rejects.toThrow()
    // The secrets are in the vault, sealed; the database holds none of them.
    const database = readFileSync(join(fixture.dataDir, 'blogdesk.sqlite'))
    expect(database.includes(service.sandbox.apiSecret)).toBe(false)
    expect(readFileSync(join(fixture.dataDir, 'secrets.bin')).includes(service.sandbox.apiSecret)).toBe(false)

    const restarted = await fixture.reopen()
    expect(restarted.accounts.jsonSide(account.id)).toEqual(side)
    expect((await restarted.accounts.jsonClient(account.id).userEvents(side.userUrlId, { limit: 1 })).entries).toHaveLength(1)
  })

  it('ignores a request to the callback about another request token, and finishes with the right one', async () => {
    const signIn = await fixture.core.accounts.beginOAuthSignIn(account.id, consumer())
    const callbackUrl = await answerAuthorizePage(signIn.authorizeUrl, 'approve', login())
    const forged = new URL(callbackUrl)
    forged.searchParams.set('oauth_token', 'someone-elses-token')
    const refused = await fetch(forged)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toMatch(/not the sign-in Blogdesk is waiting for/)

    expect((await fetch(callbackUrl)).status).toBe(200)
    expect(await signIn.completion).toEqual(connected())
  })

  it('says so when the person denies access, and keeps nothing', async () => {
    const signIn = await fixture.core.accounts.beginOAuthSignIn(account.id, consumer())
    // Listened to at once, as the shell does: the outcome may come while the browser is still loading its page.
    const refusal = expect(signIn.completion).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/^You denied Blogdesk access to your account at 127\.0\.0\.1:\d+, so nothing was changed\. To connect, sign in again and choose Approve\.$/),
    })
    const callbackPage = await fetch(await answerAuthorizePage(signIn.authorizeUrl, 'deny', login()))
    expect(await callbackPage.text()).toMatch(/You denied Blogdesk access/)
    await refusal
    expect(fixture.core.accounts.jsonSide(account.id)).toBeNull()
  })

  it('refuses a wrong consumer secret before sending the person anywhere', async () => {
    await expect(fixture.core.accounts.beginOAuthSignIn(account.id, { ...consumer(), apiSecret: 'not-the-secret' })).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/refused the API key ".+" with that consumer secret: the key is not one of its API keys, or the secret is wrong\./),
    })
  })

  it('attaches an access token approved elsewhere once the service accepts it, and refuses a wrong token secret', async () => {
    const { sandbox } = service
    const credentials = { ...consumer(), authToken: sandbox.authToken, authTokenSecret: sandbox.authTokenSecret }
    await expect(fixture.core.accounts.attachJson(account.id, { ...credentials, authTokenSecret: 'wrong' })).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/refused the access token: it was revoked, belongs to another API key, or its secret is wrong/),
    })
    expect(fixture.core.accounts.jsonSide(account.id)).toBeNull()

    const side = await fixture.core.accounts.attachJson(account.id, credentials)
    expect(side).toMatchObject({ username: 'melody', apiKey: sandbox.apiKey })
    const me = await fixture.core.accounts.jsonClient(account.id).user(side.userUrlId)
    expect(me.preferredUsername).toBe('melody')
  })

  it('says an account without a JSON side must be signed in first', () => {
    expect(() => fixture.core.accounts.jsonClient(account.id)).toThrow(/not connected to a JSON service yet\. Sign in with OAuth/)
  })

  describe('when the person never answers', () => {
    let dataDir: string
    let store: LocalStore
    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-accounts-'))
      store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
    })
    afterEach(() => {
      store.close()
      rmSync(dataDir, { recursive: true, force: true })
    })

    it('stops waiting after the time allowed, says so, and closes the callback', async () => {
      const accounts = new Accounts({
        store,
        vault: new FileVault(join(dataDir, 'secrets.bin'), testCipher),
        fetch: globalThis.fetch,
        onChanged: () => undefined,
        signInTimeoutMs: 300,
      })
      const { sandbox } = service
      const added = await accounts.add({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })
      const signIn = await accounts.beginOAuthSignIn(added.id, consumer())
      await expect(signIn.completion).rejects.toMatchObject({
        code: 'auth',
        message: expect.stringMatching(/^The sign-in at 127\.0\.0\.1:\d+ was not finished within 1 second, so Blogdesk stopped waiting\. Start signing in again/),
      })
      // The person approves too late: the browser finds nothing listening any more.
      const callbackUrl = await answerAuthorizePage(signIn.authorizeUrl, 'approve', login())
      await expect(fetch(callbackUrl)).rejects.toThrow(/fetch failed/)
      expect(accounts.jsonSide(added.id)).toBeNull()
    })
  })
})
