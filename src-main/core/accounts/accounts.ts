// Accounts: where a person publishes. The store keeps the address and username; the API password lives in the vault.
// An account may also have a side on the JSON interface, signed in with OAuth (json-side.ts).
import { randomUUID } from 'node:crypto'
import type { WsseCredentials } from '../../../src-protocol'
import type { AccountSummary, NewAccount, Weblog } from '../../../src-shared/contract'
import { CoreError } from '../errors'
import { discoverWeblogRoot, listWeblogs, type Fetch } from '../atom'
import type { JsonClient } from '../json'
import type { LocalStore, Row } from '../store'
import { JsonSides, type JsonConsumer, type JsonCredentials, type JsonSide } from './json-side'
import type { Vault } from './vault'

interface StoredAccount {
  id: string
  atomBase: string
  weblogRoot: string
  username: string
  jsonBase: string | null
  jsonUsername: string | null
}

const apiPasswordKey = (accountId: string) => `account:${accountId}:api-password`

export class Accounts {
  readonly #store: LocalStore
  readonly #vault: Vault
  readonly #fetch: Fetch
  readonly #changed: (accounts: AccountSummary[]) => void
  readonly #pausedReason: (accountId: string) => string | null
  readonly #weblogTitle: (accountId: string) => string | null
  readonly #json: JsonSides

  constructor(options: {
    store: LocalStore
    vault: Vault
    fetch: Fetch
    onChanged: (accounts: AccountSummary[]) => void
    /** Why the sync engine paused the account's publishing (the server refused its password), or null. */
    pausedReason?: (accountId: string) => string | null
    /** The title of the account's first weblog as last read, which names the account; null before it is read. */
    weblogTitle?: (accountId: string) => string | null
    /** How long an OAuth sign-in waits for the person to answer (ten minutes by default). */
    signInTimeoutMs?: number
  }) {
    this.#store = options.store
    this.#vault = options.vault
    this.#fetch = options.fetch
    this.#changed = options.onChanged
    this.#pausedReason = options.pausedReason ?? (() => null)
    this.#weblogTitle = options.weblogTitle ?? (() => null)
    this.#json = new JsonSides(options)
  }

  list(): AccountSummary[] {
    return this.#store.all('SELECT * FROM accounts ORDER BY created_at, id').map((row) => this.#summarize(fromRow(row)))
  }

  summary(accountId: string): AccountSummary {
    return this.#summarize(this.#find(accountId))
  }

  /** Tells whoever follows the accounts how they stand now, e.g. after the sync engine paused or resumed one. */
  announce(): void {
    this.#changed(this.list())
  }

  /** Adds an account only after the server has accepted its credentials and shown its weblog listing. */
  async add(request: NewAccount): Promise<AccountSummary> {
    const atomBase = request.atomBase.trim()
    const username = request.username.trim()
    const credentials = { username, password: request.apiPassword }
    const { weblogRoot } = await discoverWeblogRoot(this.#fetch, atomBase, credentials)
    if (this.#store.get('SELECT 1 FROM accounts WHERE weblog_root = :weblogRoot AND username = :username', { weblogRoot, username })) {
      throw new CoreError('rejected', `${username} at ${new URL(weblogRoot).host} is already in your accounts.`)
    }
    const account: StoredAccount = { id: randomUUID(), atomBase, weblogRoot, username, jsonBase: null, jsonUsername: null }
    await this.#vault.set(apiPasswordKey(account.id), request.apiPassword)
    try {
      this.#store.run(
        `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
         VALUES (:id, :atomBase, :weblogRoot, :username, :createdAt)`,
        { id: account.id, atomBase, weblogRoot, username, createdAt: new Date().toISOString() },
      )
    } catch (error) {
      await this.#vault.delete(apiPasswordKey(account.id))
      throw error
    }
    this.#changed(this.list())
    return this.#summarize(account)
  }

