// The OAuth 1.0a provider (RFC 5849) at the Application's URLs (auth/oauth-urls.ts): request token, the authorize
// page where a person signs in and approves or denies, access token, identification, and the three small resources
// TypePad offered applications. Signed endpoints answer errors as JSON {"error": {"status", "message"}}; the pages a
// person sees answer as pages.
import type { IncomingMessage } from 'node:http'
import { parseFormEncoded } from '../../src-protocol'
import {
  carriesOAuth,
  checkCallback,
  formToken,
  formTokenMatches,
  FORM_MEDIA_TYPE,
  isForm,
  MAX_FORM_BYTES,
  oauthChallenge,
  OAuthProblem,
  readSignedRequest,
  verifierMatches,
  verifySignedRequest,
  type OAuthOptions,
  type TokenRequirement,
  type VerifiedRequest,
} from '../auth/oauth'
import { OAUTH_PATHS } from '../auth/oauth-urls'
import { SignInThrottle, type SignInVerdict } from '../auth/sign-in-throttle'
import { JsonGraph } from '../json/graph'
import { jsonError, jsonReply } from '../json/reply'
import { notFoundPage } from '../public/page'
import { authorizePage, deniedPage, signedOutPage, signInProblemPage, verifierPage } from '../public/sign-in'
import type { RequestToken, Store } from '../store'
import { checkPassword } from '../store/passwords'
import { readBody } from './body'
import { HttpError, type Handler, type Reply, type RequestContext } from './reply'
import type { Router } from './router'
import { clientAddressOf, type ClientAddress } from '../operations/client-address'

/** How long a request token waits for the person to approve it and the application to exchange it. */
export const REQUEST_TOKEN_LIFETIME_MS = 10 * 60_000
/** Sign-ins tried on one request token's page; then it is void and the application must start again. */
export const MAX_SIGN_IN_ATTEMPTS = 5
/** Wrong verifiers sent for one request token; then it can no longer be exchanged. */
export const MAX_VERIFIER_ATTEMPTS = 5

/** `clientAddress` says which address a request comes from, for sign-in throttling and nonces (the socket's peer by default). */
export function registerOAuthRoutes(router: Router, store: Store, { clientAddress = clientAddressOf(), noncesPerHolder }: OAuthOptions = {}): void {
  const throttle = new SignInThrottle(store.signInFailures)
  const signed = signedBy(store, clientAddress, noncesPerHolder)
  router
    .post(OAUTH_PATHS.requestToken, signed('consumer only', requestToken(store)))
    .get(OAUTH_PATHS.authorize, showAuthorizePage(store))
    .post(OAUTH_PATHS.authorize, answerAuthorizePage(store, throttle, clientAddress))
    .post(OAUTH_PATHS.accessToken, signed('request token', accessToken(store)))
    .get(OAUTH_PATHS.identify, signed('access token', identify(store)))
    .get(OAUTH_PATHS.sessionSyncScript, ofApplication(store, () => script(SESSION_SYNC_SCRIPT)))
    .get(OAUTH_PATHS.userFlyoutsScript, ofApplication(store, () => script(USER_FLYOUTS_SCRIPT)))
    .get(OAUTH_PATHS.signOut, ofApplication(store, () => signedOutPage()))
}

/** The resources TypePad made per application exist for the applications this service knows. */
function ofApplication(store: Store, reply: () => Reply): Handler {
  return async ({ params }) => {
    const applicationId = params['applicationId']!
    if ((await store.directory.idOf('Application', applicationId)) === null) {
      return notFoundPage(`There is no application ${applicationId} on this service. Check the address.`)
    }
    return reply()
  }
}

type SignedHandler = (verified: VerifiedRequest, context: RequestContext) => Promise<Reply>

