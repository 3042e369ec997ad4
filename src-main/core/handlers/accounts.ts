// The accounts, weblogs and app namespaces: adding and removing accounts, their API password and JSON side, the
// built-in sandbox, and the app's status (connectivity, each server's reachability, the outbox's counts, paused
// accounts) as it changes.
import type { AccountConnection, AccountSummary, AppStatus, Connection } from '../../../src-shared/contract'
import { hostOf } from '../atom'
import { CoreError } from '../errors'
import { localMediaIn, originOf, type Operation, type PausedAccount } from '../sync'
import type { HandlersOf, Services } from './services'
import type { WeblogSettingsChannel } from './weblog-settings'

export function accountsHandlers(services: Services): Omit<HandlersOf<'accounts' | 'weblogs' | 'app'>, WeblogSettingsChannel> {
  const { accounts, sync, platform, caches } = services
  /** OAuth sign-ins waiting for the person, by account: cancelSignIn (or a new sign-in, or removal) stops them. */
  const signIns = new Map<string, () => void>()
  /** Removals under way, so a second click waits for the first instead of racing it. */
  const removals = new Map<string, Promise<null>>()

  followStatus(services)

  const cancelSignIn = (accountId: string) => {
    signIns.get(accountId)?.()
    signIns.delete(accountId)
  }

  const remove = async (accountId: string): Promise<null> => {
    accounts.summary(accountId)
    cancelSignIn(accountId)
    const release = await sync.holdAccount(accountId)
    try {
      const media = mediaOfAccount(services, accountId)
      await accounts.remove(accountId)
      await services.media.forgetUnreferenced(media)
    } finally {
      release()
    }
    return null
  }

  return {
    'accounts:list': async () => accounts.list(),

    'accounts:add': (request) => accounts.add(request),

    'accounts:remove': ({ accountId }) => {
      let removal = removals.get(accountId)
      if (!removal) {
        removal = remove(accountId).finally(() => removals.delete(accountId))
        removals.set(accountId, removal)
      }
      return removal
    },

    'accounts:updatePassword': async ({ accountId, apiPassword }) => {
      await accounts.updatePassword(accountId, apiPassword)
      // Resuming announces the account unpaused (followStatus); an account that was not paused has nothing to resume.
      sync.resume(accountId)
      return accounts.summary(accountId)
    },

    'accounts:connectJson': async ({ accountId, jsonBase, apiKey, apiSecret }) => {
      cancelSignIn(accountId)
      const signIn = await accounts.beginOAuthSignIn(accountId, { jsonBase, apiKey, apiSecret })
      signIns.set(accountId, signIn.cancel)
      try {
        const page = await platform.showAuthorizePage(signIn.authorizeUrl)
        try {
          return await signIn.completion
        } finally {
          page.close()
        }
      } catch (error) {
        signIn.cancel()
        throw error
      } finally {
        if (signIns.get(accountId) === signIn.cancel) signIns.delete(accountId)
      }
    },

    'accounts:cancelSignIn': async ({ accountId }) => {
      cancelSignIn(accountId)
      return null
    },

    'accounts:trySandbox': async () => {
      const sandbox = await platform.startSandbox()
      const existing = accounts.list().find((account) => sameAddress(account.atomBase, sandbox.atomBase) && account.username === sandbox.username)
      const account: AccountSummary =
        existing ?? (await accounts.add({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword }))
      if (account.json !== null && sameAddress(account.json.jsonBase, sandbox.jsonBase)) return account
      await accounts.attachJson(account.id, {
        jsonBase: sandbox.jsonBase,
        apiKey: sandbox.apiKey,
        apiSecret: sandbox.apiSecret,
        authToken: sandbox.authToken,
        authTokenSecret: sandbox.authTokenSecret,
      })
      return accounts.summary(account.id)
    },

    'weblogs:list': async ({ accountId, refresh }) => {
      // Offline-first: the weblogs as last seen unless asked to read them again, and whenever the server cannot be
      // reached, so drafts stay at hand.
      const cached = caches.weblogs(accountId)
      if (cached && (!refresh || !platform.connectivity.isOnline())) return cached.value
      try {
        const weblogs = await accounts.weblogs(accountId)
        const namedBefore = caches.weblogs(accountId)?.value[0]?.title
        caches.replaceWeblogs(accountId, weblogs)
        // The account is called by its first weblog's title: a new or renamed one renames it everywhere.
        if (weblogs[0]?.title !== namedBefore) accounts.announce()
        return weblogs
      } catch (error) {
        if (cached && error instanceof CoreError && error.code === 'offline') return cached.value
        throw error
      }
    },

    'app:status': async () => statusOf(services),

    'app:openExternal': async ({ url }) => {
      const { protocol } = new URL(url)
      if (protocol !== 'http:' && protocol !== 'https:') {
        throw new CoreError('invalid-argument', `Blogdesk opens only web pages (http or https) in the browser, not "${url}".`)
      }
      await platform.openExternal(url)
      return null
    },
  }
}

