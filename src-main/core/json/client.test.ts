// The JSON client against the real service (--demo) over HTTP: signed reads, a whole stream paged by
// moreResultsToken, a group paged by start-index, and the failures a person can meet, in words.
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandboxService, type SandboxService } from '../testing/sandbox-service'
import type { JsonEvent } from './shapes'

describe('JsonClient against the service', () => {
  let service: SandboxService
  beforeAll(async () => {
    service = await startSandboxService()
  })
  afterAll(async () => {
    await service.dispose()
  })

  it("reads the API key's Application with its OAuth addresses, and the auth token's group", async () => {
    const client = service.jsonClient()
    const { sandbox } = service
    const apiKey = await client.apiKey(sandbox.apiKey)
    expect(apiKey).toMatchObject({
      apiKey: sandbox.apiKey,
      owner: {
        name: 'Blogdesk',
        oauthRequestTokenUrl: `${sandbox.jsonBase}/oauth/request_token`,
        oauthAuthorizationUrl: `${sandbox.jsonBase}/oauth/authorize`,
        oauthAccessTokenUrl: `${sandbox.jsonBase}/oauth/access_token`,
        oauthIdentificationUrl: `${sandbox.jsonBase}/oauth/identify`,
      },
    })
    const token = await client.authToken(sandbox.apiKey, sandbox.authToken)
    expect(token).toMatchObject({ authToken: sandbox.authToken, targetObject: { displayName: 'Le Club du Dimanche' } })
    const me = await client.identify(apiKey.owner.oauthIdentificationUrl)
    expect(me).toMatchObject({ objectType: 'User', preferredUsername: sandbox.username, avatarLink: { url: expect.stringMatching(/^http:/) } })
  })

  it('finds a user by username through the redirect to the canonical address, signing each hop', async () => {
    const client = service.jsonClient()
    const jane = await client.user('jane')
    expect(jane).toMatchObject({ preferredUsername: 'jane', displayName: 'Jane Mallory', urlId: expect.any(String) })
    expect(jane.urlId).not.toBe('jane')
    expect(await client.user(jane.urlId)).toEqual(jane)
    const byName = await client.userEvents('jane', { limit: 2 })
    expect(byName.entries.map((event) => event.actor.urlId)).toEqual([jane.urlId, jane.urlId])
  })

  it("pages through a friend's whole stream with moreResultsToken: each event once, newest first, totalResults in all", async () => {
    const client = service.jsonClient()
    const jane = await client.user('jane')
    const seen: JsonEvent[] = []
    let pages = 0
    let startToken: string | null = null
    let total: number | null
    do {
      const page = await client.userEvents(jane.urlId, { limit: 4, startToken })
      seen.push(...page.entries)
      total = page.totalResults
      startToken = page.moreResultsToken
      pages++
    } while (startToken !== null)

    expect(pages).toBeGreaterThan(2)
    expect(seen).toHaveLength(total!)
    expect(new Set(seen.map((event) => event.urlId)).size).toBe(seen.length)
    const published = seen.map((event) => event.published)
    expect(published).toEqual([...published].sort().reverse())
    expect(seen.every((event) => event.actor.urlId === jane.urlId)).toBe(true)
    expect(new Set(seen.map((event) => event.verb))).toContain('NewAsset')

    const [first] = seen
    expect(await client.event(first!.urlId)).toEqual(first)
  })

  it("pages a user's events in a group by start-index", async () => {
    const client = service.jsonClient()
    const { sandbox } = service
    const group = (await client.authToken(sandbox.apiKey, sandbox.authToken)).targetObject!
    const jane = await client.user('jane')
    const seen: JsonEvent[] = []
    let totalResults = Infinity
    for (let startIndex = 1; startIndex <= totalResults; startIndex += 3) {
      const page = await client.groupEvents(jane.urlId, group.urlId, { startIndex, limit: 3 })
      totalResults = page.totalResults
      seen.push(...page.entries)
    }
    expect(totalResults).toBeGreaterThan(3)
    expect(seen).toHaveLength(totalResults)
    expect(new Set(seen.map((event) => event.urlId)).size).toBe(totalResults)
    await expect(client.groupEvents(jane.urlId, group.urlId, { startIndex: 0 })).rejects.toMatchObject({ code: 'invalid-argument' })
  })

  it("says the computer's clock is off when the service refuses the signature's timestamp", async () => {
    const client = service.jsonClient({ now: () => Date.now() + 60 * 60_000 })
    await expect(client.user('jane')).rejects.toMatchObject({
      code: 'clock-skew',
      kind: 'clock-skew',
      message: expect.stringMatching(/clock is about 60 minutes ahead of 127\.0\.0\.1:\d+'s.*Set your clock/),
    })
  })

  it('says the credentials were refused when a secret is wrong', async () => {
    const { sandbox } = service
    const client = service.jsonClient({
      credentials: async () => ({
        consumerKey: sandbox.apiKey,
        consumerSecret: sandbox.apiSecret,
        token: { key: sandbox.authToken, secret: 'not-the-secret' },
      }),
    })
    await expect(client.user('jane')).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/refused Blogdesk's OAuth credentials \(the server said: "The signature.*Sign in to .* again/),
    })
  })

  it('says what is missing when something is not there', async () => {
    await expect(service.jsonClient().event('6e0000000000000000')).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/has nothing at \/events\/6e0000000000000000\.json \(the server said: "There is no event/),
    })
  })

  it('says the service cannot be reached when nothing listens there', async () => {
    const server = createServer().listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    server.close()
    await expect(service.jsonClient({ jsonBase: `http://127.0.0.1:${port}` }).user('jane')).rejects.toMatchObject({
      code: 'offline',
      kind: 'unreachable',
      message: expect.stringMatching(/^Could not reach 127\.0\.0\.1:\d+\. Check the address/),
    })
  })
})