/** Runs a handler for a request whose signature checks out as `requirement` says; refusals become JSON errors. */
function signedBy(
  store: Store,
  clientAddress: ClientAddress,
  noncesPerHolder: number | undefined,
): (requirement: TokenRequirement, handler: SignedHandler) => Handler {
  return (requirement, handler) => async (context) => {
    try {
      const request = await readSignedRequest(context.request, clientAddress)
      if (!carriesOAuth(request)) {
        throw new OAuthProblem(
          401,
          'This address answers only requests signed with OAuth 1.0a (HMAC-SHA1, or PLAINTEXT on this computer), ' +
            'with your API key as the consumer key.',
        )
      }
      return await handler(await verifySignedRequest(store, request, context.origin, requirement, noncesPerHolder), context)
    } catch (error) {
      if (error instanceof OAuthProblem) return oauthError(error.status, error.message, context.origin)
      if (error instanceof HttpError) return jsonError(error.status, error.message, error.headers)
      throw error
    }
  }
}

/** POST /oauth/request_token: a request token for a callback on this computer, or `oob`. */
function requestToken(store: Store): SignedHandler {
  return async ({ apiKey, protocol }) => {
    const callback = checkCallback(protocol.get('oauth_callback'))
    const { token, secret } = await store.oauth.createRequestToken(apiKey, callback, new Date(), REQUEST_TOKEN_LIFETIME_MS)
    return formReply({ oauth_token: token, oauth_token_secret: secret, oauth_callback_confirmed: 'true' })
  }
}

/** POST /oauth/access_token: an approved request token and its verifier, once, for an access token. */
function accessToken(store: Store): SignedHandler {
  return async ({ protocol, credentials }, { origin }) => {
    if (credentials.kind !== 'request token') throw new Error('access_token was verified without a request token')
    const { requestToken: request } = credentials
    const startAgain = `Start again with a new request token from ${origin}${OAUTH_PATHS.requestToken}.`
    if (Date.parse(request.expires) <= Date.now()) {
      throw new OAuthProblem(401, `The request token expired at ${request.expires}. ${startAgain}`)
    }
    switch (request.state) {
      case 'pending':
        throw new OAuthProblem(
          401,
          'The request token has not been approved yet. Send the person to ' +
            `${origin}${OAUTH_PATHS.authorize}?oauth_token=${encodeURIComponent(request.token)} first.`,
        )
      case 'denied':
        throw new OAuthProblem(401, `The person denied ${request.applicationName} access. ${startAgain}`)
      case 'exchanged':
        throw new OAuthProblem(401, `The request token and its verifier were already used for an access token. ${startAgain}`)
      case 'approved':
        break
    }
    const verifier = protocol.get('oauth_verifier')
    if (!verifier) {
      throw new OAuthProblem(400, 'oauth_verifier is missing. Send the verifier the person was given when approving.')
    }
    if (request.failedVerifiers >= MAX_VERIFIER_ATTEMPTS) {
      throw new OAuthProblem(401, `Too many wrong verifiers were sent for this request token. ${startAgain}`)
    }
    if (!verifierMatches(request.verifier!, verifier)) {
      const left = MAX_VERIFIER_ATTEMPTS - (await store.oauth.recordFailedVerifier(request.token))
      const advice = left > 0 ? `Check it and try again (${triesLeft(left)}).` : startAgain
      throw new OAuthProblem(401, `The verifier (oauth_verifier) is wrong. ${advice}`)
    }
    const issued = await store.oauth.exchange(request.token)
    if (!issued) throw new OAuthProblem(401, `The request token was used for an access token meanwhile. ${startAgain}`)
    return formReply({ oauth_token: issued.token, oauth_token_secret: issued.secret })
  }
}

/** GET /oauth/identify: who the access token acts for, as the User object of the JSON interface. */
function identify(store: Store): SignedHandler {
  return async ({ credentials }, { origin }) => {
    if (credentials.kind !== 'access token') throw new Error('identify was verified without an access token')
    const user = await new JsonGraph(store, origin).user(credentials.userId)
    if (!user) throw new OAuthProblem(401, 'The person who approved this access token no longer has an account here.')
    return jsonReply(200, user, { 'Cache-Control': 'no-store' })
  }
}

/** GET /oauth/authorize?oauth_token=…: the sign-in and approval page. */
function showAuthorizePage(store: Store): Handler {
  return async ({ request, origin }) => {
    const token = new URL(request.url ?? '/', origin).searchParams.get('oauth_token') ?? ''
    const found = await pendingRequestToken(store, token)
    return isPage(found) ? found : authorizePage(formFor(store, found))
  }
}

