import { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { WSSE_CHALLENGE, WsseVerifier, createWsseHeader, type WsseAccount, type WsseOutcome } from './index'
import { generatedShape, readCapture, readFixture } from './test-fixtures'

// Passwords behind the captured vectors: Movable Type's API password for Melody appears in the Basic-auth capture
// (peers/mt/err/02); "Nelson" is the TypePad documentation's, and the one the XML::Atom captures were made with.
const MT_PASSWORD = 'atom-api-pass'
const TYPEPAD_PASSWORD = 'Nelson'
const MINUTE = 60_000

function xWsseLines(text: string): string[] {
  return [...text.matchAll(/^X-WSSE: (.*)$/gm)].map((match) => match[1] ?? '')
}

function field(header: string, name: string): string {
  const value = new RegExp(`${name}="?([^",]*)`).exec(header)?.[1]
  if (value === undefined) throw new Error(`no ${name} in ${header}`)
  return value
}

/** The digest computed here, independently of wsse.ts, from raw nonce bytes. */
function independentDigest(nonce: Uint8Array, created: string, password: string): string {
  return createHash('sha1').update(Buffer.concat([nonce, Buffer.from(created + password, 'utf8')])).digest('base64')
}

function verifier(
  passwords: Record<string, string>,
  now: Date | (() => number),
  options: { windowMs?: number; maxNoncesPerUser?: number } = {},
): WsseVerifier<string> {
  return new WsseVerifier({
    accountOf: (username) => (Object.hasOwn(passwords, username) ? { apiPassword: passwords[username]!, account: username } : null),
    now: typeof now === 'function' ? now : () => now.getTime(),
    ...options,
  })
}

function refusal(outcome: WsseOutcome<string>): { status: number; message: string } {
  if (outcome.ok) throw new Error(`accepted ${outcome.username}`)
  return { status: outcome.status, message: outcome.message }
}

const [XMLATOM_RAW_VECTOR = '', TYPEPAD_STYLE_VECTOR = ''] = xWsseLines(generatedShape(7))
const VECTOR_CREATED = new Date('2004-01-20T01:09:39Z')

describe('createWsseHeader', () => {
  test("reproduces XML::Atom's header byte for byte from the same nonce and time", () => {
    const header = createWsseHeader(
      { username: 'Melody', password: TYPEPAD_PASSWORD },
      { now: VECTOR_CREATED, nonce: Buffer.from(field(XMLATOM_RAW_VECTOR, 'Nonce'), 'base64') },
    )
    expect(header).toBe(XMLATOM_RAW_VECTOR)
  })

  test('uses a fresh 20-byte nonce each time and the current UTC second, with a digest over the raw nonce', () => {
    const now = new Date(Date.UTC(2026, 10, 22, 10, 6, 39, 750))
    const first = createWsseHeader({ username: 'Melody', password: 'pässword' }, { now })
    const second = createWsseHeader({ username: 'Melody', password: 'pässword' }, { now })
    expect(first).toMatch(/^UsernameToken Username="Melody", PasswordDigest="[^"]+", Nonce="[^"]+", Created="2026-11-22T10:06:39Z"$/)
    const nonce = Buffer.from(field(first, 'Nonce'), 'base64')
    expect(nonce).toHaveLength(20)
    expect(field(first, 'PasswordDigest')).toBe(independentDigest(nonce, '2026-11-22T10:06:39Z', 'pässword'))
    expect(field(second, 'Nonce')).not.toBe(field(first, 'Nonce'))
  })

  test('refuses a username that cannot travel in the header, saying why', () => {
    expect(() => createWsseHeader({ username: 'say "hi"', password: 'x' })).toThrow(/double quote/)
    expect(() => createWsseHeader({ username: 'Zoë', password: 'x' })).toThrow(/printable ASCII/)
    expect(() => createWsseHeader({ username: 'a\r\nX-Evil: 1', password: 'x' })).toThrow(/printable ASCII/)
    expect(() => createWsseHeader({ username: '', password: 'x' })).toThrow(/username is needed/)
  })

  test('the challenge names the UsernameToken profile', () => {
    expect(WSSE_CHALLENGE).toBe('WSSE profile="UsernameToken"')
  })
})

describe('WsseVerifier accepts what real clients send', () => {
  test('a header it made itself', async () => {
    const now = new Date()
    const header = createWsseHeader({ username: 'Melody', password: 'secret' }, { now })
    expect(await verifier({ Melody: 'secret' }, now).verify(header)).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
  })

  test('XML::Atom: digest over the raw nonce bytes (generated vector)', async () => {
    const outcome = await verifier({ Melody: TYPEPAD_PASSWORD }, VECTOR_CREATED).verify(XMLATOM_RAW_VECTOR)
    expect(outcome).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
  })

  test('TypePad documentation / old Lifeblog: digest over the nonce text as sent (generated vector)', async () => {
    const outcome = await verifier({ Melody: TYPEPAD_PASSWORD }, VECTOR_CREATED).verify(TYPEPAD_STYLE_VECTOR)
    expect(outcome).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
  })

  test("the TypePad documentation's own example, a hex nonce hashed as sent", async () => {
    const [header = ''] = xWsseLines(readFixture('atom03/typepad-doc-wsse-example.txt'))
    expect(field(header, 'Nonce')).toBe('7c19aeed85b93d35ba42e357f10ca19bf314d622')
    const outcome = await verifier({ Melody: TYPEPAD_PASSWORD }, VECTOR_CREATED).verify(header)
    expect(outcome).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
  })

  test('XML::Atom::Client 0.43 on the wire (captured)', async () => {
    const [header = ''] = xWsseLines(readFixture('peers/xml-atom-client/01-GET-root-wire.txt'))
    const created = new Date(field(header, 'Created'))
    expect(await verifier({ Melody: TYPEPAD_PASSWORD }, created).verify(header)).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
  })

  test.each([
    ['01-root-weblogs.txt', 'an ordinary request'],
    ['14-digest-without-padding.txt', 'a digest without its = padding'],
    ['15-created-with-offset.txt', 'Created with an offset'],
    ['16-created-without-zone.txt', 'Created without a zone'],
    ['17-created-fractional.txt', 'Created with a fraction'],
    ['18-created-110s-old.txt', 'Created 110 s old'],
    ['19-nonce-not-base64.txt', 'a nonce that is not base64'],
    ['20-header-unquoted-nospaces.txt', 'unquoted values without spaces'],
    ['21-header-with-WSSE-prefix.txt', 'a "WSSE " prefix'],
  ])('a request Movable Type 7 accepted: %s (%s)', async (file) => {
    const { wsse, answeredAt } = readCapture(`peers/mt/ok/${file}`)
    expect(await verifier({ Melody: MT_PASSWORD }, answeredAt).verify(wsse)).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
  })

  test("Movable Type's own test client: UserNameToken, hex nonce sent base64, digest without padding", async () => {
    const created = '2004-05-19T20:08:57Z'
    const nonce = Buffer.from('9f3a0c7e', 'ascii')
    const digest = independentDigest(nonce, created, 'chuck-api').replace(/=+$/, '')
    const header = `UserNameToken Username="Chuck D", PasswordDigest="${digest}", Nonce="${nonce.toString('base64')}", Created="${created}"`
    expect(header).not.toMatch(/PasswordDigest="[^"]*=/)
    const outcome = await verifier({ 'Chuck D': 'chuck-api' }, new Date(created)).verify(header)
    expect(outcome).toEqual({ ok: true, username: 'Chuck D', account: 'Chuck D' })
  })

  test('field names in any case and any order (Movable Type answers 400 to lowercase names)', async () => {
    const { wsse, answeredAt } = readCapture('peers/mt/err/16-lowercase-field-names.txt')
    expect(await verifier({ Melody: MT_PASSWORD }, answeredAt).verify(wsse)).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
    const reordered = `UsernameToken Created="${field(XMLATOM_RAW_VECTOR, 'Created')}", Nonce="${field(XMLATOM_RAW_VECTOR, 'Nonce')}", Username="Melody", PasswordDigest="${field(XMLATOM_RAW_VECTOR, 'PasswordDigest')}"`
    expect(await verifier({ Melody: TYPEPAD_PASSWORD }, VECTOR_CREATED).verify(reordered)).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
  })

  test('a digest over the base64 nonce text (Movable Type refuses it; both conventions are in the wild)', async () => {
    const { wsse, answeredAt } = readCapture('peers/mt/err/15-digest-over-base64-nonce-text.txt')
    expect(await verifier({ Melody: MT_PASSWORD }, answeredAt).verify(wsse)).toEqual({ ok: true, username: 'Melody', account: 'Melody' })
  })

  test('accountOf may answer asynchronously, and its account comes back with the verified user', async () => {
    const melody = { id: 7 }
    const check = new WsseVerifier({
      accountOf: async () => ({ apiPassword: TYPEPAD_PASSWORD, account: melody }),
      now: () => VECTOR_CREATED.getTime(),
    })
    expect(await check.verify(XMLATOM_RAW_VECTOR)).toEqual({ ok: true, username: 'Melody', account: melody })
  })
})

