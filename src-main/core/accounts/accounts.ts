// Accounts: where a person publishes. The store keeps the address and username; the API password lives in the vault.
import { randomUUID } from 'node:crypto'
import { BlogdeskError, type AccountSummary, type NewAccount, type Weblog } from '../../../src-preload/contract'
import { discoverWeblogRoot, listWeblogs, type Fetch } from '../atom'
import type { LocalStore, Row } from '../store'
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

  constructor(options: { store: LocalStore; vault: Vault; fetch: Fetch; onChanged: (accounts: AccountSummary[]) => void }) {
    this.#store = options.store
    this.#vault = options.vault
    this.#fetch = options.fetch
    this.#changed = options.onChanged
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
    const account = this.#find(accountId)
    const password = await this.#vault.get(apiPasswordKey(account.id))
    if (password === null) {
      throw new BlogdeskError('auth', `The API password for ${account.username} is missing from this computer's keychain. Remove the account and add it again.`)
    }
    return listWeblogs(this.#fetch, account.weblogRoot, { username: account.username, password })
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
