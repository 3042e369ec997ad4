// The demo application's OAuth credentials: a consumer secret for its API key, and an access token the demo user has
// already approved, so the app can read the JSON interface at once, without the sign-in dance.
import type { Store } from '../store'

export interface DemoOAuthCredentials {
  apiSecret: string
  authToken: string
  authTokenSecret: string
}

/** Issues whatever is missing (on first start, or in a data dir from before OAuth) and returns the credentials. */
export function ensureDemoOAuth(store: Store, apiKey: string, userId: number): Promise<DemoOAuthCredentials> {
  return store.transaction(async () => {
    const apiSecret = (await store.oauth.consumerSecret(apiKey)) ?? (await store.oauth.issueConsumerSecret(apiKey))
    const [approved] = await store.oauth.accessTokensOf(apiKey, userId)
    const { token, secret } = approved ?? (await store.oauth.issueAccessToken(apiKey, userId))
    return { apiSecret, authToken: token, authTokenSecret: secret }
  })
}
