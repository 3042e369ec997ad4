import { Buffer } from 'node:buffer'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { formatW3cDate, parseW3cDate } from './dates'
import { UsedNonces, type NonceLedger, type NonceLedgerFactory } from './used-nonces'

export interface WsseCredentials {
  username: string
  password: string
}

/** Sent with every authentication failure, in `WWW-Authenticate`. */
export const WSSE_CHALLENGE = 'WSSE profile="UsernameToken"'

const NONCE_BYTES = 20

/**
 * The `X-WSSE` value for one request. Build it when the request is sent, never earlier: the server refuses a
 * Created stamp that has gone stale. `now` and `nonce` are for reproducing a known header.
 */
export function createWsseHeader(
  credentials: WsseCredentials,
  options: { now?: Date; nonce?: Uint8Array } = {},
): string {
  checkUsernameCanBeSent(credentials.username)
  const nonce = options.nonce ?? randomBytes(NONCE_BYTES)
  const created = formatW3cDate(options.now ?? new Date())
  const digest = passwordDigest(nonce, created, credentials.password)
  const encodedNonce = Buffer.from(nonce).toString('base64')
  return (
    `UsernameToken Username="${credentials.username}", PasswordDigest="${digest}", ` +
    `Nonce="${encodedNonce}", Created="${created}"`
  )
}

// The header has no escaping convention that Movable Type or XML::Atom understand, so a username has to travel as is.
function checkUsernameCanBeSent(username: string): void {
  if (username === '') throw new Error('A username is needed to sign in; enter the account\'s username.')
  if (!/^[\x20-\x7e]+$/.test(username) || username.includes('"')) {
    throw new Error(
      `The username "${username}" cannot be sent in a WSSE header: it may contain only printable ASCII ` +
        'characters other than the double quote ("). Use the username the server shows for this account.',
    )
  }
}

function passwordDigest(nonce: Uint8Array, created: string, password: string): string {
  return createHash('sha1').update(nonce).update(created, 'utf8').update(password, 'utf8').digest('base64')
}

// Like Perl's decode_base64, which Movable Type and XML::Atom use: stop at padding, skip characters outside the
// alphabet. (Node would read '-' and '_' as base64url instead.)
function decodeNonce(nonce: string): Buffer {
  const padding = nonce.indexOf('=')
  const data = padding === -1 ? nonce : nonce.slice(0, padding)
  return Buffer.from(data.replace(/[^A-Za-z0-9+/]/g, ''), 'base64')
}

interface UsernameToken {
  username: string
  passwordDigest: string
  nonce: string
  created: string
}

type HeaderReading =
  | { kind: 'unreadable' }
  | { kind: 'incomplete'; missing: string[] }
  | { kind: 'token'; token: UsernameToken }

const FIELDS = { username: 'Username', passworddigest: 'PasswordDigest', nonce: 'Nonce', created: 'Created' } as const
type FieldKey = keyof typeof FIELDS
// MT's own test suite sends "UserNameToken"; some clients put "WSSE " in front; some leave values unquoted.
const TOKEN_NAME = /^[\t ]*(?:WSSE[\t ]+)?UsernameToken(?=[\t ,]|$)/i
const FIELD = /[\t ,]*([A-Za-z]+)[\t ]*=[\t ]*(?:"([^"]*)"|([^\t ,"]+))/y
const SEPARATORS_TO_END = /[\t ,]*$/y

function readHeader(header: string): HeaderReading {
  const tokenName = TOKEN_NAME.exec(header)
  if (!tokenName) return { kind: 'unreadable' }
  const values = new Map<FieldKey, string>()
  let index = tokenName[0].length
  for (FIELD.lastIndex = index; ; FIELD.lastIndex = index) {
    const field = FIELD.exec(header)
    if (!field) break
    index = FIELD.lastIndex
    const key = (field[1] ?? '').toLowerCase()
    if (!Object.hasOwn(FIELDS, key)) continue
    if (values.has(key as FieldKey)) return { kind: 'unreadable' }
    values.set(key as FieldKey, field[2] ?? field[3] ?? '')
  }
  SEPARATORS_TO_END.lastIndex = index
  if (!SEPARATORS_TO_END.test(header)) return { kind: 'unreadable' }

  const missing = (Object.keys(FIELDS) as FieldKey[]).filter((key) => !values.get(key)).map((key) => FIELDS[key])
  if (missing.length > 0) return { kind: 'incomplete', missing }
  return {
    kind: 'token',
    token: {
      username: values.get('username') ?? '',
      passwordDigest: values.get('passworddigest') ?? '',
      nonce: values.get('nonce') ?? '',
      created: values.get('created') ?? '',
    },
  }
}