/** POST /oauth/authorize: approve (with username and password) or deny. */
function answerAuthorizePage(store: Store, throttle: SignInThrottle, clientAddress: ClientAddress): Handler {
  return async ({ request }) => {
    const form = await readForm(request)
    if (isPage(form)) return form
    const found = await pendingRequestToken(store, form.get('oauth_token') ?? '')
    if (isPage(found)) return found
    if (!formTokenMatches(store, found.token, form.get('form_token') ?? '')) {
      return signInProblemPage(
        400,
        'This form is out of date',
        'The form was not sent from this service’s own sign-in page, or belongs to another request. Open the sign-in ' +
          `page from ${found.applicationName} again.`,
      )
    }
    switch (form.get('decision')) {
      case 'deny':
        return (await store.oauth.deny(found.token)) ? denied(found) : alreadyAnswered(found)
      case 'approve':
        return approve(store, throttle, found, {
          username: form.get('username') ?? '',
          password: form.get('password') ?? '',
          address: clientAddress(request),
        })
      default:
        return signInProblemPage(400, 'Choose Approve or Deny', 'The form was sent without a choice. Go back and press Approve or Deny.')
    }
  }
}

interface SignIn {
  username: string
  password: string
  /** The client's IP address. */
  address: string
}

async function approve(store: Store, throttle: SignInThrottle, request: RequestToken, signIn: SignIn): Promise<Reply> {
  const { username, password, address } = signIn
  const verdict = await throttle.attempt(username, address)
  if (!verdict.allowed) return signInPaused(request, username, verdict)
  const attempts = await store.oauth.countSignInAttempt(request.token)
  if (attempts > MAX_SIGN_IN_ATTEMPTS) return tooManyAttempts(request)
  const account = await store.oauth.signInRecord(username)
  const passwordIsRight = await checkPassword(password, account?.passwordHash ?? null)
  if (!account || !passwordIsRight) {
    console.warn(
      `Sign-in failed on the OAuth authorize page: username ${JSON.stringify(username)} from ${address}, ` +
        `${verdict.attempt.accountFailures} in a row for this username.`,
    )
    if (attempts >= MAX_SIGN_IN_ATTEMPTS) return tooManyAttempts(request)
    const left = MAX_SIGN_IN_ATTEMPTS - attempts
    return authorizePage({
      ...formFor(store, request),
      username,
      problem: `The username or password is wrong (${triesLeft(left)}). Check both.`,
      status: 401,
    })
  }
  await verdict.attempt.succeeded()
  const verifier = await store.oauth.approve(request.token, account.userId)
  if (verifier === null) return alreadyAnswered(request)
  if (request.callback === 'oob') return verifierPage(request.applicationName, verifier)
  return backToApplication(request.callback, { oauth_token: request.token, oauth_verifier: verifier })
}

function denied(request: RequestToken): Reply {
  if (request.callback === 'oob') return deniedPage(request.applicationName)
  return backToApplication(request.callback, { denied: request.token })
}

/** A 303 to the callback with `parameters` added to its query, which is otherwise kept exactly as the client sent it. */
function backToApplication(callback: string, parameters: Record<string, string>): Reply {
  const query = new URLSearchParams(parameters).toString()
  return {
    status: 303,
    headers: { Location: `${callback}${callback.includes('?') ? '&' : '?'}${query}`, 'Cache-Control': 'no-store' },
  }
}

/** The request token a page is about, if it still waits for an answer; otherwise the page that says why not. */
async function pendingRequestToken(store: Store, token: string): Promise<RequestToken | Reply> {
  const startAgain = 'Go back to the application and start signing in again.'
  if (token === '') {
    return signInProblemPage(400, 'Nothing to approve', `This address needs the oauth_token an application was given. ${startAgain}`)
  }
  const request = await store.oauth.requestToken(token)
  if (!request) {
    return signInProblemPage(400, 'Unknown sign-in request', `This service does not know this sign-in request. ${startAgain}`)
  }
  if (Date.parse(request.expires) <= Date.now()) {
    const lifetime = `It was valid for ${REQUEST_TOKEN_LIFETIME_MS / 60_000} minutes.`
    return signInProblemPage(400, 'This sign-in request has expired', `${lifetime} ${startAgain}`)
  }
  if (request.signInAttempts >= MAX_SIGN_IN_ATTEMPTS && request.state === 'pending') return tooManyAttempts(request)
  if (request.state !== 'pending') return alreadyAnswered(request)
  return request
}

