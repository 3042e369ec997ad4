// The JSON interface over real HTTP: every endpoint, its parameters and refusals, the shapes of the documentation
// examples and of the spec's tables, OAuth-signed and unsigned reading, and the rate limit.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFixture } from '../../src-protocol/test-fixtures'
import { applicationUrls } from '../auth/oauth-urls'
import { PagingTokens, TOKEN_LIFETIME_MS } from '../json/paging'
import { startService } from '../server'
import type { Store } from '../store'
import { signedFetch, type KeyAndSecret } from '../testing/oauth-client'
import { ivy, melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'
import { openTestStore, testDatabaseOption } from '../testing/postgres'

const documentedExample = (name: string): unknown => JSON.parse(readFixture(`json/${name}`))

// The fields of the spec's tables (§2.4–2.6); every object inside an event also carries the first four.
const IDENTIFIED = ['id', 'urlId', 'objectType', 'objectTypes']
const EVENT_FIELDS = ['id', 'urlId', 'actor', 'object', 'published', 'verb', 'verbs']
const USER_FIELDS = [...IDENTIFIED, 'displayName', 'preferredUsername', 'profilePageUrl', 'aboutMe', 'location', 'interests', 'avatarLink']
const AVATAR_LINK_FIELDS = ['width', 'height', 'url', 'urlTemplate']
const POST_FIELDS = [
  ...IDENTIFIED,
  ...['title', 'content', 'renderedContent', 'excerpt', 'description', 'filename', 'shortUrl', 'permalinkUrl'],
  ...['textFormat', 'published', 'author', 'container', 'groups', 'categories', 'commentCount', 'favoriteCount'],
  ...['reblogCount', 'hasExtendedContent', 'embeddedAudioLinks', 'embeddedImageLinks', 'embeddedVideoLinks'],
]
const COMMENT_FIELDS = [
  ...IDENTIFIED,
  ...['content', 'title', 'description', 'textFormat', 'published', 'permalinkUrl', 'author', 'commenter'],
  ...['container', 'groups', 'root', 'inReplyTo', 'commentCount', 'favoriteCount'],
]
const BLOG_FIELDS = [...IDENTIFIED, 'displayName', 'homeUrl']
const ASSET_REF_FIELDS = [...IDENTIFIED, 'href', 'type', 'permalinkUrl', 'author']
const W3CDTF = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/

/** Every key path of a JSON value ("owner.name", "entries[].verb"), for comparing shapes. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [] : keyPaths(value[0], `${prefix}[]`)
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`
    return [path, ...keyPaths(inner, path)]
  })
}

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(url, { redirect: 'manual', ...init })
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json }
}

async function expectError(url: string, status: number, message: RegExp): Promise<void> {
  const { status: actual, body } = await getJson(url)
  expect(body).toEqual({ error: { status, message: expect.stringMatching(message) } })
  expect(actual).toBe(status)
}

function expectUser(user: Json): void {
  expect(Object.keys(user)).toEqual(USER_FIELDS)
  expect(Object.keys(user['avatarLink'])).toEqual(AVATAR_LINK_FIELDS)
  expect(user['avatarLink'].urlTemplate).toContain('{spec}')
  expect(user['id']).toBe(`tag:127.0.0.1,2009:${user['urlId']}`)
  expect(user['objectTypes']).toEqual(['tag:127.0.0.1,2009:User'])
  expect(Array.isArray(user['interests'])).toBe(true)
}

interface Seed {
  consumer: KeyAndSecret
  accessToken: KeyAndSecret
  applicationName: string
  applicationUrlId: string
  groupUrlId: string
  melodyUrlId: string
  ivyUrlId: string
  bulkUrlId: string
  bulkId: number
  melodyPostId: number
  melodyWeblogId: number
  /** Event url ids by what they are. */
  events: Record<'post' | 'textPost' | 'comment' | 'reply' | 'favourite' | 'neighbour' | 'photo' | 'person' | 'link', string>
}

