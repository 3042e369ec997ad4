import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Store } from '../store'
import { send, signedFetch, signRequest, type KeyAndSecret } from '../testing/oauth-client'
import { checkCallback, oauthVerifier, type OAuthOutcome } from './oauth'
import { openTestStore } from '../testing/postgres'

// A JSON route as the JSON interface has them: it answers with what oauthVerifier made of the request.
describe('oauthVerifier, as the JSON routes use it', () => {
  let dataDir: string
  let store: Store
  let server: Server
  let origin: string
  /** The origin the route believes it is reached at; the socket's own unless a test says otherwise. */
  let claimedOrigin: string | null = null
  let consumer: KeyAndSecret
  let accessToken: KeyAndSecret
  let userId: number

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-oauth-verifier-'))
    store = await openTestStore(dataDir)
    userId = (await store.users.add({ username: 'melody', displayName: 'Melody Nelson', loginPassword: 'l', apiPassword: 'a' })).id
    const apiKey = await store.applications.issueApiKey((await store.applications.add('Lettres')).id)
    consumer = { key: apiKey, secret: await store.oauth.issueConsumerSecret(apiKey) }
    const issued = await store.oauth.issueAccessToken(apiKey, userId)
    accessToken = { key: issued.token, secret: issued.secret }

    const verify = oauthVerifier(store)
    server = createServer((request, response) => {
      verify(request, claimedOrigin ?? origin).then(
        (outcome) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(outcome)),
        (error: unknown) => response.writeHead(500).end(String(error)),
      )
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    await store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const outcomeOf = async (response: Promise<Response>) => (await (await response).json()) as OAuthOutcome
  const eventsUrl = () => `${origin}/users/6p0123/events.json?max-results=5`

  it('leaves a request without OAuth parameters alone, even one with another kind of Authorization', async () => {
    expect(await outcomeOf(fetch(eventsUrl()))).toEqual({ signed: false })
    expect(await outcomeOf(fetch(eventsUrl(), { headers: { Authorization: 'Basic bWVsb2R5OmE=' } }))).toEqual({ signed: false })
  })

  it('names the user of an access token, and no user for a request signed with the consumer key alone', async () => {
    expect(await outcomeOf(signedFetch(consumer, eventsUrl(), { token: accessToken }))).toEqual({
      signed: true,
      ok: true,
      userId,
      apiKey: consumer.key,
    })
    expect(await outcomeOf(signedFetch(consumer, eventsUrl()))).toEqual({ signed: true, ok: true, userId: null, apiKey: consumer.key })
  })

  it('checks OAuth parameters sent in the query instead of the header', async () => {
    const signed = signRequest(consumer, eventsUrl(), { token: accessToken })
    const inQuery = new URLSearchParams(
      signed.headers['Authorization']!.slice('OAuth '.length)
        .split(', ')
        .map((pair) => pair.split('=').map((part) => decodeURIComponent(part.replace(/^"|"$/g, ''))) as [string, string]),
    )
    expect(await outcomeOf(fetch(`${eventsUrl()}&${inQuery}`))).toMatchObject({ signed: true, ok: true, userId })
    expect(await outcomeOf(fetch(`${eventsUrl()}&${inQuery}`))).toMatchObject({ signed: true, ok: false, status: 401 })
  })

  it('turns a bad signature, a replay or an unknown token into a refusal with the reason', async () => {
    const forged = await outcomeOf(signedFetch(consumer, eventsUrl(), { token: { ...accessToken, secret: 'guess' } }))
    expect(forged).toMatchObject({ signed: true, ok: false, status: 401, message: expect.stringMatching(/does not match/) })

    const request = signRequest(consumer, eventsUrl(), { token: accessToken })
    await send(request)
    expect(await outcomeOf(send(request))).toMatchObject({ ok: false, status: 401, message: expect.stringMatching(/replayed/) })

    const unknown = await outcomeOf(signedFetch(consumer, eventsUrl(), { token: { key: 'nope', secret: 'x' } }))
    expect(unknown).toMatchObject({ ok: false, status: 401, message: expect.stringMatching(/"nope" is not known/) })

    const malformed = await outcomeOf(fetch(eventsUrl(), { headers: { Authorization: 'OAuth oauth_nonce="x' } }))
    expect(malformed).toMatchObject({ signed: true, ok: false, status: 400 })
  })

  it('refuses PLAINTEXT when the service is reachable beyond this computer', async () => {
    claimedOrigin = 'http://blogdesk.example'
    try {
      const path = '/users/6p0123/events.json'
      const plain = signRequest(consumer, `${claimedOrigin}${path}`, { token: accessToken, signatureMethod: 'PLAINTEXT' })
      expect(await outcomeOf(send({ ...plain, url: `${origin}${path}` }))).toMatchObject({
        ok: false,
        status: 400,
        message: expect.stringMatching(/beyond this computer\. Sign with HMAC-SHA1/),
      })
      const hmac = signRequest(consumer, `${claimedOrigin}${path}`, { token: accessToken })
      expect(await outcomeOf(send({ ...hmac, url: `${origin}${path}` }))).toMatchObject({ ok: true, userId })
    } finally {
      claimedOrigin = null
    }
  })
})

describe('checkCallback', () => {
  it('accepts oob and http addresses on this computer, keeping them exactly as sent', () => {
    for (const callback of ['oob', 'http://127.0.0.1:8080/back?x=%20y', 'http://[::1]:9/', 'http://localhost/']) {
      expect(checkCallback(callback)).toBe(callback)
    }
  })

  it('refuses anything else', () => {
    for (const callback of [undefined, '', 'OOB', 'https://localhost/', 'http://10.0.0.1/', 'http://127.0.0.1/#f', 'javascript:alert(1)']) {
      expect(() => checkCallback(callback)).toThrow(/Send oob, or an http address on this computer/)
    }
  })
})