function triesLeft(count: number): string {
  return `${count} ${count === 1 ? 'try' : 'tries'} left`
}

function isPage(value: object): value is Reply {
  return 'status' in value
}

function formFor(store: Store, request: RequestToken) {
  return {
    applicationName: request.applicationName,
    requestToken: request.token,
    formToken: formToken(store, request.token),
    callback: request.callback,
  }
}

function tooManyAttempts(request: RequestToken): Reply {
  return signInProblemPage(
    401,
    'Too many wrong passwords',
    `This sign-in request is void after ${MAX_SIGN_IN_ATTEMPTS} wrong attempts. Go back to ${request.applicationName}, ` +
      'start signing in again, and check your username and password.',
  )
}

function signInPaused(request: RequestToken, username: string, { pausedBy, pausedForMs }: Extract<SignInVerdict, { allowed: false }>): Reply {
  const pause = describePause(pausedForMs)
  const what =
    pausedBy === 'account'
      ? `Signing in as ${username} is paused for ${pause}: there were too many wrong passwords for this account.`
      : `Too many wrong passwords were sent from your address, so signing in from it is paused for ${pause}.`
  const page = signInProblemPage(
    429,
    'Too many wrong passwords',
    `${what} Then start signing in again from ${request.applicationName}. Only this sign-in page is paused: ` +
      'publishing tools that use the API password keep working.',
  )
  return { ...page, headers: { ...page.headers, 'Retry-After': String(Math.ceil(pausedForMs / 1000)) } }
}

function describePause(milliseconds: number): string {
  const seconds = Math.ceil(milliseconds / 1000)
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`
  const minutes = Math.ceil(seconds / 60)
  return `${minutes} minute${minutes === 1 ? '' : 's'}`
}

function alreadyAnswered(request: RequestToken): Reply {
  const answer = request.state === 'denied' ? 'denied' : 'approved'
  return signInProblemPage(
    400,
    'Already answered',
    `${request.applicationName} was already ${answer} with this sign-in request. If it did not notice, start signing in ` +
      'again from it.',
  )
}

/** The fields of the authorize form, or the page that says why they cannot be read. */
async function readForm(request: IncomingMessage): Promise<Map<string, string> | Reply> {
  if (!isForm(request)) {
    const expected = `The answer must be sent as ${FORM_MEDIA_TYPE}, as the sign-in page does.`
    return signInProblemPage(415, 'Send the form from the sign-in page', expected)
  }
  try {
    return new Map(parseFormEncoded((await readBody(request, MAX_FORM_BYTES)).toString('utf8'), 'form'))
  } catch (error) {
    if (!(error instanceof OAuthProblem || error instanceof HttpError)) throw error
    return signInProblemPage(400, 'The form could not be read', error.message)
  }
}

function formReply(fields: Record<string, string>): Reply {
  return {
    status: 200,
    headers: { 'Content-Type': FORM_MEDIA_TYPE, 'Cache-Control': 'no-store' },
    body: new URLSearchParams(fields).toString(),
  }
}

function oauthError(status: 400 | 401, message: string, origin: string): Reply {
  return jsonError(status, message, status === 401 ? oauthChallenge(origin) : {})
}

function script(source: string): Reply {
  return {
    status: 200,
    headers: {
      'Content-Type': 'application/javascript; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=86400',
    },
    body: source,
  }
}

const SESSION_SYNC_SCRIPT = `// sessionSyncScriptUrl. TypePad's pages and an application's pages loaded this script to keep a person's
// TypePad sign-in and the application's own web session in step across sites. This service keeps no web session:
// applications act with OAuth access tokens. So there is nothing to keep in step, and the script does nothing.
`

const USER_FLYOUTS_SCRIPT = `// userFlyoutsScriptUrl. TypePad's script drew a pop-up card about a user when the mouse rested on their name
// on an application's pages, using TypePad's web session. This service keeps no web session and offers no such
// cards, so the script does nothing.
`
