import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applicationUrls } from '../auth/oauth-urls'
import { startService } from '../server'
import { formFields, send, signedFetch, signRequest, type KeyAndSecret } from '../testing/oauth-client'
import { ivy, melody, startTestService, type ServiceFixture } from '../testing/service-fixture'
import { REQUEST_TOKEN_LIFETIME_MS } from './oauth'
import { testDatabaseOption } from '../testing/postgres'

/** A loopback web server standing in for the application's callback: it remembers the queries it was sent. */
interface CallbackServer {
  url: string
  queries: URLSearchParams[]
  close(): Promise<void>
}

async function startCallbackServer(): Promise<CallbackServer> {
  const queries: URLSearchParams[] = []
  const server: Server = createServer((request, response) => {
    queries.push(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams)
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('Signed in. You can close this window.')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/signed-in`,
    queries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

describe('the OAuth 1.0a provider', () => {
  let service: ServiceFixture
  let callbackServer: CallbackServer
  let consumer: KeyAndSecret
  let expiredRequestToken: KeyAndSecret
  let applicationId: string
  let urls: { requestToken: string; authorize: string; accessToken: string; identify: string }

  beforeAll(async () => {
    service = await startTestService([melody, ivy], async (store) => {
      const application = await store.applications.add('Lettres <& co>')
      applicationId = await store.directory.urlIdOf('Application', application.id)
      const apiKey = await store.applications.issueApiKey(application.id)
      consumer = { key: apiKey, secret: await store.oauth.issueConsumerSecret(apiKey) }
      const issuedLongAgo = new Date(Date.now() - REQUEST_TOKEN_LIFETIME_MS - 1000)
      const { token, secret } = await store.oauth.createRequestToken(apiKey, 'oob', issuedLongAgo, REQUEST_TOKEN_LIFETIME_MS)
      expiredRequestToken = { key: token, secret }
    })
    callbackServer = await startCallbackServer()
    const { origin } = service
    urls = {
      requestToken: `${origin}/oauth/request_token`,
      authorize: `${origin}/oauth/authorize`,
      accessToken: `${origin}/oauth/access_token`,
      identify: `${origin}/oauth/identify`,
    }
  })
  afterAll(async () => {
    await callbackServer.close()
    await service.dispose()
  })

  async function getRequestToken(callback: string, client = consumer): Promise<KeyAndSecret> {
    const response = await signedFetch(client, urls.requestToken, { method: 'POST', form: { oauth_callback: callback } })
    expect(response.status).toBe(200)
    const fields = await formFields(response)
    return { key: fields['oauth_token']!, secret: fields['oauth_token_secret']! }
  }

  async function openAuthorizePage(requestToken: KeyAndSecret): Promise<{ page: string; formToken: string }> {
    const response = await fetch(`${urls.authorize}?oauth_token=${encodeURIComponent(requestToken.key)}`)
    expect(response.status).toBe(200)
    const page = await response.text()
    return { page, formToken: /name="form_token" value="([^"]+)"/.exec(page)![1]! }
  }

  function answer(requestToken: KeyAndSecret, formToken: string, fields: Record<string, string>): Promise<Response> {
    return fetch(urls.authorize, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ oauth_token: requestToken.key, form_token: formToken, ...fields }),
      redirect: 'manual',
    })
  }

  async function approve(requestToken: KeyAndSecret, account = melody): Promise<Response> {
    const { formToken } = await openAuthorizePage(requestToken)
    return answer(requestToken, formToken, { username: account.username, password: account.loginPassword, decision: 'approve' })
  }

  /** Approves through the callback and returns the verifier the callback server received. */
  async function approvedVerifier(requestToken: KeyAndSecret, account = melody): Promise<string> {
    const approval = await approve(requestToken, account)
    expect(approval.status).toBe(303)
    const callback = await fetch(approval.headers.get('location')!)
    expect(callback.status).toBe(200)
    return callbackServer.queries.at(-1)!.get('oauth_verifier')!
  }

  function exchange(requestToken: KeyAndSecret, verifier: string): Promise<Response> {
    return signedFetch(consumer, urls.accessToken, { method: 'POST', token: requestToken, form: { oauth_verifier: verifier } })
  }

  async function accessTokenFor(account = melody): Promise<KeyAndSecret> {
    const requestToken = await getRequestToken(callbackServer.url)
    const fields = await formFields(await exchange(requestToken, await approvedVerifier(requestToken, account)))
    return { key: fields['oauth_token']!, secret: fields['oauth_token_secret']! }
  }

  async function expectRefusal(response: Response, status: number, message: RegExp): Promise<void> {
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    if (status === 401) expect(response.headers.get('www-authenticate')).toBe(`OAuth realm="${service.origin}"`)
    const body = (await response.json()) as { error: { status: number; message: string } }
    expect(body.error.status).toBe(status)
    expect(body.error.message).toMatch(message)
  }

  describe('the whole dance, as a standard client library does it', () => {
    it('goes from a request token through the sign-in page and a loopback callback to an access token that identifies the user', async () => {
      const tokenResponse = await signedFetch(consumer, urls.requestToken, {
        method: 'POST',
        form: { oauth_callback: `${callbackServer.url}?state=kept%20as%20sent` },
      })
      expect(tokenResponse.status).toBe(200)
      expect(tokenResponse.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
      const issued = await formFields(tokenResponse)
      expect(issued['oauth_callback_confirmed']).toBe('true')
      const requestToken = { key: issued['oauth_token']!, secret: issued['oauth_token_secret']! }

      const { page, formToken } = await openAuthorizePage(requestToken)
      expect(page).toContain('Let Lettres &lt;&amp; co&gt; use your account?')
      expect(page).toContain('not the API password')

      const approval = await answer(requestToken, formToken, {
        username: melody.username,
        password: melody.loginPassword,
        decision: 'approve',
      })
      expect(approval.status).toBe(303)
      const location = approval.headers.get('location')!
      expect(location.startsWith(`${callbackServer.url}?state=kept%20as%20sent&oauth_token=`)).toBe(true)
      expect((await fetch(location)).status).toBe(200)
      const received = callbackServer.queries.at(-1)!
      expect(received.get('state')).toBe('kept as sent')
      expect(received.get('oauth_token')).toBe(requestToken.key)
      const verifier = received.get('oauth_verifier')!

      const accessResponse = await exchange(requestToken, verifier)
      expect(accessResponse.status).toBe(200)
      expect(accessResponse.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
      const access = await formFields(accessResponse)
      expect(Object.keys(access).sort()).toEqual(['oauth_token', 'oauth_token_secret'])
      const accessToken = { key: access['oauth_token']!, secret: access['oauth_token_secret']! }

      const identity = await signedFetch(consumer, urls.identify, { token: accessToken })
      expect(identity.status).toBe(200)
      expect(identity.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await identity.json()).toMatchObject({
        objectType: 'User',
        urlId: expect.stringMatching(/^6p/),
        preferredUsername: 'melody',
        displayName: 'Melody Nelson',
      })
    })

    it('shows the verifier code on a page when the application has no callback (oob), and takes it as typed', async () => {
      const requestToken = await getRequestToken('oob')
      const { page } = await openAuthorizePage(requestToken)
      expect(page).toContain('you will get a code to type into')

      const approval = await approve(requestToken)
      expect(approval.status).toBe(200)
      const code = /letter-spacing[^>]*>([A-Z0-9]+)</.exec(await approval.text())![1]!
      const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`

      const access = await exchange(requestToken, typed)
      expect(access.status).toBe(200)
      expect((await formFields(access))['oauth_token']).toMatch(/^[\w-]{16}$/)
    })

    it('takes oauth_callback in the Authorization header, and signs the whole dance with PLAINTEXT on loopback', async () => {
      const plain = { signatureMethod: 'PLAINTEXT' } as const
      const tokenResponse = await signedFetch(consumer, urls.requestToken, {
        ...plain,
        method: 'POST',
        header: { oauth_callback: callbackServer.url },
      })
      expect(tokenResponse.status).toBe(200)
      const fields = await formFields(tokenResponse)
      const requestToken = { key: fields['oauth_token']!, secret: fields['oauth_token_secret']! }
      const verifier = await approvedVerifier(requestToken)

      const accessResponse = await signedFetch(consumer, urls.accessToken, {
        ...plain,
        method: 'POST',
        token: requestToken,
        header: { oauth_verifier: verifier },
      })
      expect(accessResponse.status).toBe(200)
      const access = await formFields(accessResponse)
      const identity = await signedFetch(consumer, urls.identify, {
        ...plain,
        token: { key: access['oauth_token']!, secret: access['oauth_token_secret']! },
      })
      expect(await identity.json()).toMatchObject({ preferredUsername: 'melody' })
    })

    it('gives each person who approves their own access token', async () => {
      const melodys = await accessTokenFor(melody)
      const ivys = await accessTokenFor(ivy)
      expect(ivys.key).not.toBe(melodys.key)
      expect(await (await signedFetch(consumer, urls.identify, { token: ivys })).json()).toMatchObject({ preferredUsername: 'ivy' })
      expect(await (await signedFetch(consumer, urls.identify, { token: melodys })).json()).toMatchObject({ preferredUsername: 'melody' })
    })

    it('lets the signed-in user’s access token read their events through the JSON interface', async () => {
      const accessToken = await accessTokenFor(melody)
      const { urlId } = (await (await signedFetch(consumer, urls.identify, { token: accessToken })).json()) as { urlId: string }

      const events = await signedFetch(consumer, `${service.origin}/users/${urlId}/events.json?max-results=5`, { token: accessToken })
      expect(events.status).toBe(200)
      expect(await events.json()).toMatchObject({ entries: expect.any(Array) })

      const forged = await signedFetch(consumer, `${service.origin}/users/${urlId}/events.json`, {
        token: { ...accessToken, secret: 'not the token secret' },
      })
      expect(forged.status).toBe(401)
    })
  })

  describe('refusals, each saying what to do', () => {
    it('refuses a request signed with the wrong consumer secret', async () => {
      const response = await signedFetch({ ...consumer, secret: 'wrong' }, urls.requestToken, {
        method: 'POST',
        form: { oauth_callback: 'oob' },
      })
      await expectRefusal(response, 401, /signature .* does not match.*consumer secret.*base string: POST&http%3A%2F%2F127\.0\.0\.1/)
    })

    it('refuses an unknown consumer key', async () => {
      const response = await signedFetch({ key: 'no-such-key', secret: 'x' }, urls.requestToken, {
        method: 'POST',
        form: { oauth_callback: 'oob' },
      })
      await expectRefusal(response, 401, /"no-such-key" \(oauth_consumer_key\) is not an API key of this service/)
    })

    it('refuses a request signed with the wrong token secret', async () => {
      const accessToken = await accessTokenFor()
      const response = await signedFetch(consumer, urls.identify, { token: { ...accessToken, secret: 'wrong' } })
      await expectRefusal(response, 401, /Check the consumer secret and the token secret/)
    })

    it('refuses a replayed request: the same nonce twice', async () => {
      const accessToken = await accessTokenFor()
      const request = signRequest(consumer, urls.identify, { token: accessToken })
      expect((await send(request)).status).toBe(200)
      await expectRefusal(await send(request), 401, /nonce .* already used.*replayed.*fresh nonce/)
    })

    it('spends a nonce only on a request that passes the signature and clock checks, so refusals cannot crowd it out', async () => {
      const accessToken = await accessTokenFor()
      const now = Math.floor(Date.now() / 1000)
      const nonce = `kept-for-the-right-request-${now}`
      const wrongSecret = await signedFetch(consumer, urls.identify, { token: { ...accessToken, secret: 'wrong' }, nonce })
      await expectRefusal(wrongSecret, 401, /signature/)
      const farAhead = await signedFetch(consumer, urls.identify, { token: accessToken, nonce, timestamp: now + 365 * 24 * 60 * 60 })
      await expectRefusal(farAhead, 401, /clock skew/)
      expect((await signedFetch(consumer, urls.identify, { token: accessToken, nonce, timestamp: now })).status).toBe(200)
      await expectRefusal(await signedFetch(consumer, urls.identify, { token: accessToken, nonce, timestamp: now }), 401, /already used/)
    })

    it('refuses timestamps more than five minutes old or ahead, as clock skew', async () => {
      const accessToken = await accessTokenFor()
      const now = Math.floor(Date.now() / 1000)
      const old = await signedFetch(consumer, urls.identify, { token: accessToken, timestamp: now - 7 * 60 })
      await expectRefusal(old, 401, /about 7 minutes behind the service’s clock.*clock skew.*clock, date and time zone/)
      const future = await signedFetch(consumer, urls.identify, { token: accessToken, timestamp: now + 10 * 60 })
      await expectRefusal(future, 401, /about 10 minutes ahead of the service’s clock/)
      expect((await signedFetch(consumer, urls.identify, { token: accessToken, timestamp: now - 4 * 60 })).status).toBe(200)
    })

    it('refuses a callback that is not on this computer', async () => {
      const elsewhere = ['http://example.com/back', 'https://127.0.0.1/back', 'http://127.0.0.1.example.com/', 'back']
      for (const callback of [...elsewhere, 'http://u:p@127.0.0.1/']) {
        const response = await signedFetch(consumer, urls.requestToken, { method: 'POST', form: { oauth_callback: callback } })
        await expectRefusal(response, 400, /Send oob, or an http address on this computer \(127\.0\.0\.1, \[::1\] or localhost\)/)
      }
      const missing = await signedFetch(consumer, urls.requestToken, { method: 'POST' })
      await expectRefusal(missing, 400, /oauth_callback is missing/)
      for (const callback of ['http://localhost:9/x', 'http://[::1]:9/x']) {
        const accepted = await signedFetch(consumer, urls.requestToken, { method: 'POST', form: { oauth_callback: callback } })
        expect(accepted.status).toBe(200)
      }
    })

    it('refuses a callback with control characters (a CR/LF would split the approval’s Location header)', async () => {
      for (const callback of [`${callbackServer.url}\r\nSet-Cookie: session=stolen`, `${callbackServer.url}?a=\u0000`, `${callbackServer.url}\t`]) {
        const response = await signedFetch(consumer, urls.requestToken, { method: 'POST', form: { oauth_callback: callback } })
        await expectRefusal(response, 400, /oauth_callback contains a control character/)
      }
    })

    it('refuses a verifier that was already used', async () => {
      const requestToken = await getRequestToken(callbackServer.url)
      const verifier = await approvedVerifier(requestToken)
      expect((await exchange(requestToken, verifier)).status).toBe(200)
      await expectRefusal(await exchange(requestToken, verifier), 401, /already used for an access token.*Start again with a new request token/)
    })

    it('refuses a wrong verifier, and the request token after five of them', async () => {
      const requestToken = await getRequestToken(callbackServer.url)
      const verifier = await approvedVerifier(requestToken)
      await expectRefusal(await exchange(requestToken, 'AAAAAAAA'), 401, /verifier \(oauth_verifier\) is wrong.*4 tries left/)
      for (let attempt = 2; attempt <= 5; attempt++) expect((await exchange(requestToken, 'AAAAAAAA')).status).toBe(401)
      await expectRefusal(await exchange(requestToken, verifier), 401, /Too many wrong verifiers/)
    })

    it('refuses to exchange a request token nobody has approved yet, or without a verifier', async () => {
      const requestToken = await getRequestToken(callbackServer.url)
      await expectRefusal(await exchange(requestToken, 'AAAAAAAA'), 401, /not been approved yet.*\/oauth\/authorize\?oauth_token=/)
      await approvedVerifier(requestToken)
      const withoutVerifier = await signedFetch(consumer, urls.accessToken, { method: 'POST', token: requestToken })
      await expectRefusal(withoutVerifier, 400, /oauth_verifier is missing/)
    })

    it('sends a denial back to the callback, and refuses the denied request token', async () => {
      const requestToken = await getRequestToken(callbackServer.url)
      const { formToken } = await openAuthorizePage(requestToken)
      const denial = await answer(requestToken, formToken, { decision: 'deny' })
      expect(denial.status).toBe(303)
      expect(denial.headers.get('location')).toBe(`${callbackServer.url}?denied=${requestToken.key}`)
      await expectRefusal(await exchange(requestToken, 'AAAAAAAA'), 401, /denied Lettres <& co> access/)

      const again = await fetch(`${urls.authorize}?oauth_token=${requestToken.key}`)
      expect(again.status).toBe(400)
      expect(await again.text()).toContain('was already denied')
    })

    it('shows a denial without a callback on a page', async () => {
      const requestToken = await getRequestToken('oob')
      const { formToken } = await openAuthorizePage(requestToken)
      const denial = await answer(requestToken, formToken, { decision: 'deny' })
      expect(denial.status).toBe(200)
      expect(await denial.text()).toContain('gets no access to your account')
    })

    it('refuses a wrong login password (or the API password), then the request token after five tries', async () => {
      const requestToken = await getRequestToken(callbackServer.url)
      const { formToken } = await openAuthorizePage(requestToken)
      const withApiPassword = await answer(requestToken, formToken, { username: 'melody', password: melody.password, decision: 'approve' })
      expect(withApiPassword.status).toBe(401)
      const page = await withApiPassword.text()
      expect(page).toContain('The username or password is wrong (4 tries left)')
      expect(page).toContain('value="melody"')

      const unknownUser = await answer(requestToken, formToken, { username: 'nobody', password: 'x', decision: 'approve' })
      expect(await unknownUser.text()).toContain('(3 tries left)')
      for (let attempt = 3; attempt <= 4; attempt++) {
        expect((await answer(requestToken, formToken, { username: 'melody', password: 'guess', decision: 'approve' })).status).toBe(401)
      }
      const fifth = await answer(requestToken, formToken, { username: 'melody', password: 'guess', decision: 'approve' })
      expect(await fifth.text()).toContain('void after 5 wrong attempts')

      const rightAtLast = await answer(requestToken, formToken, { username: 'melody', password: melody.loginPassword, decision: 'approve' })
      expect(rightAtLast.status).toBe(401)
      expect(await rightAtLast.text()).toContain('Too many wrong passwords')
    })

    it('takes the username in any case, as people type it', async () => {
      const requestToken = await getRequestToken(callbackServer.url)
      expect((await approve(requestToken, { ...melody, username: 'Melody' })).status).toBe(303)
    })

    it('refuses a form whose form token does not belong to its request token', async () => {
      const mine = await getRequestToken(callbackServer.url)
      const other = await getRequestToken(callbackServer.url)
      const { formToken: othersFormToken } = await openAuthorizePage(other)
      const forged = await answer(mine, othersFormToken, { username: 'melody', password: melody.loginPassword, decision: 'approve' })
      expect(forged.status).toBe(400)
      expect(await forged.text()).toContain('Open the sign-in page from Lettres &lt;&amp; co&gt; again')
      const missing = await answer(mine, '', { decision: 'deny' })
      expect(missing.status).toBe(400)
      expect((await approve(mine)).status).toBe(303)
    })

    it('refuses an expired request token on the page and at the access-token step', async () => {
      const page = await fetch(`${urls.authorize}?oauth_token=${expiredRequestToken.key}`)
      expect(page.status).toBe(400)
      expect(await page.text()).toContain('This sign-in request has expired')
      const exchangeResponse = await exchange(expiredRequestToken, 'AAAAAAAA')
      await expectRefusal(exchangeResponse, 401, /request token expired at .*Start again/)
    })

    it('refuses an unknown or missing request token on the page', async () => {
      const unknown = await fetch(`${urls.authorize}?oauth_token=nonsense`)
      expect(unknown.status).toBe(400)
      expect(await unknown.text()).toContain('start signing in again')
      expect((await fetch(urls.authorize)).status).toBe(400)
    })

    it('refuses tokens used in the wrong place: a request token as access token, and the other way round', async () => {
      const requestToken = await getRequestToken(callbackServer.url)
      await expectRefusal(
        await signedFetch(consumer, urls.identify, { token: requestToken }),
        401,
        /is a request token\. Exchange it for an access token at http:\/\/127\.0\.0\.1:\d+\/oauth\/access_token first/,
      )
      const accessToken = await accessTokenFor()
      await expectRefusal(await exchange(accessToken, 'AAAAAAAA'), 401, /request token .* is not known to this service/)
      await expectRefusal(await signedFetch(consumer, urls.identify), 401, /signed with a user’s access token/)
      await expectRefusal(await signedFetch(consumer, urls.identify, { token: { key: 'gone', secret: 'x' } }), 401, /"gone" is not known/)
      const withToken = await signedFetch(consumer, urls.requestToken, {
        method: 'POST',
        token: accessToken,
        form: { oauth_callback: 'oob' },
      })
      await expectRefusal(withToken, 400, /leave oauth_token out/)
    })

    it('refuses an unsigned request, an incomplete signature, an unknown method, or the same parameter twice', async () => {
      await expectRefusal(await fetch(urls.identify), 401, /answers only requests signed with OAuth 1\.0a/)
      await expectRefusal(
        await fetch(urls.identify, { headers: { Authorization: 'OAuth oauth_consumer_key="k"' } }),
        400,
        /oauth_signature_method, oauth_signature, oauth_timestamp and oauth_nonce are missing/,
      )
      const rsa = signRequest(consumer, urls.identify)
      rsa.headers['Authorization'] = rsa.headers['Authorization']!.replace('HMAC-SHA1', 'RSA-SHA1')
      await expectRefusal(await send(rsa), 400, /"RSA-SHA1" is not supported\. Sign with HMAC-SHA1 or PLAINTEXT/)
      const twice = signRequest(consumer, `${urls.identify}?oauth_nonce=again`)
      await expectRefusal(await send(twice), 400, /oauth_nonce is sent more than once/)
    })
  })

  describe('pages and scripts', () => {
    it('lets the sign-in form post only here and go on only to the callback, and never caches it', async () => {
      const requestToken = await getRequestToken(callbackServer.url)
      const response = await fetch(`${urls.authorize}?oauth_token=${requestToken.key}`)
      const policy = response.headers.get('content-security-policy')!
      expect(policy).toContain(`form-action 'self' ${new URL(callbackServer.url).origin}`)
      expect(policy).toContain("frame-ancestors 'none'")
      expect(policy).toContain("default-src 'none'")
      expect(response.headers.get('cache-control')).toBe('no-store')
    })

    it('serves every URL of the Application for real', async () => {
      const applicationUrlsOf = applicationUrls(service.origin, applicationId)
      const { oauthRequestTokenUrl, oauthAccessTokenUrl, ...readable } = applicationUrlsOf
      for (const url of Object.values(readable)) expect((await fetch(url)).status, url).not.toBe(404)

      const script = await fetch(applicationUrlsOf.sessionSyncScriptUrl)
      expect(script.status).toBe(200)
      expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8')
      expect(await script.text()).toMatch(/^\/\/ sessionSyncScriptUrl\. TypePad/)
      const flyouts = await fetch(applicationUrlsOf.userFlyoutsScriptUrl)
      expect(await flyouts.text()).toMatch(/^\/\/ userFlyoutsScriptUrl/)
      const signOut = await fetch(applicationUrlsOf.signoutUrl)
      expect(signOut.status).toBe(200)
      expect(await signOut.text()).toContain('<h1>Signed out</h1>')
      for (const url of [oauthRequestTokenUrl, oauthAccessTokenUrl]) expect((await fetch(url)).status).toBe(405)

      const unknown = applicationUrls(service.origin, '6p00000000ffffffff')
      for (const url of [unknown.sessionSyncScriptUrl, unknown.signoutUrl, unknown.userFlyoutsScriptUrl]) {
        expect((await fetch(url)).status).toBe(404)
      }
    })
  })
})

