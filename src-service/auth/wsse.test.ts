import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWsseHeader, parseXml, WSSE_CHALLENGE } from '../../src-protocol'
import { ivy, melody, signedGet, startTestService, type ServiceFixture } from '../testing/service-fixture'

const MINUTE = 60_000

describe('WSSE on the Atom interface', () => {
  let service: ServiceFixture
  let root: string
  beforeAll(async () => {
    service = await startTestService([melody, ivy])
    root = `${service.origin}/t/atom/weblog`
  })
  afterAll(() => service.dispose())

  /** Every refusal carries the challenge and an <error> a person can read. */
  async function expectRefusal(response: Response, status: number): Promise<string> {
    expect(response.status).toBe(status)
    expect(response.headers.get('www-authenticate')).toBe(WSSE_CHALLENGE)
    expect(response.headers.get('content-type')).toMatch(/^text\/xml/)
    const error = parseXml(await response.text())
    expect(error.name).toBe('error')
    expect(error.text.length).toBeGreaterThan(0)
    return error.text
  }

  it('accepts a header made with the API password', async () => {
    expect((await signedGet(root, melody)).status).toBe(200)
  })

  it('matches the username exactly, so a replay cannot slip through as "Melody"', async () => {
    const header = createWsseHeader(melody)
    expect((await fetch(root, { headers: { 'X-WSSE': header } })).status).toBe(200)
    await expectRefusal(await fetch(root, { headers: { 'X-WSSE': header.replace('"melody"', '"Melody"') } }), 401)
  })

  it('refuses a request without X-WSSE', async () => {
    await expectRefusal(await fetch(root), 401)
  })

  it('refuses a wrong password', async () => {
    await expectRefusal(await signedGet(root, { ...melody, password: 'not-it' }), 401)
  })

  it('refuses the login password: WSSE takes the API password only', async () => {
    await expectRefusal(await signedGet(root, { ...melody, password: melody.loginPassword }), 401)
  })

  it('refuses an unknown user', async () => {
    await expectRefusal(await signedGet(root, { username: 'nobody', password: melody.password }), 401)
  })

  it('refuses a replayed nonce', async () => {
    const header = createWsseHeader(melody)
    expect((await fetch(root, { headers: { 'X-WSSE': header } })).status).toBe(200)
    await expectRefusal(await fetch(root, { headers: { 'X-WSSE': header } }), 401)
  })

  it('refuses a header created 10 minutes ago', async () => {
    const message = await expectRefusal(await signedGet(root, melody, { now: new Date(Date.now() - 10 * MINUTE) }), 401)
    expect(message).toMatch(/clock/i)
  })

  it('refuses a header created 10 minutes in the future', async () => {
    const message = await expectRefusal(await signedGet(root, melody, { now: new Date(Date.now() + 10 * MINUTE) }), 401)
    expect(message).toMatch(/clock/i)
  })

  it('answers 400 naming a missing field', async () => {
    const header = createWsseHeader(melody).replace(/,?\s*Nonce="[^"]*"/, '')
    const message = await expectRefusal(await fetch(root, { headers: { 'X-WSSE': header } }), 400)
    expect(message).toMatch(/Nonce/)
  })
})