function statusOf(services: Services): AppStatus {
  const { platform, sync } = services
  const online = platform.connectivity.isOnline()
  const paused = sync.pausedAccounts()
  const accounts = accountConnections(services, online, paused)
  return { online, outbox: sync.counts(), paused, connection: overallConnection(online, accounts), accounts }
}

const ONLINE: Connection = { state: 'online', accountId: null, host: null, waiting: 0, nextTryAt: null, reason: null }

/**
 * The accounts with a problem of their own while the computer is online: signed out when the sign-in was refused;
 * unreachable when the server of its weblogs (or of its JSON side) could not be connected to at the last request.
 */
function accountConnections({ accounts, reachability, sync }: Services, online: boolean, paused: PausedAccount[]): AccountConnection[] {
  const unreachable = new Map(reachability.servers().filter((server) => !server.reachable).map((server) => [server.origin, server]))
  // This runs on every change of the outbox: when all is well it reads nothing.
  if (!online || (unreachable.size === 0 && paused.length === 0)) return []
  const waiting = unreachable.size > 0 ? sync.waitingByServer() : new Map<string, number>()
  return accounts.list().flatMap(({ id, atomBase, json }): AccountConnection[] => {
    const refusal = paused.find((pause) => pause.accountId === id)
    if (refusal) return [{ accountId: id, connection: { ...ONLINE, state: 'signed-out', accountId: id, host: hostOf(atomBase), reason: refusal.reason } }]
    const server = [originOf(atomBase), ...(json ? [originOf(json.jsonBase)] : [])].flatMap((origin) => unreachable.get(origin) ?? [])[0]
    if (!server) return []
    const connection: Connection = {
      state: 'unreachable',
      accountId: id,
      host: server.host,
      waiting: waiting.get(server.origin) ?? 0,
      nextTryAt: server.nextProbeAt === null ? null : new Date(server.nextProbeAt).toISOString(),
      reason: server.problem,
    }
    return [{ accountId: id, connection }]
  })
}

/** What the status bar shows: offline first, then the server out of reach with the most waiting, then a refused sign-in. */
function overallConnection(online: boolean, accounts: AccountConnection[]): Connection {
  if (!online) return { ...ONLINE, state: 'offline' }
  const connections = accounts.map((account) => account.connection)
  const unreachable = connections.filter((connection) => connection.state === 'unreachable').sort((a, b) => b.waiting - a.waiting)
  return unreachable[0] ?? connections.find((connection) => connection.state === 'signed-out') ?? ONLINE
}

/**
 * Tells the renderer the app's status whenever it changes (connectivity, the outbox, a pause), and the accounts when
 * one is paused or resumed. When the network comes back, everything waiting is tried at once rather than at its
 * backoff time.
 */
function followStatus(services: Services): void {
  const { platform, sync, accounts, emit, onClose } = services
  let told = JSON.stringify(statusOf(services))
  const tell = () => {
    const status = statusOf(services)
    const text = JSON.stringify(status)
    if (text === told) return
    const pausesChanged = JSON.stringify((JSON.parse(told) as AppStatus).paused) !== JSON.stringify(status.paused)
    told = text
    emit('app:statusChanged', status)
    if (pausesChanged) accounts.announce()
  }
  onClose(
    platform.connectivity.onChange((online) => {
      if (online) sync.sendNow()
      tell()
    }),
  )
  onClose(sync.on('changed', tell))
  onClose(services.reachability.onChanged(tell))
}

/** The media copies the account's drafts (in the Trash too), their revisions and its queued operations refer to. */
function mediaOfAccount({ drafts, sync }: Services, accountId: string): string[] {
  const hashes = new Set<string>()
  for (const draft of [...drafts.list(accountId), ...drafts.trash(accountId)]) {
    for (const hash of localMediaIn(draft.content)) hashes.add(hash)
    for (const revision of drafts.revisions(draft.id)) for (const hash of localMediaIn(revision.content)) hashes.add(hash)
  }
  for (const operation of sync.operations(accountId)) for (const hash of mediaOfOperation(operation)) hashes.add(hash)
  return [...hashes]
}

function mediaOfOperation(operation: Operation): string[] {
  switch (operation.kind) {
    case 'post.create':
    case 'post.update':
      return localMediaIn(operation.payload.post.content)
    case 'upload':
    case 'photo':
      return [operation.payload.hash]
    case 'post.delete':
    case 'list-item':
      return []
  }
}

/** Two spellings of one address (a trailing slash, the case of the host) are the same server. */
function sameAddress(a: string, b: string): boolean {
  return new URL(a).href.replace(/\/+$/, '') === new URL(b).href.replace(/\/+$/, '')
}
