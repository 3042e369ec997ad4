// Interop with servers and clients that are not ours (test-fixtures/peers): every response Movable Type 7 gave,
// replayed from loopback, is read or refused with the right kind; and what we send matches what XML::Atom::Client
// sends for the same operation.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { readEntry, writeEntry, writeFeed, writeLinkFeed } from '../../../src-protocol'
import { fixtureNames, readFixture } from '../../../src-protocol/test-fixtures'
import { readCapturedResponse, startReplayPeer, type ReplayPeer } from '../testing/replay-peer'
import { AtomClient } from './client'

const recordedOrigin = 'http://127.0.0.1:5080'
const melody = { username: 'Melody', password: 'secret' }
const client = new AtomClient({ fetch, credentials: async () => melody })
const post = { title: 'Hello', content: '<p>Hi.</p>', categories: [] }

/** The request a capture records: its method and path. */
function capturedRequest(relativePath: string): { method: string; path: string } {
  const line = readFixture(`peers/${relativePath}`).split('\n')[1]!
  const [method, url] = line.split(' ') as [string, string]
  return { method, path: new URL(url).pathname }
}

/** What our client does for the request a capture records, by its method and the shape of its address. */
function operationFor(method: string, url: string): Promise<unknown> {
  const path = new URL(url).pathname
  switch (method) {
    case 'POST':
      return client.createPost(url, post, { idempotencyKey: randomUUID() })
    case 'PUT':
      return client.updatePost(url, post)
    case 'DELETE':
      return client.deletePost(url)
  }
  if (/\/(weblog|1\.0)$/.test(path)) return client.listCollections(url)
  if (path.endsWith('/svc=categories')) return client.categories(url)
  if (/\/entry_id=\d+$/.test(path)) return client.getPost(url)
  return client.feedPage(url)
}

type Expected = { resolves: unknown } | { kind: string; message?: RegExp }

const mt = '/cgi-bin/mt-atom.cgi'
const rootListing = { resolves: [expect.objectContaining({ title: 'Peer Site #1' }), expect.objectContaining({ title: 'Peer Blog #2' })] }
const created = (title: string, fields: object = {}) => ({ resolves: expect.objectContaining({ title, ...fields }) })
const wsseRefusal = (words: string) => ({ kind: 'auth', message: new RegExp(`refused the sign-in: "${words}"`) })