/** A user as the verifier needs one: their API password, and the caller's own record of them, given back on success. */
export interface WsseAccount<Account> {
  apiPassword: string
  account: Account
}

export type WsseOutcome<Account> =
  | { ok: true; username: string; account: Account }
  | { ok: false; status: 400 | 401; message: string }
  | { ok: false; status: 429; message: string; retryAfterSeconds: number }

export interface WsseVerifierOptions<Account> {
  /** The user named `username` with their API password (one look-up serves both), or null when there is no such user. */
  accountOf(username: string): WsseAccount<Account> | null | Promise<WsseAccount<Account> | null>
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number
  /** How far Created may be from now, either way; also how long a nonce is remembered. Default 5 minutes. */
  windowMs?: number
  /**
   * At most this many nonces are remembered per user; past it, that user's requests are refused (429) until the
   * oldest expires, since forgetting one early would let it be replayed. Default 10 000 (33 requests a second).
   */
  maxNoncesPerUser?: number
  /** Where spent nonces are kept; this process's memory (UsedNonces) when absent. */
  nonceLedger?: NonceLedgerFactory
}

const HEADER_FORMAT = 'UsernameToken Username="…", PasswordDigest="…", Nonce="…", Created="…"'
const MESSAGES = {
  absent: `Sign-in required: this request needs an X-WSSE header of the form ${HEADER_FORMAT}.`,
  unreadable: `The X-WSSE header could not be read. It must be of the form ${HEADER_FORMAT}, each field once.`,
  wrongCredentials:
    'The username or API password is wrong. Check both in the account settings; the API password is the separate ' +
    'password for publishing tools, not the one used to sign in on the web.',
  replayed:
    'This request was refused because its nonce was already used (a replayed request). Send the request again: ' +
    'each request needs a fresh X-WSSE header.',
}

function missingFieldsMessage(missing: string[]): string {
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`
  return `The X-WSSE header lacks the ${list} field${missing.length === 1 ? '' : 's'}. Send ${HEADER_FORMAT}.`
}

function describeWindow(windowMs: number): string {
  const minutes = windowMs / 60_000
  return Number.isInteger(minutes) ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.ceil(windowMs / 1000)} seconds`
}

function clockSkewMessage(windowMs: number, readable: boolean): string {
  const window = describeWindow(windowMs)
  const problem = readable
    ? `The request's time stamp (Created) is more than ${window} away from the server's time (clock skew).`
    : 'The request\'s time stamp (Created) is not a date the server can read, so it fails the clock skew check.'
  return `${problem} Check that your computer's clock, date and time zone are set correctly, then try again.`
}

function tooManyMessage(maxNonces: number, windowMs: number): string {
  return (
    `This account has sent more than ${maxNonces} requests within ${describeWindow(windowMs)}, more than the ` +
    'service remembers at once to refuse replays. Wait a little (see Retry-After) and send the request again.'
  )
}

const DEFAULT_WINDOW_MS = 5 * 60_000
const DEFAULT_MAX_NONCES_PER_USER = 10_000

/** Checks X-WSSE headers for one service: digest, clock, and nonces already used. */
export class WsseVerifier<Account> {
  private readonly accountOf: WsseVerifierOptions<Account>['accountOf']
  private readonly now: () => number
  private readonly windowMs: number
  private readonly maxNoncesPerUser: number
  private readonly usedNonces: NonceLedger