/** Melody and Ivy in a group, a post each with comments, a favourite and a neighbour; 260 events of a third user. */
async function seed(store: Store): Promise<Seed> {
  const melodyId = (await store.users.find(melody.username))!.id
  const ivyId = (await store.users.find(ivy.username))!.id
  const bulkId = (await store.users.add({ username: 'bulk', displayName: 'Bulk', loginPassword: 'login-pw', apiPassword: 'api-pw' })).id
  const applicationName = 'Feed reader <& co>'
  const application = await store.applications.add(applicationName)
  const apiKey = await store.applications.issueApiKey(application.id)
  const consumer = { key: apiKey, secret: await store.oauth.issueConsumerSecret(apiKey) }
  const { token, secret } = await store.oauth.issueAccessToken(apiKey, melodyId)
  await store.profiles.set(melodyId, { aboutMe: 'Records and recipes.', location: 'Paris', interests: ['vinyl'], avatarColor: null })

  const group = await store.groups.add({ displayName: 'Readers <& writers>', tagline: 'We read.', siteUrl: 'https://club.example/' })
  await store.groups.join(group.id, melodyId, 'Admin', '2026-01-01T00:00:00Z')
  await store.groups.join(group.id, ivyId, 'Member', '2026-01-02T00:00:00Z')

  const [melodyWeblog] = await store.weblogs.ownedBy(melodyId)
  const [ivyWeblog] = await store.weblogs.ownedBy(ivyId)
  const photos = await store.categories.add(melodyWeblog!.id, 'Photos')
  const at = '2026-03-01T08:00:00Z'
  const melodyPost = await store.posts.create(
    melodyWeblog!.id,
    melodyId,
    {
      title: 'First light',
      content: '<p>Morning &amp; fog <img src="https://img.example/a.jpg?x=1&amp;y=2" width="40" height="30" alt=""></p>',
      contentKind: 'xhtml',
      summary: null,
      issued: at,
      categories: [photos],
    },
    at,
  )
  const ivyPost = await store.posts.create(
    ivyWeblog!.id,
    ivyId,
    { title: 'Plain words', content: 'Line one\nline two <not markup>\n\nSecond paragraph', contentKind: 'text', summary: 'Plain', issued: at, categories: [] },
    at,
  )
  const record = async (actorId: number, verb: 'NewAsset' | 'AddedFavorite' | 'AddedNeighbor', objectType: 'Post' | 'Comment' | 'User', objectId: number, published: string) =>
    (await store.events.record({ actorId, verb, objectType, objectId, published, groupId: group.id })).urlId
  const comment = await store.comments.add({ postId: melodyPost.id, authorId: ivyId, inReplyTo: null, content: 'Lovely &amp; misty', textFormat: 'html_convert_linebreaks', published: '2026-03-01T09:00:00Z' })
  const reply = await store.comments.add({ postId: melodyPost.id, authorId: melodyId, inReplyTo: comment.id, content: 'Thank you!', textFormat: 'html', published: '2026-03-01T10:00:00Z' })
  await store.favorites.add(ivyId, melodyPost.id, '2026-03-01T11:00:00Z')
  await store.relationships.add(ivyId, melodyId, 'neighbor', '2026-03-01T12:00:00Z')
  const collectorId = (await store.users.add({ username: 'collector', displayName: 'Collector', loginPassword: 'login-pw', apiPassword: 'api-pw' })).id
  const album = await store.albums.add(collectorId, 'Walks <in fog>')
  const photo = await store.photos.add(
    album.id,
    {
      ...{ title: 'Fog', caption: 'Over the <river>', filename: 'fog.jpg', mediaType: 'image/jpeg', byteSize: 10, sha256: '0'.repeat(64) },
      ...{ width: 800, height: 600, location: null, latitude: null, longitude: null, taken: null, keywords: [], camera: null },
      ...{ issued: at, storedName: `photos/${collectorId}/${'a'.repeat(32)}.jpg`, thumbnailName: `thumbnails/${collectorId}/${'b'.repeat(32)}.jpg` },
      ...{ thumbnailWidth: 320, thumbnailHeight: 240 },
    },
    at,
  )
  const people = await store.lists.add({ ownerId: collectorId, title: 'People', type: 'people' })
  const person = await store.lists.addItem(
    { listId: people.id, fields: { name: 'Dan', homepage: 'https://danbri.org/', email: 'dan@example.org' }, rating: null, notes: { format: 'text', value: 'Knows <FOAF>' }, issued: at },
    at,
  )
  const links = await store.lists.add({ ownerId: collectorId, title: 'Links', type: 'links' })
  const link = await store.lists.addItem(
    { listId: links.id, fields: { url: 'https://www.w3.org/', title: 'W3C' }, rating: 4, notes: { format: 'xhtml', value: '<p>The <em>web</em></p>' }, issued: at },
    at,
  )
  const listed = async (objectType: 'Photo' | 'ListItem', objectId: number) =>
    (await store.events.record({ actorId: collectorId, verb: 'NewAsset', objectType, objectId, published: at })).urlId

  const events = {
    post: await record(melodyId, 'NewAsset', 'Post', melodyPost.id, at),
    textPost: (await store.events.record({ actorId: ivyId, verb: 'NewAsset', objectType: 'Post', objectId: ivyPost.id, published: at })).urlId,
    comment: await record(ivyId, 'NewAsset', 'Comment', comment.id, '2026-03-01T09:00:00Z'),
    reply: await record(melodyId, 'NewAsset', 'Comment', reply.id, '2026-03-01T10:00:00Z'),
    favourite: await record(ivyId, 'AddedFavorite', 'Post', melodyPost.id, '2026-03-01T11:00:00Z'),
    neighbour: await record(ivyId, 'AddedNeighbor', 'User', melodyId, '2026-03-01T12:00:00Z'),
    photo: await listed('Photo', photo.id),
    person: await listed('ListItem', person.id),
    link: await listed('ListItem', link.id),
  }

  const bulkWeblog = await store.weblogs.add({ ownerId: bulkId, title: 'Bulk', slug: 'bulk' })
  const bulkPost = await store.posts.create(bulkWeblog.id, bulkId, { title: 'Bulk', content: '<p>b</p>', contentKind: 'xhtml', summary: null, issued: at, categories: [] }, at)
  for (let n = 0; n < 260; n++) {
    const published = new Date(Date.parse('2026-01-01T00:00:00Z') + n * 60_000).toISOString().replace('.000Z', 'Z')
    await store.events.record({ actorId: bulkId, verb: 'NewAsset', objectType: 'Post', objectId: bulkPost.id, published, groupId: n % 2 === 0 ? group.id : null })
  }
  return {
    consumer,
    accessToken: { key: token, secret },
    applicationName,
    applicationUrlId: await store.directory.urlIdOf('Application', application.id),
    groupUrlId: group.urlId,
    melodyUrlId: await store.directory.urlIdOf('User', melodyId),
    ivyUrlId: await store.directory.urlIdOf('User', ivyId),
    bulkUrlId: await store.directory.urlIdOf('User', bulkId),
    bulkId,
    melodyPostId: melodyPost.id,
    melodyWeblogId: melodyWeblog!.id,
    events,
  }
}