const expectations: Record<string, Expected> = {
  'ok/01-root-weblogs.txt': rootListing,
  'ok/02-feed-blog2.txt': {
    resolves: {
      posts: [
        expect.objectContaining({
          title: 'Hello again (edited)',
          content: '<p>Edited body.</p>',
          issued: '2026-11-22T10:06:32Z',
          modified: '2026-11-22T10:06:33Z',
          id: 'tag:127.0.0.1,2026:/site/blog//2.1',
          permalink: expect.stringMatching(/\/site\/blog\/2026\/11\/hello-from-xmlatomclient\.html$/),
          editUri: expect.stringMatching(`${mt}/weblog/blog_id=2/entry_id=1$`),
        }),
      ],
      next: expect.stringMatching(`${mt}/weblog/blog_id=2/offset=1$`),
      prev: null,
    },
  },
  'ok/03-post-with-category-issued-summary.txt': created('Entry with category', {
    categories: ['Peer Testing'],
    issued: '2024-05-06T07:08:09Z',
    content: '<p>escaped &amp; html</p>',
    editUri: expect.stringMatching(`${mt}/weblog/blog_id=2/entry_id=2$`),
  }),
  'ok/04-get-entry.txt': created('Entry with category', { categories: ['Peer Testing'], content: '<p>escaped &amp; html</p>' }),
  // MT's answer to a PUT has no service.edit link: the post stays where it was sent.
  'ok/05-put-entry.txt': created('Plain ünïcödé title', { content: 'plain text body', editUri: expect.stringMatching(`${mt}/weblog/blog_id=2/entry_id=2$`) }),
  'ok/06-delete-entry.txt': { resolves: 'deleted' },
  'ok/07-categories.txt': { resolves: ['News', 'Peer Testing'] },
  'ok/08-post-future-issued.txt': created('Future entry', { issued: '2030-01-01T00:00:00Z', content: 'later' }),
  'ok/09-post-text-plain-unicode.txt': created('Plain ünïcödé title'),
  'ok/10-post-non-wellformed-html.txt': created('Not well-formed body', { content: 'line one<br>a < b &amp; c' }),
  'ok/11-post-atom10-ns-body.txt': created('Atom 1.0 body to legacy', { content: '<p>hi</p>' }),
  'ok/12-feed-limit1-offset1.txt': {
    resolves: {
      posts: [expect.objectContaining({ title: 'Atom 1.0 body to legacy' })],
      next: expect.stringMatching(`${mt}/weblog/blog_id=2/limit=1/offset=2$`),
      prev: expect.stringMatching(`${mt}/weblog/blog_id=2/limit=1$`),
    },
  },
  'ok/13-root-as-non-superuser.txt': { resolves: [expect.objectContaining({ title: 'Peer Blog #2', homeUrl: expect.stringMatching(/\/site\/blog\/$/) })] },
  'ok/14-digest-without-padding.txt': rootListing,
  'ok/15-created-with-offset.txt': rootListing,
  'ok/16-created-without-zone.txt': rootListing,
  'ok/17-created-fractional.txt': rootListing,
  'ok/18-created-110s-old.txt': rootListing,
  'ok/19-nonce-not-base64.txt': rootListing,
  'ok/20-header-unquoted-nospaces.txt': rootListing,
  'ok/21-header-with-WSSE-prefix.txt': rootListing,
  // AtomPub 1.0's service document is another protocol: said plainly, not misread.
  'ok/22-atompub-1.0-service-doc.txt': { kind: 'refused', message: /answered \/cgi-bin\/mt-atom\.cgi\/1\.0, but not with an Atom listing/ },
  'ok/23-atompub-1.0-feed.txt': {
    resolves: {
      posts: [
        expect.objectContaining({
          title: 'Atom 1.0 body to legacy',
          content: '<p>hi</p>',
          issued: '2026-11-22T10:06:48Z',
          editUri: expect.stringMatching(`${mt}/1.0/blog_id=2/entry_id=5$`),
        }),
      ],
      next: expect.stringMatching(`${mt}/1.0/blog_id=2/limit=1/offset=1$`),
      prev: null,
    },
  },
  'ok/24-post-to-website-blog1-offset0.txt': created('Plain ünïcödé title', { issued: '2026-11-22T10:08:00Z' }),
  'ok/25-feed-website-blog1.txt': { resolves: expect.objectContaining({ posts: [expect.objectContaining({ title: 'Plain ünïcödé title' })] }) },
  'ok/26-entry-of-blog2-via-blog1-url.txt': created('Hello again (edited)'),

  'err/01-no-x-wsse.txt': { kind: 'auth', message: /refused the username or API password|refused the sign-in: "Unauthorized"/ },
  'err/02-basic-auth-only.txt': wsseRefusal('Unauthorized'),
  'err/03-bad-password-digest.txt': wsseRefusal('X-WSSE PasswordDigest is incorrect'),
  'err/04-login-password-not-api-password.txt': wsseRefusal('X-WSSE PasswordDigest is incorrect'),
  'err/05-unknown-user.txt': wsseRefusal('Invalid login'),
  'err/06-replayed-nonce.txt': { resolves: expect.objectContaining({ posts: expect.arrayContaining([expect.objectContaining({ title: 'Future entry' })]) }) },
  'err/07-created-1h-old.txt': wsseRefusal('X-WSSE UsernameToken timed out'),
  'err/08-created-1h-future.txt': wsseRefusal('X-WSSE UsernameToken timed out'),
  'err/09-created-130s-old.txt': wsseRefusal('X-WSSE UsernameToken timed out'),
  'err/10-created-basic-iso-format.txt': wsseRefusal('X-WSSE UsernameToken timed out'),
  'err/11-stale-and-bad-digest.txt': wsseRefusal('X-WSSE UsernameToken timed out'),
  'err/12a-nonce-burned-by-failed-attempt.txt': wsseRefusal('X-WSSE PasswordDigest is incorrect'),
  'err/12b-same-nonce-correct-password.txt': wsseRefusal('Nonce already used'),
  // A header the server cannot read is Blogdesk's to fix, not the person's password.
  'err/13-missing-nonce-field.txt': { kind: 'refused', message: /\(HTTP 400\) \(the server said: "X-WSSE requires Nonce"\)/ },
  'err/14-unsupported-profile.txt': wsseRefusal('Unauthorized'),
  'err/15-digest-over-base64-nonce-text.txt': wsseRefusal('X-WSSE PasswordDigest is incorrect'),
  'err/16-lowercase-field-names.txt': { kind: 'refused', message: /"X-WSSE requires Username"/ },
  'err/20-invalid-blog-id.txt': { kind: 'not-found', message: /has nothing at \/cgi-bin\/mt-atom\.cgi\/weblog\/blog_id=99 \(the server said: "Invalid blog ID '99'"\)/ },
  'err/21-invalid-entry-id.txt': { kind: 'not-found', message: /"Invalid entry_id"/ },
  'err/22-delete-invalid-entry.txt': { resolves: 'already-gone' },
  'err/23-put-invalid-entry.txt': { kind: 'not-found' },
  'err/24-post-to-root.txt': { kind: 'server-busy', message: /\(HTTP 500\) \(the server said: "Invalid blog ID ''"\)/ },
  'err/25-post-unknown-category.txt': { kind: 'refused', message: /\(the server said: "Invalid category 'No Such Category'"\)/ },
  // A 200 with MT's plain-text complaint instead of an entry: the post was not made, and MT says why.
  'err/26-post-malformed-xml.txt': { kind: 'refused', message: /not with the Atom entry of the new post: "Got an error: Invalid header value/ },
  'err/27-post-without-content.txt': { kind: 'server-busy', message: /Can't call method "type" on an undefined value/ },
  'err/28-put-without-content.txt': { kind: 'server-busy' },
  'err/29-no-permission-on-blog.txt': { kind: 'refused', message: /does not allow this account to do that \(the server said: "Permission denied\."\)/ },
  'err/30-delete-others-entry.txt': { kind: 'refused', message: /"Access denied"/ },
}

describe('every Movable Type response, replayed', () => {
  let peer: ReplayPeer | undefined
  afterEach(async () => {
    await peer?.close()
    peer = undefined
  })

  const captures = ['ok', 'err'].flatMap((folder) =>
    fixtureNames(`peers/mt/${folder}`)
      .filter((file) => file.endsWith('.txt'))
      .map((file) => `${folder}/${file}`),
  )

  it('has an expectation for each capture', () => {
    expect(captures.toSorted()).toEqual(Object.keys(expectations).toSorted())
  })

  it.each(captures)('%s', async (capture) => {
    const { method, path } = capturedRequest(`mt/${capture}`)
    peer = await startReplayPeer({ [path]: readCapturedResponse(`mt/${capture}`) }, { recordedOrigin })
    const expected = expectations[capture]!
    const outcome = operationFor(method, `${peer.origin}${path}`)
    if ('resolves' in expected) await expect(outcome).resolves.toEqual(expected.resolves)
    else await expect(outcome).rejects.toMatchObject({ name: 'RequestFailure', kind: expected.kind, ...(expected.message ? { message: expect.stringMatching(expected.message) } : {}) })
  })

  it("reads MT's refusal of a replayed nonce (its second answer) as an auth failure", async () => {
    const { path } = capturedRequest('mt/err/06-replayed-nonce.txt')
    peer = await startReplayPeer({ [path]: readCapturedResponse('mt/err/06-replayed-nonce.txt', 2) }, { recordedOrigin })
    await expect(client.feedPage(`${peer.origin}${path}`)).rejects.toMatchObject(wsseRefusal('Nonce already used'))
  })

  it("tells clock skew from a wrong password by MT's Date header", async () => {
    peer = await startReplayPeer({ [`${mt}/weblog`]: readCapturedResponse('mt/err/08-created-1h-future.txt') }, { recordedOrigin, serverClockOffsetMs: 60 * 60 * 1000 })
    await expect(client.listCollections(`${peer.origin}${mt}/weblog`)).rejects.toMatchObject({
      kind: 'clock-skew',
      message: expect.stringMatching(/^Your computer's clock is about 60 minutes behind 127\.0\.0\.1:\d+'s/),
    })
  })

  it('pages a feed without paging links by offset segments, until a page is shorter than the first', async () => {
    const feed = `${mt}/weblog/blog_id=2`
    const firstPage = readCapturedResponse('mt/err/06-replayed-nonce.txt')
    const shortPage = readCapturedResponse('mt/ok/12-feed-limit1-offset1.txt')
    const firstCount = firstPage.body.match(/<entry>/g)!.length
    peer = await startReplayPeer({ [feed]: firstPage, [`${feed}/offset=${firstCount}`]: shortPage }, { recordedOrigin })

    const first = await client.feedPage(`${peer.origin}${feed}`)
    expect(first.posts).toHaveLength(firstCount)
    expect(first).toMatchObject({ next: `${peer.origin}${feed}/offset=${firstCount}`, prev: null })
    const second = await client.feedPage(first.next!)
    expect(second).toEqual({ posts: [expect.objectContaining({ title: 'Atom 1.0 body to legacy' })], next: null, prev: `${peer.origin}${feed}` })
    expect(peer.requests.map((request) => request.url)).toEqual([feed, `${feed}/offset=${firstCount}`])
  })
})

// ── What we send, beside what XML::Atom::Client sends ────────────────────────────────────────────────────────────

interface WireRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
}

function readWireCapture(file: string): WireRequest {
  const text = readFixture(`peers/xml-atom-client/${file}`)
  const [head, ...body] = text.split(/\r?\n\r?\n/)
  const [requestLine, ...headerLines] = head!.split(/\r?\n/)
  const [method, path] = requestLine!.split(' ') as [string, string]
  const headers: IncomingHttpHeaders = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { method, path, headers, body: body.join('\n\n') }
}

/** A request as far as a server tells requests apart: values that differ per request are replaced by their form. */
function shapeOf(request: WireRequest) {
  const form = (value: string) =>
    /^[A-Za-z0-9+/]{27}=$/.test(value) ? '<20 bytes, base64>' : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(value) ? '<UTC time>' : value
  const entry = request.body.trim() === '' ? null : readEntry(request.body)
  return {
    method: request.method,
    path: request.path,
    wsse: String(request.headers['x-wsse']).replace(/"([^"]*)"/g, (_quoted, value: string) => `"${form(value)}"`),
    authorization: request.headers['authorization'],
    contentType: request.headers['content-type'] ?? null,
    accepts: String(request.headers['accept']).split(/,\s*/).filter((type) => type !== '*/*').toSorted(),
    entry: entry && { title: entry.title, contentMode: entry.content?.mode, content: entry.content?.value.replace(/\s+/g, ' ') },
  }
}