  /**
   * Keeps a new API password once the server has accepted it by showing the weblog listing; a refused one changes
   * nothing. Resuming publishing that a refusal paused is the sync engine's part.
   */
  async updatePassword(accountId: string, apiPassword: string): Promise<AccountSummary> {
    const account = this.#find(accountId)
    await listWeblogs(this.#fetch, account.weblogRoot, { username: account.username, password: apiPassword })
    await this.#vault.set(apiPasswordKey(account.id), apiPassword)
    return this.#summarize(this.#find(accountId))
  }

  /**
   * Forgets the account: its row and, with it, everything the store keeps for it (drafts and their revisions, caches,
   * outbox operations, friends and their events, by the schema's cascades), then its secrets in the vault. The sync
   * engine must not be sending for it meanwhile (SyncEngine.holdAccount).
   */
  async remove(accountId: string): Promise<void> {
    const account = this.#find(accountId)
    this.#store.run('DELETE FROM accounts WHERE id = :accountId', { accountId: account.id })
    // The row goes first: secrets left by a failure here are unreachable, whereas a row without its secrets is not.
    await this.#vault.delete(apiPasswordKey(account.id))
    await this.#json.forget(account.id)
    this.#changed(this.list())
  }

  /** The weblog root listing the account was found at; its gallery and lists roots sit beside it (collectionRoot). */
  weblogRoot(accountId: string): string {
    return this.#find(accountId).weblogRoot
  }

  async weblogs(accountId: string): Promise<Weblog[]> {
    return listWeblogs(this.#fetch, this.#find(accountId).weblogRoot, await this.wsseCredentials(accountId))
  }

  /** The username and API password that sign this account's Atom requests. */
  async wsseCredentials(accountId: string): Promise<WsseCredentials> {
    const account = this.#find(accountId)
    const password = await this.#vault.get(apiPasswordKey(account.id))
    if (password === null) {
      throw new CoreError('auth', `The API password for ${account.username} is missing from this computer's keychain. Remove the account and add it again.`)
    }
    return { username: account.username, password }
  }

  /** The account's side on the JSON interface, or null when it has none. */
  jsonSide(accountId: string): JsonSide | null {
    return this.#json.describe(this.#find(accountId).id)
  }

  /** Gives the account a JSON side with an access token approved elsewhere (the sandbox's), once the service accepts it. */
  async attachJson(accountId: string, credentials: JsonCredentials): Promise<JsonSide> {
    const side = await this.#json.attach(this.#find(accountId).id, credentials)
    this.#changed(this.list())
    return side
  }

  /**
   * Starts signing the account in to a JSON service with OAuth: the shell opens `authorizeUrl` in a window, and
   * `completion` settles once the person has answered there and the access token is kept (or says why not).
   */
  async beginOAuthSignIn(
    accountId: string,
    consumer: JsonConsumer,
  ): Promise<{ authorizeUrl: string; completion: Promise<AccountSummary>; cancel: () => void }> {
    const account = this.#find(accountId)
    const signIn = await this.#json.beginSignIn(account.id, consumer)
    const completion = signIn.completion.then(() => {
      this.#changed(this.list())
      return this.summary(account.id)
    })
    return { ...signIn, completion }
  }

  /** The JSON client of the account's JSON side, signing with its access token. */
  jsonClient(accountId: string): JsonClient {
    return this.#json.client(this.#find(accountId).id)
  }

  #summarize(account: StoredAccount): AccountSummary {
    return {
      id: account.id,
      label: accountLabel(this.#weblogTitle(account.id), account.username, account.weblogRoot),
      atomBase: account.atomBase,
      username: account.username,
      json: account.jsonBase === null ? null : { jsonBase: account.jsonBase, username: account.jsonUsername },
      paused: this.#pausedReason(account.id),
    }
  }

  #find(accountId: string): StoredAccount {
    const row = this.#store.get('SELECT * FROM accounts WHERE id = :accountId', { accountId })
    if (!row) throw new CoreError('not-found', 'That account is no longer in Blogdesk; it may have been removed.')
    return fromRow(row)
  }
}

function fromRow(row: Row): StoredAccount {
  return {
    id: String(row['id']),
    atomBase: String(row['atom_base']),
    weblogRoot: String(row['weblog_root']),
    username: String(row['username']),
    jsonBase: row['json_base'] == null ? null : String(row['json_base']),
    jsonUsername: row['json_username'] == null ? null : String(row['json_username']),
  }
}

/**
 * What the person calls the account: its weblog and who writes there ("Melody's Weblog — melody"); its server's
 * address only until the weblog's title is known.
 */
export function accountLabel(weblogTitle: string | null, username: string, weblogRoot: string): string {
  return weblogTitle ? `${weblogTitle} — ${username}` : `${username} @ ${new URL(weblogRoot).host}`
}
