// Two real service processes on one PostgreSQL database with one shared --media-dir, each with a data dir of its own
// (no copy of anything between them): what one instance accepted, counted, signed or stored, the other knows. And
// X-Forwarded-For names the client for the rate limit only when it comes from a proxy named by --trust-proxy.
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWsseHeader, NS, readEntry, readLinkFeed } from '../../src-protocol'
import { FREE_FAILURES } from '../auth/sign-in-throttle'
import { DEMO_PHOTOS_FOLDER } from '../demo/photos'
import { SECRET_KEY_FILE } from '../store'
import { formFields, signedFetch, type KeyAndSecret } from '../testing/oauth-client'
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../testing/postgres'
import { startServiceProcess, type ServiceProcess } from '../testing/service-process'

const entry = (title: string) => `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://purl.org/atom/ns#"><title>${title}</title><content mode="escaped">Body</content></entry>`

describe('two instances on one PostgreSQL database and one media dir', () => {
  let dir: string
  let database: TestDatabase
  let a: ServiceProcess
  let b: ServiceProcess
  let credentials: { username: string; password: string }
  let feed: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blogdesk-stateless-'))
    database = await createTestDatabase({ migrated: true })
    const options = { database: database.url, mediaDir: join(dir, 'shared-media') }
    a = await startServiceProcess(join(dir, 'a'), 0, options)
    b = await startServiceProcess(join(dir, 'b'), 0, options)
    credentials = { username: a.sandbox.username, password: a.sandbox.apiPassword }
    feed = readLinkFeed(await (await atom(a, '/t/atom/weblog')).text(), a.url).find((link) => link.rel === 'service.post')!.href
  }, 120_000)
  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()])
    await database?.drop()
    await rm(dir, { recursive: true, force: true })
  })

  /** `path` on `instance`, signed with a fresh WSSE header unless `header` is given. */
  const atom = (instance: ServiceProcess, path: string, init: RequestInit = {}, header = createWsseHeader(credentials)) =>
    fetch(`${instance.url}${path}`, { ...init, headers: { 'Content-Type': 'application/x.atom+xml', 'X-WSSE': header } })
  const on = (instance: ServiceProcess, url: string) => `${instance.url}${new URL(url).pathname}${new URL(url).search}`

  it('refuses on one instance a WSSE header the other accepted, either way round', async () => {
    const path = new URL(feed).pathname
    for (const [first, second] of [[a, b], [b, a]] as const) {
      const header = createWsseHeader(credentials)
      const accepted = await atom(first, path, { method: 'POST', body: entry('Once only') }, header)
      expect(accepted.status).toBe(201)
      const replayed = await atom(second, path, { method: 'POST', body: entry('Once only') }, header)
      expect(replayed.status).toBe(401)
      expect(await replayed.text()).toMatch(/nonce was already used/)
    }
  })

  it('opens on B the API password the demo seeding sealed on A: the key is in the database, in neither data dir', async () => {
    expect((await atom(b, '/t/atom/weblog')).status).toBe(200)
    expect(existsSync(join(a.dataDir, SECRET_KEY_FILE))).toBe(false)
    expect(existsSync(join(b.dataDir, SECRET_KEY_FILE))).toBe(false)
  })

  it('pages on B with the start-token A signed', async () => {
    const stream = `/users/${credentials.username}/events.json?max-results=3`
    const first = (await (await fetch(`${a.url}${stream}`)).json()) as { entries: { urlId: string }[]; moreResultsToken: string }
    expect(first.moreResultsToken).toEqual(expect.any(String))
    const next = await fetch(`${b.url}${stream}&start-token=${encodeURIComponent(first.moreResultsToken)}`)
    expect(next.status).toBe(200)
    const second = (await next.json()) as { entries: { urlId: string }[] }
    expect(second.entries).toHaveLength(3)
    const firstIds = new Set(first.entries.map((event) => event.urlId))
    expect(second.entries.filter((event) => firstIds.has(event.urlId))).toEqual([])
    const forged = await fetch(`${b.url}${stream}&start-token=${encodeURIComponent(`${first.moreResultsToken.slice(0, -2)}xx`)}`)
    expect(forged.status).toBe(400)
  })

  it('serves from B, byte for byte, a photo posted through A', async () => {
    const gallery = readLinkFeed(await (await atom(a, '/t/atom/gallery')).text(), a.url)
    const album = gallery.find((link) => link.rel === 'service.post' && /set_id=/.test(link.href))!.href
    const photo = readFileSync(join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg'))
    const posted = await atom(a, new URL(album).pathname, {
      method: 'POST',
      body: `<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://purl.org/atom/ns#"><title>Tram 28</title>
        <content mode="base64" type="image/jpeg">${photo.toString('base64')}</content></entry>`,
    })
    expect(posted.status).toBe(201)
    const photoId = posted.headers.get('location')!.split('/').at(-1)
    const thumbnail = readEntry(await posted.text()).extensions.find((element) => element.ns === NS.photo && element.name === 'thumbnail')!.text
    const stored = await fetch(`${b.url}/media/photos/${photoId}/tram-28.jpg`)
    expect(stored.status).toBe(200)
    expect(Buffer.from(await stored.arrayBuffer()).equals(photo)).toBe(true)
    const small = await fetch(on(b, thumbnail))
    expect({ status: small.status, type: small.headers.get('content-type') }).toEqual({ status: 200, type: 'image/jpeg' })
  })

  it('counts failed sign-ins made on A when B is asked: the pause holds on both', async () => {
    const consumer: KeyAndSecret = { key: a.sandbox.apiKey, secret: a.sandbox.apiSecret }
    const signIn = async (instance: ServiceProcess, password: string) => {
      const issued = await signedFetch(consumer, `${instance.url}/oauth/request_token`, { method: 'POST', form: { oauth_callback: 'oob' } })
      const token = (await formFields(issued))['oauth_token']!
      const form = await (await fetch(`${instance.url}/oauth/authorize?oauth_token=${token}`)).text()
      const formToken = /name="form_token" value="([^"]+)"/.exec(form)?.[1] ?? ''
      const answer = await fetch(`${instance.url}/oauth/authorize`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ oauth_token: token, form_token: formToken, username: credentials.username, password, decision: 'approve' }),
        redirect: 'manual',
      })
      return { status: answer.status, page: await answer.text() }
    }
    for (let guess = 0; guess < FREE_FAILURES.account; guess++) {
      expect((await signIn(guess % 2 === 0 ? a : b, `guess ${guess}`)).status).toBe(401)
    }
    for (const instance of [b, a]) {
      const right = await signIn(instance, a.sandbox.loginPassword)
      expect(right.status).toBe(429)
      expect(right.page).toMatch(new RegExp(`Signing in as ${credentials.username} is paused`))
    }
  }, 60_000)
})

