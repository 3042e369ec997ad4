// The pages a person sees while an application asks for access (OAuth): sign in and approve or deny it, the code
// to type into an application that has no callback, and what went wrong. None may be cached (they carry one-time
// tokens), and the sign-in form may post only to this service and go on from there to the application's callback.
import { OAUTH_PATHS } from '../auth/oauth-urls'
import type { Reply } from '../routes/reply'
import { escapeHtml, htmlPage, PAGE_CONTENT_SECURITY_POLICY } from './page'

export interface AuthorizeForm {
  applicationName: string
  requestToken: string
  /** The hidden token that ties a post to this form (auth/oauth.ts formToken). */
  formToken: string
  /** `oob`, or the loopback URL the browser goes back to. */
  callback: string
  /** Filled in again after a wrong password. */
  username?: string
  /** Why the last attempt failed, shown above the form. */
  problem?: string
  status?: number
}

const PASSWORD_HINT =
  'Use the password you sign in to this service with, not the API password that publishing tools use.'

export function authorizePage(form: AuthorizeForm): Reply {
  const { applicationName, requestToken, formToken, callback, username = '', problem, status = 200 } = form
  const name = escapeHtml(applicationName)
  const afterwards =
    callback === 'oob'
      ? `If you approve, you will get a code to type into ${name}.`
      : `Either way, your browser then goes back to ${name} at ${escapeHtml(new URL(callback).host)}.`
  const body = [
    `<h1>Let ${name} use your account?</h1>`,
    `<p><strong>${name}</strong> asks to read and act on your account on this service. Sign in to approve it, or ` +
      `deny it. ${afterwards}</p>`,
    problem ? `<p role="alert"><strong>${escapeHtml(problem)}</strong></p>` : '',
    `<form method="post" action="${OAUTH_PATHS.authorize}">`,
    `<input type="hidden" name="oauth_token" value="${escapeHtml(requestToken)}">`,
    `<input type="hidden" name="form_token" value="${escapeHtml(formToken)}">`,
    `<p><label>Username<br><input name="username" autocomplete="username" required autofocus value="${escapeHtml(username)}"></label></p>`,
    `<p><label>Password<br><input type="password" name="password" autocomplete="current-password" required></label><br>`,
    `<small>${PASSWORD_HINT}</small></p>`,
    '<p><button type="submit" name="decision" value="approve">Approve</button> ',
    '<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>',
    '</form>',
  ]
  return withPolicy(htmlPage({ title: `Let ${applicationName} use your account?`, body: body.filter(Boolean).join('\n'), status }), callback)
}

/** After approval, for an application without a callback. */
export function verifierPage(applicationName: string, verifier: string): Reply {
  const name = escapeHtml(applicationName)
  const body = [
    `<h1>You approved ${name}</h1>`,
    `<p>Type this code into ${name} to finish signing in:</p>`,
    `<p style="font-size: 2rem; font-family: monospace; letter-spacing: 0.2em">${escapeHtml(verifier)}</p>`,
    '<p>The code works once, for the next few minutes. Then you can close this window.</p>',
  ].join('\n')
  return withPolicy(htmlPage({ title: `You approved ${applicationName}`, body }), 'oob')
}

/** After a denial, for an application without a callback. */
export function deniedPage(applicationName: string): Reply {
  const name = escapeHtml(applicationName)
  const body = `<h1>You denied ${name}</h1>\n<p>${name} gets no access to your account. You can close this window.</p>`
  return withPolicy(htmlPage({ title: `You denied ${applicationName}`, body }), 'oob')
}

/** Something the person cannot fix on this page; `message` says what to do instead. */
export function signInProblemPage(status: number, title: string, message: string): Reply {
  return withPolicy(htmlPage({ title, body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`, status }), 'oob')
}

/** The Application's signoutUrl. */
export function signedOutPage(): Reply {
  const body = [
    '<h1>Signed out</h1>',
    '<p>This service keeps no web session for applications: each one holds its own access token, so there is ' +
      'nothing more to sign out of here. You can close this window.</p>',
  ].join('\n')
  return withPolicy(htmlPage({ title: 'Signed out', body }), 'oob')
}

/**
 * The public pages' policy, except that forms may post here and browsers (which apply form-action to redirects)
 * may follow an approval to the callback. CSP cannot name an IPv6 host, so a [::1] callback is allowed as `http:`.
 */
function withPolicy(reply: Reply, callback: string): Reply {
  const callbackSource = callback === 'oob' ? '' : new URL(callback).hostname === '[::1]' ? ' http:' : ` ${new URL(callback).origin}`
  const policy = PAGE_CONTENT_SECURITY_POLICY.replace("form-action 'none'", `form-action 'self'${callbackSource}`)
  return { ...reply, headers: { ...reply.headers, 'Content-Security-Policy': policy, 'Cache-Control': 'no-store' } }
}
