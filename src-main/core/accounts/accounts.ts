// Accounts: where a person publishes. The store keeps the address and username; the API password lives in the vault.
// An account may also have a side on the JSON interface, signed in with OAuth (json-side.ts).
import { randomUUID } from 'node:crypto'
import type { WsseCredentials } from '../../../src-protocol'
import { BlogdeskError, type AccountSummary, type NewAccount, type Weblog } from '../../../src-preload/contract'
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
}

const apiPasswordKey = (accountId: string) => `account:${accountId}:api-password`

export class Accounts {
  readonly #store: LocalStore
  readonly #vault: Vault
  readonly #fetch: Fetch
  readonly #changed: (accounts: AccountSummary[]) => void
  readonly #json: JsonSides

  constructor(options: {
    store: LocalStore
    vault: Vault
    fetch: Fetch
    onChanged: (accounts: AccountSummary[]) => void
    /** How long an OAuth sign-in waits for the person to answer (ten minutes by default). */
    signInTimeoutMs?: number
  }) {
    this.#store = options.store
    this.#vault = options.vault
    this.#fetch = options.fetch
    this.#changed = options.onChanged
    this.#json = new JsonSides(options)
  }

  list(): AccountSummary[] {
    return this.#store.all('SELECT * FROM accounts ORDER BY created_at, id').map(fromRow).map(summarize)
  }

  /** Adds an account only after the server has accepted its credentials and shown its weblog listing. */
  async add(request: NewAccount): Promise<AccountSummary> {
    const atomBase = request.atomBase.trim()
    const username = request.username.trim()
    const credentials = { username, password: request.apiPassword }
    const { weblogRoot } = await discoverWeblogRoot(this.#fetch, atomBase, credentials)
    if (this.#store.get('SELECT 1 FROM accounts WHERE weblog_root = :weblogRoot AND username = :username', { weblogRoot, username })) {
      throw new BlogdeskError('rejected', `${username} at ${new URL(weblogRoot).host} is already in your accounts.`)
    }
    const account: StoredAccount = { id: randomUUID(), atomBase, weblogRoot, username }
    await this.#vault.set(apiPasswordKey(account.id), request.apiPassword)
    try {
      this.#store.run(
        `INSERT INTO accounts (id, atom_base, weblog_root, username, created_at)
         VALUES (:id, :atomBase, :weblogRoot, :username, :createdAt)`,
        { ...account, createdAt: new Date().toISOString() },
      )
    } catch (error) {
      await this.#vault.delete(apiPasswordKey(account.id))
      throw error
    }
    this.#changed(this.list())
    return summarize(account)
  }

  async weblogs(accountId: string): Promise<Weblog[]> {
    return listWeblogs(this.#fetch, this.#find(accountId).weblogRoot, await this.wsseCredentials(accountId))
  }

  /** The username and API password that sign this account's Atom requests. */
  async wsseCredentials(accountId: string): Promise<WsseCredentials> {
    const account = this.#find(accountId)
    const password = await this.#vault.get(apiPasswordKey(account.id))
    if (password === null) {
      throw new BlogdeskError('auth', `The API password for ${account.username} is missing from this computer's keychain. Remove the account and add it again.`)
    }
    return { username: account.username, password }
  }

  /** The account's side on the JSON interface, or null when it has none. */
  jsonSide(accountId: string): JsonSide | null {
    return this.#json.describe(this.#find(accountId).id)
  }

  /** Gives the account a JSON side with an access token approved elsewhere (the sandbox's), once the service accepts it. */
  attachJson(accountId: string, credentials: JsonCredentials): Promise<JsonSide> {
    return this.#json.attach(this.#find(accountId).id, credentials)
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
    return { ...signIn, completion: signIn.completion.then(() => summarize(account)) }
  }

  /** The JSON client of the account's JSON side, signing with its access token. */
  jsonClient(accountId: string): JsonClient {
    return this.#json.client(this.#find(accountId).id)
  }

  #find(accountId: string): StoredAccount {
    const row = this.#store.get('SELECT * FROM accounts WHERE id = :accountId', { accountId })
    if (!row) throw new BlogdeskError('not-found', 'That account is no longer in Blogdesk; it may have been removed.')
    return fromRow(row)
  }
}

function fromRow(row: Row): StoredAccount {
  return {
    id: String(row['id']),
    atomBase: String(row['atom_base']),
    weblogRoot: String(row['weblog_root']),
    username: String(row['username']),
  }
}

function summarize(account: StoredAccount): AccountSummary {
  return {
    id: account.id,
    label: `${account.username} @ ${new URL(account.weblogRoot).host}`,
    atomBase: account.atomBase,
    username: account.username,
  }
}