describe('X-Forwarded-For and --trust-proxy', () => {
  let dir: string
  const instances: ServiceProcess[] = []
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blogdesk-trust-proxy-'))
  })
  afterAll(async () => {
    await Promise.allSettled(instances.map((instance) => instance.stop()))
    for (const name of ['trusting', 'distrusting']) await dropTestDatabase(join(dir, name))
    await rm(dir, { recursive: true, force: true })
  })

  /** Statuses of unsigned JSON reads, each claiming to come from the address given. */
  const readsFrom = async (instance: ServiceProcess, addresses: readonly string[]) => {
    const statuses: number[] = []
    for (const address of addresses) {
      const response = await fetch(`${instance.url}/users/${instance.sandbox.username}.json`, { headers: { 'X-Forwarded-For': address } })
      statuses.push(response.status)
      await response.arrayBuffer()
    }
    return statuses
  }

  /** Reads claiming `address` until the limit answers 503 (within a few), so what follows starts over its allowance. */
  const exhaust = async (instance: ServiceProcess, address: string) => {
    for (let read = 0; read < 5; read++) if ((await readsFrom(instance, [address]))[0] === 503) return
    throw new Error(`the rate limit never refused ${address}`)
  }

  it('counts the rate limit by the forwarded address when the request comes from a trusted proxy', async () => {
    const instance = await startServiceProcess(join(dir, 'trusting'), 0, { rateLimit: 2, trustProxy: ['127.0.0.1'] })
    instances.push(instance)
    await exhaust(instance, '203.0.113.1')
    // Another client behind the proxy has its own allowance. A client's own X-Forwarded-For entries (the first hops)
    // count for nothing: the hop the trusted proxy added, the last, is the client.
    expect(await readsFrom(instance, ['203.0.113.2', '203.0.113.1, 203.0.113.3', '203.0.113.3, 203.0.113.1'])).toEqual([200, 200, 503])
  }, 60_000)

  it('ignores X-Forwarded-For by default: every request counts against the address it came from', async () => {
    const instance = await startServiceProcess(join(dir, 'distrusting'), 0, { rateLimit: 2 })
    instances.push(instance)
    await exhaust(instance, '203.0.113.1')
    expect(await readsFrom(instance, ['203.0.113.2'])).toEqual([503])
  }, 60_000)
})