  constructor(options: WsseVerifierOptions<Account>) {
    const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS
    const maxNoncesPerUser = options.maxNoncesPerUser ?? DEFAULT_MAX_NONCES_PER_USER
    if (!(windowMs > 0)) throw new RangeError(`windowMs must be a positive number of milliseconds, not ${windowMs}.`)
    if (!Number.isInteger(maxNoncesPerUser) || maxNoncesPerUser < 1) {
      throw new RangeError(`maxNoncesPerUser must be a positive whole number, not ${maxNoncesPerUser}.`)
    }
    this.accountOf = options.accountOf
    this.now = options.now ?? Date.now
    this.windowMs = windowMs
    this.maxNoncesPerUser = maxNoncesPerUser
    const ledger = options.nonceLedger ?? ((capacity, sweepIntervalMs) => new UsedNonces(capacity, sweepIntervalMs))
    this.usedNonces = ledger(maxNoncesPerUser, Math.max(1000, windowMs / 4))
  }

  /**
   * Checks, in order: header present and readable (401), every field there (400), username and digest (401),
   * Created within the window (401), nonce not used before (401), room for another of the user's nonces (429).
   */
  async verify(header: string | undefined): Promise<WsseOutcome<Account>> {
    if (header === undefined || header.trim() === '') return { ok: false, status: 401, message: MESSAGES.absent }
    const reading = readHeader(header)
    if (reading.kind === 'unreadable') return { ok: false, status: 401, message: MESSAGES.unreadable }
    if (reading.kind === 'incomplete') return { ok: false, status: 400, message: missingFieldsMessage(reading.missing) }
    const { username, passwordDigest: givenDigest, nonce, created } = reading.token

    const found = await this.accountOf(username)
    // Both conventions in the wild: digest over the decoded nonce bytes (XML::Atom, MT) or over the text as sent
    // (TypePad's documentation). Unknown users get the same work and the same answer as a wrong password.
    const nonceBytes = decodeNonce(nonce)
    const secret = found?.apiPassword ?? ''
    const overBytes = digestsEqual(passwordDigest(nonceBytes, created, secret), givenDigest)
    // A wrong password or an unknown user always costs both digests; only the right one can stop at the first.
    const overText = overBytes || digestsEqual(passwordDigest(Buffer.from(nonce, 'utf8'), created, secret), givenDigest)
    if (found === null || !(overBytes || overText)) {
      return { ok: false, status: 401, message: MESSAGES.wrongCredentials }
    }
    const now = this.now()
    const createdAt = parseW3cDate(created)?.getTime() ?? null
    if (createdAt === null) return { ok: false, status: 401, message: clockSkewMessage(this.windowMs, false) }
    if (Math.abs(now - createdAt) > this.windowMs) {
      return { ok: false, status: 401, message: clockSkewMessage(this.windowMs, true) }
    }
    // Only now is the nonce remembered: a request that proves the password and passes the clock check, so that
    // strangers cannot fill the user's share and a far-future Created cannot hold it for long.
    const recording = await this.usedNonces.record(username, nonceBytes.toString('base64'), createdAt + this.windowMs, now)
    if (recording.kind === 'replayed') return { ok: false, status: 401, message: MESSAGES.replayed }
    if (recording.kind === 'full') {
      const retryAfterSeconds = Math.max(1, Math.ceil((recording.freeAt - now) / 1000))
      return { ok: false, status: 429, message: tooManyMessage(this.maxNoncesPerUser, this.windowMs), retryAfterSeconds }
    }
    return { ok: true, username, account: found.account }
  }
}

function digestsEqual(expected: string, given: string): boolean {
  const expectedBytes = Buffer.from(withoutPadding(expected), 'utf8')
  const givenBytes = Buffer.from(withoutPadding(given), 'utf8')
  if (expectedBytes.length !== givenBytes.length) return false
  return timingSafeEqual(expectedBytes, givenBytes)
}

// Perl's sha1_base64 (Movable Type's clients) leaves the padding off.
// A loop rather than /=+$/, which takes quadratic time on "===…x".
function withoutPadding(base64: string): string {
  let end = base64.length
  while (end > 0 && base64.charCodeAt(end - 1) === 0x3d /* = */) end--
  return base64.slice(0, end)
}