describe('the JSON interface', () => {
  let service: ServiceFixture
  let origin: string
  let seeded: Seed
  beforeAll(async () => {
    service = await startTestService([melody, ivy], async (store) => {
      seeded = await seed(store)
    })
    origin = service.origin
  })
  afterAll(() => service.dispose())

  describe('API keys and auth tokens', () => {
    it('reads an API key with exactly the fields of the documentation example, its URLs the provider’s own', async () => {
      const { status, body } = await getJson(`${origin}/api-keys/${seeded.consumer.key}.json`)
      expect(status).toBe(200)
      expect(keyPaths(body).sort()).toEqual(keyPaths(documentedExample('apidocs-api-key-example.json')).sort())
      expect(body).toEqual({
        apiKey: seeded.consumer.key,
        owner: {
          id: seeded.applicationUrlId,
          objectType: 'Application',
          objectTypes: ['tag:127.0.0.1,2009:Application'],
          name: seeded.applicationName,
          ...applicationUrls(origin, seeded.applicationUrlId),
        },
      })
    })

    it('reads an auth token with exactly the fields of the documentation example: the token and the user’s group', async () => {
      const { status, body } = await getJson(`${origin}/auth-tokens/${seeded.consumer.key}:${seeded.accessToken.key}.json`)
      expect(status).toBe(200)
      expect(keyPaths(body).sort()).toEqual(keyPaths(documentedExample('apidocs-auth-token-example.json')).sort())
      expect(body).toEqual({
        authToken: seeded.accessToken.key,
        targetObject: {
          urlId: seeded.groupUrlId,
          objectType: 'Group',
          objectTypes: ['tag:127.0.0.1,2009:Group'],
          id: `tag:127.0.0.1,2009:${seeded.groupUrlId}`,
          siteUrl: 'https://club.example/',
          displayName: 'Readers <& writers>',
        },
      })
    })

    it('answers 404 with a message for a key or token that was never issued', async () => {
      await expectError(`${origin}/api-keys/0123456789abcdef.json`, 404, /no API key "0123456789abcdef"/)
      await expectError(`${origin}/auth-tokens/${seeded.consumer.key}:wrong.json`, 404, /never issued, or has been revoked/)
      await expectError(`${origin}/auth-tokens/${seeded.accessToken.key}.json`, 404, /<API key>:<auth token>\.json/)
    })
  })

  describe('addresses and formats', () => {
    it('serves JSON only: another format, or none, is a 404 that names the .json address', async () => {
      await expectError(`${origin}/api-keys/${seeded.consumer.key}.xml`, 404, new RegExp(`no xml format.*/api-keys/${seeded.consumer.key}\\.json`))
      await expectError(`${origin}/events/${seeded.events.post}`, 404, new RegExp(`no format suffix.*/events/${seeded.events.post}\\.json`))
      await expectError(`${origin}/users/${seeded.melodyUrlId}/events.atom`, 404, /no atom format.*events\.json/)
      await expectError(`${origin}/users/${seeded.melodyUrlId}/events`, 404, /no format suffix/)
      await expectError(`${origin}/users/${seeded.melodyUrlId}/favorites.json`, 404, /nothing at .*events\.json/)
      await expectError(`${origin}/users/${seeded.melodyUrlId}/events/@by-group/${seeded.groupUrlId}.html`, 404, /no html format/)
    })

    it("puts the router's own refusals on JSON addresses as JSON: an unknown path, a wrong method", async () => {
      await expectError(`${origin}/nothing/here.json`, 404, /nothing at \/nothing\/here\.json/)
      const { status, headers, body } = await getJson(`${origin}/users/${seeded.melodyUrlId}/events.json`, { method: 'DELETE' })
      expect([status, headers.get('allow')]).toEqual([405, 'GET, HEAD'])
      expect(body).toEqual({ error: { status: 405, message: expect.stringMatching(/DELETE is not allowed.*use GET, HEAD/) } })
      const atom = await fetch(`${origin}/t/atom/nowhere`)
      expect([atom.status, atom.headers.get('content-type')]).toEqual([404, 'text/xml; charset=utf-8'])
    })

    it('sends a username to the canonical url id address with a 302, keeping the query', async () => {
      for (const [asked, canonical] of [
        [`/users/melody/events.json?max-results=3&start-index`, `/users/${seeded.melodyUrlId}/events.json?max-results=3&start-index`],
        [`/users/MELODY.json`, `/users/${seeded.melodyUrlId}.json`],
        [`/users/ivy/events/@by-group/${seeded.groupUrlId}.json?start-index=2`, `/users/${seeded.ivyUrlId}/events/@by-group/${seeded.groupUrlId}.json?start-index=2`],
      ]) {
        const response = await fetch(`${origin}${asked}`, { redirect: 'manual' })
        expect(response.status).toBe(302)
        expect(response.headers.get('location')).toBe(`${origin}${canonical}`)
      }
      await expectError(`${origin}/users/nobody/events.json`, 404, /no user "nobody"/)
    })
  })

  describe('events and the objects in them', () => {
    it('reads a NewAsset event of a post with every field of the spec’s tables', async () => {
      const { status, body: event } = await getJson(`${origin}/events/${seeded.events.post}.json`)
      expect(status).toBe(200)
      expect(Object.keys(event)).toEqual(EVENT_FIELDS)
      expect(event).toMatchObject({
        id: `tag:127.0.0.1,2009:${seeded.events.post}`,
        urlId: seeded.events.post,
        published: '2026-03-01T08:00:00Z',
        verb: 'NewAsset',
        verbs: ['tag:127.0.0.1,2009:NewAsset'],
      })
      expectUser(event['actor'])
      expect(event['actor']).toMatchObject({
        urlId: seeded.melodyUrlId,
        displayName: 'Melody Nelson',
        preferredUsername: 'melody',
        profilePageUrl: `${origin}/profiles/melody`,
        aboutMe: 'Records and recipes.',
        location: 'Paris',
        interests: ['vinyl'],
        avatarLink: {
          width: 50,
          height: 50,
          url: `${origin}/avatars/${seeded.melodyUrlId}/50si.png`,
          urlTemplate: `${origin}/avatars/${seeded.melodyUrlId}/{spec}.png`,
        },
      })

      const post = event['object']
      expect(Object.keys(post)).toEqual(POST_FIELDS)
      expect(post).toMatchObject({
        objectType: 'Post',
        objectTypes: ['tag:127.0.0.1,2009:Post'],
        title: 'First light',
        content: '<p>Morning &amp; fog <img src="https://img.example/a.jpg?x=1&amp;y=2" width="40" height="30" alt=""></p>',
        excerpt: 'Morning & fog',
        description: '',
        filename: String(seeded.melodyPostId),
        shortUrl: `${origin}/p/${post['urlId']}`,
        permalinkUrl: `${origin}/blogs/valse-de-melody/${seeded.melodyPostId}`,
        textFormat: 'html',
        published: '2026-03-01T08:00:00Z',
        groups: [`tag:127.0.0.1,2009:${seeded.groupUrlId}`],
        categories: ['Photos'],
        commentCount: 2,
        favoriteCount: 1,
        reblogCount: 0,
        hasExtendedContent: false,
        embeddedAudioLinks: [],
        embeddedImageLinks: [{ url: 'https://img.example/a.jpg?x=1&y=2', width: 40, height: 30 }],
        embeddedVideoLinks: [],
      })
      expect(post['renderedContent']).toContain('<img src="https://img.example/a.jpg?x=1&amp;y=2"')
      expectUser(post['author'])
      expect(Object.keys(post['container'])).toEqual(BLOG_FIELDS)
      expect(post['container']).toMatchObject({ objectType: 'Blog', displayName: 'Valse de Melody', homeUrl: `${origin}/blogs/valse-de-melody/` })
    })

    it('shows a plain-text post as escaped text whose line breaks become paragraphs', async () => {
      const { body } = await getJson(`${origin}/events/${seeded.events.textPost}.json`)
      expect(body['object']).toMatchObject({
        content: 'Line one\nline two &lt;not markup&gt;\n\nSecond paragraph',
        textFormat: 'html_convert_linebreaks',
        renderedContent: '<p>Line one<br>\nline two &lt;not markup&gt;</p>\n<p>Second paragraph</p>',
        excerpt: 'Plain',
        description: 'Plain',
        groups: [],
      })
    })

    it('reads comment events: the comment, its commenter, its root post and what it answers', async () => {
      const { body: first } = await getJson(`${origin}/events/${seeded.events.comment}.json`)
      const comment = first['object']
      expect(Object.keys(comment)).toEqual(COMMENT_FIELDS)
      expect(comment).toMatchObject({
        objectType: 'Comment',
        content: 'Lovely &amp; misty',
        title: null,
        description: null,
        textFormat: 'html_convert_linebreaks',
        published: '2026-03-01T09:00:00Z',
        permalinkUrl: `${origin}/blogs/valse-de-melody/${seeded.melodyPostId}#comment-${comment['urlId']}`,
        commenter: { href: `${origin}/profiles/ivy`, name: 'Ivy Nelson', avatarLink: comment['author'].avatarLink },
        groups: [`tag:127.0.0.1,2009:${seeded.groupUrlId}`],
        commentCount: 1,
        favoriteCount: 0,
      })
      expect(Object.keys(comment['container'])).toEqual(BLOG_FIELDS)
      expect(Object.keys(comment['root'])).toEqual([...ASSET_REF_FIELDS.slice(0, -1), 'title', 'author'])
      expect(comment['root']).toMatchObject({ objectType: 'Post', type: 'application/json', title: 'First light' })
      expect(comment['inReplyTo']).toEqual(comment['root'])

      const { body: second } = await getJson(`${origin}/events/${seeded.events.reply}.json`)
      const reply = second['object']
      expect(reply['root'].urlId).toBe(comment['root'].urlId)
      expect(Object.keys(reply['inReplyTo'])).toEqual([...ASSET_REF_FIELDS.slice(0, -1), 'excerpt', 'author'])
      expect(reply['inReplyTo']).toMatchObject({
        urlId: comment['urlId'],
        objectType: 'Comment',
        href: `/assets/${comment['urlId']}.json`,
        excerpt: 'Lovely & misty',
        permalinkUrl: comment['permalinkUrl'],
      })
      expect(reply['inReplyTo'].author.urlId).toBe(seeded.ivyUrlId)

      // An AssetRef's href is the asset's own JSON.
      const { status, body: root } = await getJson(`${origin}${comment['root'].href}`)
      expect(status).toBe(200)
      expect(root['urlId']).toBe(comment['root'].urlId)
    })

    it('reads AddedFavorite (a post) and AddedNeighbor (a user) events', async () => {
      const { body: favourite } = await getJson(`${origin}/events/${seeded.events.favourite}.json`)
      expect(favourite['verb']).toBe('AddedFavorite')
      expect(favourite['object'].title).toBe('First light')
      const { body: neighbour } = await getJson(`${origin}/events/${seeded.events.neighbour}.json`)
      expect(neighbour['verb']).toBe('AddedNeighbor')
      expectUser(neighbour['object'])
      expect(neighbour['object'].urlId).toBe(seeded.melodyUrlId)
      await expectError(`${origin}/events/6enothing.json`, 404, /no event 6enothing/)
    })

    it('shows photos and list items as assets of their album or list (our shapes, beyond the spec)', async () => {
      const { body: photoEvent } = await getJson(`${origin}/events/${seeded.events.photo}.json`)
      const photo = photoEvent['object']
      expect(photo).toMatchObject({
        objectType: 'Photo',
        objectTypes: ['tag:127.0.0.1,2009:Photo'],
        title: 'Fog',
        content: 'Over the &lt;river&gt;',
        description: 'Over the <river>',
        textFormat: 'html_convert_linebreaks',
        published: '2026-03-01T08:00:00Z',
        permalinkUrl: expect.stringMatching(new RegExp(`^${origin}/albums/\\d+/\\d+$`)),
        container: { objectType: 'Album', displayName: 'Walks <in fog>', homeUrl: expect.stringMatching(/\/albums\/\d+\/$/) },
        groups: [],
        commentCount: 0,
        favoriteCount: 0,
        imageLink: { width: 800, height: 600, url: expect.stringMatching(/\/media\/photos\/\d+\/fog\.jpg$/) },
        thumbnailLink: { width: 320, height: 240, url: expect.stringMatching(/\/media\/thumbnails\/\d+\.jpg$/) },
      })
      expectUser(photo['author'])

      const { body: personEvent } = await getJson(`${origin}/events/${seeded.events.person}.json`)
      expect(personEvent['object']).toMatchObject({
        objectType: 'Person',
        title: 'Dan',
        content: 'Knows &lt;FOAF&gt;',
        textFormat: 'html_convert_linebreaks',
        rating: null,
        details: { name: 'Dan', homepage: 'https://danbri.org/' },
        container: { objectType: 'List', displayName: 'People' },
      })
      expect(JSON.stringify(personEvent)).not.toContain('dan@example.org')
      const { body: linkEvent } = await getJson(`${origin}/events/${seeded.events.link}.json`)
      expect(linkEvent['object']).toMatchObject({
        objectType: 'Link',
        title: 'W3C',
        content: '<p>The <em>web</em></p>',
        textFormat: 'html',
        rating: 4,
        targetUrl: 'https://www.w3.org/',
        permalinkUrl: expect.stringMatching(/\/lists\/\d+\/#item-\d+$/),
      })
    })

    it('reads users, groups and assets by url id, and short URLs lead to permalinks', async () => {
      const { body: user } = await getJson(`${origin}/users/${seeded.ivyUrlId}.json`)
      expectUser(user)
      const { body: group } = await getJson(`${origin}/groups/${seeded.groupUrlId}.json`)
      expect(keyPaths(group).sort()).toEqual(keyPaths(documentedExample('apidocs-auth-token-example.json')).flatMap((path) => (path.startsWith('targetObject.') ? [path.slice(13)] : [])).sort())
      const { body: event } = await getJson(`${origin}/events/${seeded.events.post}.json`)
      const short = await fetch(event['object'].shortUrl, { redirect: 'manual' })
      expect(short.status).toBe(302)
      expect(short.headers.get('location')).toBe(event['object'].permalinkUrl)
      await expectError(`${origin}/assets/${seeded.melodyUrlId}.json`, 404, /no post, comment, photo or list item/)
      await expectError(`${origin}/groups/6pnothing.json`, 404, /no group 6pnothing/)
    })
  })

  describe('the events stream', () => {
    const stream = (user: string, query = '') => getJson(`${origin}/users/${user}/events.json${query}`)

    it('lists a user’s events newest first in the Stream envelope, with an exact total', async () => {
      const { status, body } = await stream(seeded.ivyUrlId)
      expect(status).toBe(200)
      expect(Object.keys(body)).toEqual(['entries', 'estimatedTotalResults', 'moreResultsToken', 'totalResults'])
      expect(body).toMatchObject({ estimatedTotalResults: null, moreResultsToken: null, totalResults: 4 })
      expect(body['entries'].map((event: Json) => event['verb'])).toEqual(['AddedNeighbor', 'AddedFavorite', 'NewAsset', 'NewAsset'])
      for (const event of body['entries']) {
        expect(Object.keys(event)).toEqual(EVENT_FIELDS)
        expect(event['published']).toMatch(W3CDTF)
      }
    })

    it('gives 50 by default, at most 200, and with max-results=0 only the totals', async () => {
      const byDefault = await stream(seeded.bulkUrlId)
      expect(byDefault.body['entries']).toHaveLength(50)
      expect(byDefault.body['totalResults']).toBe(260)
      expect(byDefault.body['moreResultsToken']).toEqual(expect.any(String))
      const clamped = await stream(seeded.bulkUrlId, '?max-results=100000000000000000000')
      expect(clamped.status).toBe(200)
      expect(clamped.body['entries']).toHaveLength(200)
      const none = await stream(seeded.bulkUrlId, '?max-results=0')
      expect(none.body).toMatchObject({ entries: [], totalResults: 260, moreResultsToken: expect.any(String) })
      // A token from an empty page continues where that page stood: here, at the newest event.
      const after = await stream(seeded.bulkUrlId, `?max-results=1&start-token=${none.body['moreResultsToken']}`)
      expect(after.body['entries'][0].urlId).toBe(byDefault.body['entries'][0].urlId)
    })

    it('pages through the whole stream with moreResultsToken, each event once, until the token is null', async () => {
      const seen: string[] = []
      let token: string | null = null
      let pages = 0
      do {
        const { body }: { body: Json } = await stream(seeded.bulkUrlId, `?max-results=70${token ? `&start-token=${token}` : ''}`)
        seen.push(...body['entries'].map((event: Json) => event['urlId']))
        token = body['moreResultsToken']
        pages++
      } while (token !== null)
      expect(pages).toBe(4)
      expect(seen).toHaveLength(260)
      expect(new Set(seen).size).toBe(260)
    })

    it('refuses malformed parameters with 400 and a message', async () => {
      for (const [query, message] of [
        ['?max-results=-1', /max-results must be a whole number, not "-1"/],
        ['?max-results=ten', /max-results must be a whole number, not "ten"/],
        ['?max-results=1.5', /whole number/],
        ['?max-results=1&max-results=2', /max-results is given 2 times/],
        ['?start-token=', /start-token is empty/],
        ['?start-index=2', /pages with start-token, not start-index/],
      ] as const) {
        await expectError(`${origin}/users/${seeded.bulkUrlId}/events.json${query}`, 400, message)
      }
    })

    it('refuses a forged, altered, foreign or stale start-token with 400', async () => {
      const { body } = await stream(seeded.bulkUrlId, '?max-results=5')
      const token = body['moreResultsToken'] as string
      const [payload, mac] = token.split('.') as [string, string]
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as unknown[]
      const altered = `${Buffer.from(JSON.stringify([...decoded.slice(0, 4), 1])).toString('base64url')}.${mac}`
      const url = (start: string) => `${origin}/users/${seeded.bulkUrlId}/events.json?start-token=${encodeURIComponent(start)}`
      await expectError(url('not-a-token'), 400, /not made by this service, or was changed/)
      await expectError(url(altered), 400, /not made by this service, or was changed/)
      await expectError(`${origin}/users/${seeded.ivyUrlId}/events.json?start-token=${token}`, 400, /another user's events/)

      // The key is the store's: in the data dir's key file on SQLite, in the database on PostgreSQL.
      const tokens = PagingTokens.of(await service.withStore(async (store) => store.secrets))
      const stale = tokens.issue({ userId: seeded.bulkId, cursor: null }, Date.now() - TOKEN_LIFETIME_MS - 60_000)
      await expectError(url(stale), 400, /more than a day old/)
      expect((await stream(seeded.bulkUrlId, `?start-token=${token}`)).status).toBe(200)
    })
  })

  describe('the by-group view', () => {
    const inGroup = (query = '') => getJson(`${origin}/users/${seeded.bulkUrlId}/events/@by-group/${seeded.groupUrlId}.json${query}`)

    it('lists the user’s events in the group as a List paged by start-index', async () => {
      const { status, body } = await inGroup('?max-results=3')
      expect(status).toBe(200)
      expect(Object.keys(body)).toEqual(['totalResults', 'entries'])
      expect(body['totalResults']).toBe(130)
      expect(body['entries']).toHaveLength(3)
      const all: string[] = []
      for (let start = 1; start <= 130; start += 60) {
        const page = await inGroup(`?start-index=${start}&max-results=60`)
        all.push(...page.body['entries'].map((event: Json) => event['urlId']))
      }
      expect(new Set(all).size).toBe(130)
      expect(all.slice(0, 3)).toEqual(body['entries'].map((event: Json) => event['urlId']))
      expect((await inGroup('?start-index=131')).body).toEqual({ totalResults: 130, entries: [] })
      expect((await inGroup('?max-results=0')).body).toEqual({ totalResults: 130, entries: [] })
      expect((await inGroup())).toMatchObject({ body: { entries: expect.any(Array) } })
      expect((await inGroup()).body['entries']).toHaveLength(50)
    })

    it('refuses a bad start-index, a start-token and an unknown group', async () => {
      const url = (query: string) => `${origin}/users/${seeded.bulkUrlId}/events/@by-group/${seeded.groupUrlId}.json${query}`
      await expectError(url('?start-index=0'), 400, /start-index counts from 1/)
      await expectError(url('?start-index=first'), 400, /start-index must be a whole number/)
      await expectError(url('?start-token=abc'), 400, /pages with start-index/)
      await expectError(`${origin}/users/${seeded.bulkUrlId}/events/@by-group/6pnothing.json`, 404, /no group 6pnothing/)
    })
  })

  describe('OAuth', () => {
    it('reads signed requests (consumer only, or with an access token) and refuses a bad signature with 401', async () => {
      const url = `${origin}/users/${seeded.melodyUrlId}/events.json?max-results=2`
      expect((await signedFetch(seeded.consumer, url)).status).toBe(200)
      const withToken = await signedFetch(seeded.consumer, url, { token: seeded.accessToken })
      expect(withToken.status).toBe(200)
      expect(((await withToken.json()) as Json)['entries']).toHaveLength(2)

      const forged = await signedFetch({ ...seeded.consumer, secret: 'not the secret' }, url)
      expect(forged.status).toBe(401)
      expect(forged.headers.get('www-authenticate')).toMatch(/^OAuth realm=/)
      expect(forged.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await forged.json()).toEqual({ error: { status: 401, message: expect.any(String) } })
    })
  })

  describe('the events of deleted objects', () => {
    it('are gone from streams, counts and /events/ once the object is deleted', async () => {
      const before = await getJson(`${origin}/users/${seeded.melodyUrlId}/events.json`)
      expect(before.body['totalResults']).toBe(2)
      const credentials = { username: melody.username, password: melody.password }
      const editUri = `${origin}/t/atom/weblog/blog_id=${seeded.melodyWeblogId}/entry_id=${seeded.melodyPostId}`
      expect((await signedRequest(editUri, credentials, { method: 'DELETE' })).status).toBe(200)

      await expectError(`${origin}/events/${seeded.events.post}.json`, 404, /since been deleted/)
      await expectError(`${origin}/events/${seeded.events.favourite}.json`, 404, /no event/)
      const after = await getJson(`${origin}/users/${seeded.melodyUrlId}/events.json`)
      expect(after.body).toMatchObject({ totalResults: 0, entries: [] })
      const ivyStream = await getJson(`${origin}/users/${seeded.ivyUrlId}/events.json`)
      expect(ivyStream.body['entries'].map((event: Json) => event['verb'])).toEqual(['AddedNeighbor', 'NewAsset'])
    })
  })

  describe('avatars and public pages', () => {
    it('draws avatars as PNGs of the size asked for, and only of the sizes offered', async () => {
      for (const [spec, size] of [['50si', 50], ['115pi', 115], ['220si', 220]] as const) {
        const response = await fetch(`${origin}/avatars/${seeded.ivyUrlId}/${spec}.png`)
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('image/png')
        const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
        expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', size, size])
      }
      expect((await fetch(`${origin}/avatars/${seeded.ivyUrlId}/51si.png`)).status).toBe(404)
      expect((await fetch(`${origin}/avatars/6pnobody/50si.png`)).status).toBe(404)
    })

    it('shows a person’s profile page and a group’s page, everything escaped', async () => {
      const profile = await fetch(`${origin}/profiles/melody`)
      expect(profile.status).toBe(200)
      const html = await profile.text()
      expect(html).toContain('Records and recipes.')
      expect(html).toContain(`/avatars/${seeded.melodyUrlId}/115si.png`)
      expect(html).toContain('Readers &lt;&amp; writers&gt;')
      expect(profile.headers.get('content-security-policy')).toContain("default-src 'none'")
      const group = await fetch(`${origin}/groups/${seeded.groupUrlId}/`)
      expect(await group.text()).toMatch(/2 members[\s\S]*Melody Nelson[\s\S]*Ivy Nelson/)
      expect((await fetch(`${origin}/profiles/nobody`)).status).toBe(404)
    })
  })
})

describe('the rate limit', () => {
  let dataDir: string
  let consumer: KeyAndSecret
  let userUrlId: string
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-rate-limit-'))
    const store = await openTestStore(dataDir)
    try {
      const user = await store.users.add({ username: 'ana', displayName: 'Ana', loginPassword: 'login-pw', apiPassword: 'api-pw' })
      userUrlId = await store.directory.urlIdOf('User', user.id)
      const apiKey = await store.applications.issueApiKey((await store.applications.add('Reader')).id)
      consumer = { key: apiKey, secret: await store.oauth.issueConsumerSecret(apiKey) }
    } finally {
      await store.close()
    }
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('is off by default', async () => {
    const running = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), lookup: { offline: true } })
    try {
      const statuses = await Promise.all(Array.from({ length: 30 }, () => fetch(`${running.origin}/users/${userUrlId}.json`).then((r) => r.status)))
      expect(new Set(statuses)).toEqual(new Set([200]))
    } finally {
      await running.close()
    }
  })

  it('answers 503 with Retry-After past each client’s allowance; a signed client has its own', async () => {
    const running = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), lookup: { offline: true }, rateLimit: 3 })
    try {
      const url = `${running.origin}/users/${userUrlId}.json`
      for (let n = 0; n < 3; n++) expect((await fetch(url)).status).toBe(200)
      const refused = await getJson(url)
      expect(refused.status).toBe(503)
      // Three a minute: the next request is allowed twenty seconds after the last.
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(19)
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(20)
      expect(refused.body['error'].message).toMatch(/Too many requests.*3 a minute.*Try again in \d+ seconds/)
      for (let n = 0; n < 3; n++) expect((await signedFetch(consumer, url)).status).toBe(200)
      expect((await signedFetch(consumer, url)).status).toBe(503)
    } finally {
      await running.close()
    }
  })
})