describe('WsseVerifier refuses', () => {
  const at = VECTOR_CREATED

  test('no header, 401 asking for one', async () => {
    for (const header of [undefined, '', '   ']) {
      const { status, message } = refusal(await verifier({}, at).verify(header))
      expect(status).toBe(401)
      expect(message).toMatch(/X-WSSE header/)
    }
  })

  test.each([
    ['another scheme', 'Basic TWVsb2R5OmF0b20tYXBpLXBhc3M='],
    ['another profile (Movable Type capture)', 'Foo Username="Melody", PasswordDigest="x", Nonce="abc", Created="2026-01-01T00:00:00Z"'],
    ['a longer token name', 'UsernameTokens Username="Melody", PasswordDigest="x", Nonce="abc", Created="2026-01-01T00:00:00Z"'],
    ['an unterminated quote', 'UsernameToken Username="Melody, PasswordDigest="x", Nonce="abc", Created="2026-01-01T00:00:00Z'],
    ['a field given twice', 'UsernameToken Username="Melody", Username="Ivy", PasswordDigest="x", Nonce="abc", Created="c"'],
    ['text that is no field', 'UsernameToken Username="Melody" and then some'],
  ])('a garbled header (%s), 401', async (_case, header) => {
    const { status, message } = refusal(await verifier({ Melody: MT_PASSWORD }, at).verify(header))
    expect(status).toBe(401)
    expect(message).toMatch(/could not be read/)
  })

  test('a header missing a field, 400 naming it', async () => {
    const { wsse } = readCapture('peers/mt/err/13-missing-nonce-field.txt')
    const { status, message } = refusal(await verifier({ Melody: MT_PASSWORD }, at).verify(wsse))
    expect(status).toBe(400)
    expect(message).toMatch(/lacks the Nonce field\./)
  })

  test('a header missing several fields or with an empty one, 400 naming each', async () => {
    const several = refusal(await verifier({}, at).verify('UsernameToken Username="Melody"'))
    expect(several).toEqual({ status: 400, message: expect.stringMatching(/lacks the PasswordDigest, Nonce and Created fields/) })
    const empty = refusal(await verifier({}, at).verify('UsernameToken Username="Melody", PasswordDigest="x", Nonce="", Created="c"'))
    expect(empty).toEqual({ status: 400, message: expect.stringMatching(/lacks the Nonce field/) })
  })

  test('a missing field is reported before the credentials are looked at', async () => {
    const outcome = refusal(await verifier({}, at).verify('UsernameToken Username="nobody", PasswordDigest="x", Created="c"'))
    expect(outcome.status).toBe(400)
  })

  test('a wrong password and an unknown user alike, 401 with the same message', async () => {
    const check = verifier({ Melody: MT_PASSWORD }, () => Date.parse('2026-11-22T10:07:02Z'))
    const wrongPassword = refusal(await check.verify(readCapture('peers/mt/err/03-bad-password-digest.txt').wsse))
    const loginPassword = refusal(await check.verify(readCapture('peers/mt/err/04-login-password-not-api-password.txt').wsse))
    const unknownUser = refusal(await check.verify(readCapture('peers/mt/err/05-unknown-user.txt').wsse))
    expect(wrongPassword.status).toBe(401)
    expect(wrongPassword.message).toMatch(/username or API password is wrong/)
    expect(loginPassword).toEqual(wrongPassword)
    expect(unknownUser).toEqual(wrongPassword)
  })

  test('a wrong password is reported before a stale Created', async () => {
    const { wsse, answeredAt } = readCapture('peers/mt/err/11-stale-and-bad-digest.txt')
    expect(refusal(await verifier({ Melody: MT_PASSWORD }, answeredAt).verify(wsse)).message).toMatch(/password is wrong/)
  })

  test.each([
    ['07-created-1h-old.txt', 'an hour old'],
    ['08-created-1h-future.txt', 'an hour ahead'],
  ])('Created %s (%s), 401 about clock skew', async (file) => {
    const { wsse, answeredAt } = readCapture(`peers/mt/err/${file}`)
    const { status, message } = refusal(await verifier({ Melody: MT_PASSWORD }, answeredAt).verify(wsse))
    expect(status).toBe(401)
    expect(message).toMatch(/clock skew/)
    expect(message).toMatch(/Check that your computer's clock/)
    expect(message).toMatch(/5 minutes/)
  })

  test('Created in a form it cannot read, 401 about clock skew', async () => {
    const { wsse, answeredAt } = readCapture('peers/mt/err/10-created-basic-iso-format.txt')
    expect(field(wsse ?? '', 'Created')).toBe('20261122T100706Z')
    const { status, message } = refusal(await verifier({ Melody: MT_PASSWORD }, answeredAt).verify(wsse))
    expect(status).toBe(401)
    expect(message).toMatch(/clock skew/)
    expect(message).toMatch(/computer's clock/)
  })

  test('the window holds to the millisecond, both ways, and can be set', async () => {
    const created = Date.UTC(2026, 10, 22, 10, 0, 0)
    const header = () => createWsseHeader({ username: 'Melody', password: 'p' }, { now: new Date(created) })
    const verdict = async (now: number, windowMs?: number) => (await verifier({ Melody: 'p' }, () => now, { windowMs }).verify(header())).ok
    expect(await verdict(created + 5 * MINUTE)).toBe(true)
    expect(await verdict(created - 5 * MINUTE)).toBe(true)
    expect(await verdict(created + 5 * MINUTE + 1)).toBe(false)
    expect(await verdict(created - 5 * MINUTE - 1)).toBe(false)
    expect(await verdict(created + 2 * MINUTE, MINUTE)).toBe(false)
    const late = refusal(await verifier({ Melody: 'p' }, () => created + 2 * MINUTE, { windowMs: MINUTE }).verify(header()))
    expect(late.message).toMatch(/more than 1 minute away/)
  })

  test('the same header twice, 401 "replayed" the second time', async () => {
    const check = verifier({ Melody: TYPEPAD_PASSWORD }, VECTOR_CREATED)
    expect((await check.verify(XMLATOM_RAW_VECTOR)).ok).toBe(true)
    const { status, message } = refusal(await check.verify(XMLATOM_RAW_VECTOR))
    expect(status).toBe(401)
    expect(message).toMatch(/replayed/)
  })

  test('the same nonce written without its padding is still the same nonce', async () => {
    const check = verifier({ Melody: TYPEPAD_PASSWORD }, VECTOR_CREATED)
    expect((await check.verify(XMLATOM_RAW_VECTOR)).ok).toBe(true)
    const unpadded = XMLATOM_RAW_VECTOR.replace(/Nonce="([^"=]*)=*"/, 'Nonce="$1"')
    expect(unpadded).not.toBe(XMLATOM_RAW_VECTOR)
    expect(refusal(await check.verify(unpadded)).message).toMatch(/replayed/)
  })

  test('a nonce is spent per user: another user may use the same bytes', async () => {
    const now = new Date()
    const nonce = Buffer.alloc(20, 7)
    const check = verifier({ Melody: 'a', Ivy: 'b' }, now)
    expect((await check.verify(createWsseHeader({ username: 'Melody', password: 'a' }, { now, nonce }))).ok).toBe(true)
    expect((await check.verify(createWsseHeader({ username: 'Ivy', password: 'b' }, { now, nonce }))).ok).toBe(true)
  })

  test('a failed attempt spends no nonce: only a request that proves the password is remembered', async () => {
    // Movable Type burns the nonce of a wrong password (capture 12a, then 12b); here the retry goes through, and
    // strangers who know only the username cannot fill the user's memory of nonces.
    const failed = readCapture('peers/mt/err/12a-nonce-burned-by-failed-attempt.txt')
    const retried = readCapture('peers/mt/err/12b-same-nonce-correct-password.txt')
    expect(field(failed.wsse ?? '', 'Nonce')).toBe(field(retried.wsse ?? '', 'Nonce'))
    const check = verifier({ Melody: MT_PASSWORD }, retried.answeredAt, { maxNoncesPerUser: 1 })
    expect(refusal(await check.verify(failed.wsse)).message).toMatch(/password is wrong/)
    expect((await check.verify(retried.wsse)).ok).toBe(true)
    expect(refusal(await check.verify(retried.wsse)).message).toMatch(/replayed/)
  })

  test('a Created far in the future is refused before its nonce is stored', async () => {
    const now = new Date()
    const check = verifier({ Melody: 'p' }, now, { maxNoncesPerUser: 1 })
    const future = createWsseHeader({ username: 'Melody', password: 'p' }, { now: new Date(now.getTime() + 365 * 24 * 60 * MINUTE) })
    expect(refusal(await check.verify(future)).message).toMatch(/clock skew/)
    expect((await check.verify(createWsseHeader({ username: 'Melody', password: 'p' }, { now }))).ok).toBe(true)
  })

  test('two simultaneous requests with one header: exactly one gets through', async () => {
    const check = new WsseVerifier({
      accountOf: () =>
        new Promise<WsseAccount<string>>((resolve) => setTimeout(() => resolve({ apiPassword: TYPEPAD_PASSWORD, account: 'Melody' }), 5)),
      now: () => VECTOR_CREATED.getTime(),
    })
    const outcomes = await Promise.all([check.verify(XMLATOM_RAW_VECTOR), check.verify(XMLATOM_RAW_VECTOR)])
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1)
  })

  test('a replay after the window fails on the clock, not on memory', async () => {
    let now = VECTOR_CREATED.getTime()
    const check = verifier({ Melody: TYPEPAD_PASSWORD }, () => now)
    expect((await check.verify(XMLATOM_RAW_VECTOR)).ok).toBe(true)
    now += 5 * MINUTE + 1
    expect(refusal(await check.verify(XMLATOM_RAW_VECTOR)).message).toMatch(/clock skew/)
  })

  test('memory is bounded per user by refusing (429), never by forgetting a nonce still inside the window', async () => {
    let now = Date.UTC(2026, 10, 22, 10, 0, 0)
    const check = verifier({ Melody: 'p', Ivy: 'q' }, () => now, { maxNoncesPerUser: 2 })
    const header = (fill: number, at = now) =>
      createWsseHeader({ username: 'Melody', password: 'p' }, { now: new Date(at), nonce: Buffer.alloc(20, fill) })
    const headers = [header(1), header(2)]
    for (const sent of headers) expect((await check.verify(sent)).ok).toBe(true)
    const full = await check.verify(header(3))
    expect(full).toMatchObject({ ok: false, status: 429, retryAfterSeconds: 301 })
    expect(refusal(full).message).toMatch(/more than 2 requests within 5 minutes/)
    for (const sent of headers) expect(refusal(await check.verify(sent)).message).toMatch(/replayed/)
    expect((await check.verify(createWsseHeader({ username: 'Ivy', password: 'q' }, { now: new Date(now) }))).ok).toBe(true)
    now += 5 * MINUTE + 1
    expect((await check.verify(header(3))).ok).toBe(true)
  })

  test('options out of range are refused when the verifier is made', () => {
    const accountOf = () => null
    expect(() => new WsseVerifier({ accountOf, windowMs: 0 })).toThrow(RangeError)
    expect(() => new WsseVerifier({ accountOf, maxNoncesPerUser: 0 })).toThrow(RangeError)
    expect(() => new WsseVerifier({ accountOf, maxNoncesPerUser: 1.5 })).toThrow(RangeError)
  })
})
