// What the sync engine needs of accounts: a client that signs each request with the account's current password,
// and the account's weblogs (for the UploadURI and FeedURI of a weblog not in the cache).
import type { Weblog } from '../../../src-shared/contract'
import type { Accounts } from '../accounts'
import { AtomClient, type Fetch } from '../atom'

export interface AccountsForSync {
  atomClient(accountId: string): AtomClient
  weblogs(accountId: string): Promise<Weblog[]>
}

/** The accounts of the local store as the sync engine sees them; one client per account, asked for its password on every request. */
export function accountsForSync(accounts: Accounts, fetch: Fetch, options: { timeoutMs?: number } = {}): AccountsForSync {
  const clients = new Map<string, AtomClient>()
  return {
    atomClient(accountId) {
      let client = clients.get(accountId)
      if (!client) {
        client = new AtomClient({ fetch, credentials: () => accounts.wsseCredentials(accountId), timeoutMs: options.timeoutMs })
        clients.set(accountId, client)
      }
      return client
    },
    weblogs: (accountId) => accounts.weblogs(accountId),
  }
}