// A consumer secret ships inside every copy of a desktop app, so anyone can sign with it: spent nonces must stay bounded
// per holder without ever being forgotten early, and one holder's flood must not refuse anyone else.
describe('OAuth nonces kept per holder', () => {
  const NONCES_PER_HOLDER = 3
  let service: ServiceFixture
  let consumer: KeyAndSecret
  const tokens = new Map<string, KeyAndSecret>()

  beforeAll(async () => {
    service = await startTestService(
      [melody, ivy],
      async (store) => {
        const apiKey = await store.applications.issueApiKey((await store.applications.add('Lettres')).id)
        consumer = { key: apiKey, secret: await store.oauth.issueConsumerSecret(apiKey) }
        for (const { username } of [melody, ivy]) {
          const issued = await store.oauth.issueAccessToken(apiKey, (await store.users.find(username))!.id)
          tokens.set(username, { key: issued.token, secret: issued.secret })
        }
      },
      undefined,
      { oauthNoncesPerHolder: NONCES_PER_HOLDER },
    )
  })
  afterAll(() => service.dispose())

  const identify = (token: KeyAndSecret) => signRequest(consumer, `${service.origin}/oauth/identify`, { token })

  it('refuses a token past its bound with 429 and when to try again, still refuses its replays, and serves other tokens', async () => {
    const melodyToken = tokens.get(melody.username)!
    const accepted = Array.from({ length: NONCES_PER_HOLDER }, () => identify(melodyToken))
    for (const request of accepted) expect((await send(request)).status).toBe(200)

    const over = await send(identify(melodyToken))
    expect(over.status).toBe(429)
    const wait = Number(over.headers.get('Retry-After'))
    expect(wait).toBeGreaterThan(5 * 60 - 10)
    expect(wait).toBeLessThanOrEqual(5 * 60 + 1)
    expect(((await over.json()) as { error: { message: string } }).error.message).toMatch(/each token may send 3 within 5 minutes.*Try again in \d+ seconds/)
    expect((await send(accepted[0]!)).status).toBe(401)

    expect((await send(identify(tokens.get(ivy.username)!))).status).toBe(200)
  })

  it('bounds what an address signing with the consumer key alone keeps, apart from the tokens it holds', async () => {
    const requestToken = () =>
      signRequest(consumer, `${service.origin}/oauth/request_token`, { method: 'POST', form: { oauth_callback: 'oob' } })
    for (let sent = 0; sent < NONCES_PER_HOLDER; sent++) expect((await send(requestToken())).status).toBe(200)
    const over = await send(requestToken())
    expect(over.status).toBe(429)
    expect(over.headers.get('Retry-After')).toMatch(/^\d+$/)

    const events = await send(signRequest(consumer, `${service.origin}/users/6p0123/events.json`))
    expect(events.status).toBe(429)
    expect(((await events.json()) as { error: { message: string } }).error.message).toMatch(/each client without a token may send 3/)
    expect((await send(identify(tokens.get(ivy.username)!))).status).toBe(200)
  })
})

describe('the sandbox (--demo)', () => {
  it('writes a consumer secret and a pre-approved access token for the demo user into sandbox.json', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-oauth-demo-'))
    try {
      let running = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, lookup: { offline: true } })
      const read = () => JSON.parse(readFileSync(join(dataDir, 'sandbox.json'), 'utf8')) as Record<string, string>
      const first = read()
      expect(Object.keys(first)).toEqual(expect.arrayContaining(['apiKey', 'apiSecret', 'authToken', 'authTokenSecret']))
      const identify = () =>
        signedFetch({ key: first['apiKey']!, secret: first['apiSecret']! }, `${first['jsonBase']}/oauth/identify`, {
          token: { key: first['authToken']!, secret: first['authTokenSecret']! },
        })
      expect(await (await identify()).json()).toMatchObject({ preferredUsername: first['username'] })

      await running.close()
      running = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, lookup: { offline: true } })
      const second = read()
      expect([second['apiSecret'], second['authToken'], second['authTokenSecret']]).toEqual([
        first['apiSecret'],
        first['authToken'],
        first['authTokenSecret'],
      ])
      await running.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