describe('requests, beside those of XML::Atom::Client', () => {
  it('sends each operation as XML::Atom does: same WSSE form, same headers, same kind of entry', async () => {
    const recorded: WireRequest[] = []
    const server = createServer(async (request, response) => {
      let body = ''
      for await (const chunk of request as AsyncIterable<Buffer>) body += chunk.toString('utf8')
      recorded.push({ method: request.method!, path: request.url!, headers: request.headers, body })
      response.setHeader('Content-Type', 'application/x.atom+xml')
      const origin = `http://${request.headers.host}`
      const entry = writeEntry({ title: 'Hello', links: [{ rel: 'service.edit', href: `${origin}/atom/weblog/blog_id=1/entry_id=1`, type: null, title: null }] })
      if (request.url === '/atom/weblog') {
        response.end(writeLinkFeed([{ rel: 'service.post', href: `${origin}/atom/weblog/blog_id=1`, type: 'application/x.atom+xml', title: 'Blog' }]))
      } else if (request.method === 'POST') {
        response.writeHead(201, { Location: `${origin}/atom/weblog/blog_id=1/entry_id=1` }).end(entry)
      } else if (request.url === '/atom/weblog/blog_id=1') {
        response.end(writeFeed({ title: 'Blog', links: [], entries: [readEntry(entry)].map((read) => ({ title: read.title!, links: read.links })) }))
      } else {
        response.end(request.method === 'DELETE' ? '' : entry)
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const theirs = fixtureNames('peers/xml-atom-client').filter((file) => /^\d\d-.*-wire\.txt$/.test(file)).map(readWireCapture)
      await client.listCollections(`${origin}/atom/weblog`)
      await client.feedPage(`${origin}/atom/weblog/blog_id=1`)
      const firstPost = readEntry(theirs[2]!.body)
      const edited = readEntry(theirs[4]!.body)
      const { editUri } = await client.createPost(
        `${origin}/atom/weblog/blog_id=1`,
        { title: firstPost.title!, content: firstPost.content!.value, categories: [] },
        { idempotencyKey: randomUUID() },
      )
      await client.getPost(editUri)
      await client.updatePost(editUri, { title: edited.title!, content: edited.content!.value, categories: [] })
      await client.getPost(editUri)
      await client.deletePost(editUri)

      expect(recorded.map(shapeOf)).toEqual(theirs.map(shapeOf))
      expect(recorded[2]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
