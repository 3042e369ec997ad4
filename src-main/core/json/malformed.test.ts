// Answers the JSON client cannot use, from a local server that says whatever a test tells it to: each becomes a
// RequestFailure ('rejected' for the renderer) naming what is wrong, never a crash and never half-read data.
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JsonClient } from './client'

interface CannedAnswer {
  status?: number
  headers?: Record<string, string>
  body: string
}

describe('JsonClient with answers it cannot use', () => {
  let server: Server
  let origin: string
  let answer: CannedAnswer
  const authorizations: string[] = []

  beforeAll(async () => {
    server = createServer((request, response) => {
      authorizations.push(request.headers.authorization ?? '')
      response.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...answer.headers }).end(answer.body)
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => {
    server.close()
  })

  const client = () =>
    new JsonClient({
      fetch: globalThis.fetch,
      jsonBase: origin,
      credentials: async () => ({ consumerKey: 'key', consumerSecret: 'secret', token: { key: 'token', secret: 'token secret' } }),
    })

  const user = (name: string) => ({
    objectType: 'User',
    id: `tag:127.0.0.1,2009:6p${name}`,
    urlId: `6p${name}`,
    objectTypes: ['tag:127.0.0.1,2009:User'],
    displayName: name,
    preferredUsername: name,
    profilePageUrl: `${origin}/people/${name}`,
    aboutMe: null,
    location: null,
    interests: ['walking'],
    avatarLink: { width: 50, height: 50, url: `${origin}/avatars/${name}.png` },
  })
  const post = () => ({
    objectType: 'Post',
    id: 'tag:127.0.0.1,2009:6a01',
    urlId: '6a01',
    published: '2009-06-01T14:00:00+02:00',
    permalinkUrl: `${origin}/jane/2009/06/rain.html`,
    author: user('jane'),
    container: { objectType: 'Blog', urlId: '6b01', displayName: 'Di doo dah', homeUrl: `${origin}/jane/` },
    commentCount: 2,
    favoriteCount: 1,
    title: 'Rain on the South Bank',
    excerpt: 'Everyone else went home.',
    renderedContent: '<p>Everyone else went home.</p>',
    embeddedImageLinks: [],
  })
  const event = (object: unknown = post()) => ({
    id: 'tag:127.0.0.1,2009:6e01',
    urlId: '6e01',
    actor: user('jane'),
    object,
    published: '2009-06-01T12:00:00Z',
    verbs: ['tag:api.typepad.com,2009:NewAsset'],
  })
  const stream = (entries: unknown[]) => JSON.stringify({ entries, estimatedTotalResults: null, moreResultsToken: null, totalResults: entries.length })
  const withEntry = (change: (entry: ReturnType<typeof event>) => unknown) => stream([change(event())])

  it('reads a well-formed stream into the shapes the app uses, signed, with dates as Blogdesk writes them', async () => {
    const link = {
      ...post(),
      objectType: 'Link',
      title: 'A map I found',
      content: 'Worth a look.',
      textFormat: 'html_convert_linebreaks',
      rating: null,
      targetUrl: 'https://maps.example/',
      details: { url: 'https://maps.example/' },
    }
    answer = { body: stream([event(), event(link), { ...event(user('ivy')), urlId: '6e02', verb: 'AddedNeighbor' }]) }
    const page = await client().userEvents('jane', { limit: 3 })

    expect(page).toMatchObject({ moreResultsToken: null, totalResults: 3 })
    expect(page.entries[0]).toMatchObject({ verb: 'NewAsset', object: { objectType: 'Post', published: '2009-06-01T12:00:00Z' } })
    expect(page.entries[0]!.actor).not.toHaveProperty('interests')
    expect(page.entries[1]!.object).toMatchObject({ objectType: 'Link', targetUrl: 'https://maps.example/', rating: null })
    expect(page.entries[2]).toMatchObject({ verb: 'AddedNeighbor', object: { objectType: 'User', preferredUsername: 'ivy' } })
    expect(authorizations.at(-1)).toMatch(/^OAuth oauth_consumer_key="key", oauth_token="token", oauth_signature_method="HMAC-SHA1", .*oauth_signature="/)
  })

  // Each answer is made when its test runs: the documents name the server's address, known only then.
  it.each([
    ['broken JSON', () => ({ body: '{"entries": [' }), /answered \/users\/jane\/events\.json, but not with JSON \(it sent application\/json\)/],
    ['a web page', () => ({ body: '<html><body>Sign in to the Wi-Fi</body></html>', headers: { 'Content-Type': 'text/html' } }), /but not with JSON \(it sent text\/html\)/],
    ['null', () => ({ body: 'null' }), /cannot use: response should be an object, not null\./],
    ['entries that are not a list', () => ({ body: JSON.stringify({ entries: {}, moreResultsToken: null }) }), /response\.entries should be a list, not an object/],
    [
      'an actor without an avatar',
      () => ({ body: withEntry((entry) => ({ ...entry, actor: { ...entry.actor, avatarLink: undefined } })) }),
      /response\.entries\[0\]\.actor\.avatarLink is missing/,
    ],
    [
      'a javascript: permalink',
      () => ({ body: withEntry((entry) => ({ ...entry, object: { ...post(), permalinkUrl: 'javascript:alert(1)' } })) }),
      /response\.entries\[0\]\.object\.permalinkUrl should be an http or https address, not "javascript:alert\(1\)"/,
    ],
    [
      'an object of a type the app does not know',
      () => ({ body: withEntry((entry) => ({ ...entry, object: { ...post(), objectType: 'Video' } })) }),
      /response\.entries\[0\]\.object\.objectType is "Video", where Blogdesk knows Post, Comment, Photo, Song, Book, Person, Link, User/,
    ],
    ['a date that is not one', () => ({ body: withEntry((entry) => ({ ...entry, published: 'yesterday' })) }), /response\.entries\[0\]\.published should be a date/],
    ['a count below zero', () => ({ body: withEntry((entry) => ({ ...entry, object: { ...post(), commentCount: -1 } })) }), /commentCount should be a whole number of at least 0, not the number -1/],
    ['an event that does not say what happened', () => ({ body: withEntry((entry) => ({ ...entry, verbs: [] })) }), /response\.entries\[0\]\.verbs is empty/],
  ])('refuses %s in words, naming what is wrong', async (_case, canned, message) => {
    answer = canned()
    await expect(client().userEvents('jane')).rejects.toMatchObject({ code: 'rejected', kind: 'refused', message: expect.stringMatching(message) })
  })

  it("says the service is busy, in its own words, and passes on how long it asked to wait", async () => {
    answer = { status: 503, headers: { 'Retry-After': '7' }, body: JSON.stringify({ error: { status: 503, message: 'Too many requests.' } }) }
    await expect(client().event('6e01')).rejects.toMatchObject({
      code: 'offline',
      kind: 'server-busy',
      retryAfterMs: 7000,
      message: expect.stringMatching(/is busy \(HTTP 503\) \(the server said: "Too many requests\."\)\. It asked to wait 7 seconds\./),
    })
  })

  it('does not follow a redirect to another server with the credentials', async () => {
    answer = { status: 302, headers: { Location: 'http://192.0.2.1/users/jane.json' }, body: '' }
    await expect(client().user('jane')).rejects.toMatchObject({ code: 'rejected', message: expect.stringMatching(/sent Blogdesk on to 192\.0\.2\.1/) })
  })

  it('stops reading an answer larger than it could be', async () => {
    answer = { body: `{"entries": [], "padding": "${'x'.repeat(9 * 1024 * 1024)}"}` }
    await expect(client().userEvents('jane')).rejects.toMatchObject({ code: 'rejected', message: expect.stringMatching(/larger than 8 MB/) })
  })
})
