// WSSE (docs/PROTOCOL.md): every Atom request carries an X-WSSE UsernameToken made with the user's API password.
import { WSSE_CHALLENGE, WsseVerifier, type NonceLedgerFactory } from '../../src-protocol'
import { errorReply, type Handler, type Reply, type RequestContext } from '../routes/reply'
import type { User, Users } from '../store'

export type AuthenticatedHandler = (context: RequestContext, user: User) => Reply | Promise<Reply>

/**
 * Wraps handlers so they run only for a verified user. One verifier per service, its nonces kept in `nonceLedger`
 * (the store's: shared by every instance on PostgreSQL), so a nonce seen once is refused on every later request
 * within the window.
 */
export function wsseGuard(users: Users, nonceLedger: NonceLedgerFactory, maxNoncesPerUser?: number): (handler: AuthenticatedHandler) => Handler {
  const verifier = new WsseVerifier({
    accountOf: (username) => users.wsseAccountOf(username),
    nonceLedger,
    ...(maxNoncesPerUser === undefined ? {} : { maxNoncesPerUser }),
  })

  return (handler) => async (context) => {
    const header = context.request.headers['x-wsse']
    const outcome = await verifier.verify(typeof header === 'string' ? header : undefined)
    if (!outcome.ok && outcome.status === 429) {
      return errorReply(429, outcome.message, { 'Retry-After': String(outcome.retryAfterSeconds) })
    }
    if (!outcome.ok) return challenge(outcome.status, outcome.message)
    return handler(context, outcome.account)
  }
}

function challenge(status: number, message: string): Reply {
  return errorReply(status, message, { 'WWW-Authenticate': WSSE_CHALLENGE })
}
