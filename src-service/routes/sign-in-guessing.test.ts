// Guessing login passwords on the OAuth sign-in page. Request tokens are free, so the limit per request token alone
// let anyone guess as fast as they could ask for new ones; failures now count per account and per client address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formFields, signedFetch, type KeyAndSecret } from '../testing/oauth-client'
import { ivy, melody, signedGet, startTestService, type ServiceFixture, type TestAccount } from '../testing/service-fixture'
import { MAX_SIGN_IN_ATTEMPTS } from './oauth'

const GUESSES = 59

describe('password guessing on the sign-in page', () => {
  let service: ServiceFixture
  let consumer: KeyAndSecret
  beforeAll(async () => {
    service = await startTestService([melody, ivy], async (store) => {
      const apiKey = await store.applications.issueApiKey((await store.applications.add('Guesser')).id)
      consumer = { key: apiKey, secret: await store.oauth.issueConsumerSecret(apiKey) }
    })
  })
  afterAll(() => service.dispose())

  async function requestToken(): Promise<string> {
    const response = await signedFetch(consumer, `${service.origin}/oauth/request_token`, { method: 'POST', form: { oauth_callback: 'oob' } })
    expect(response.status).toBe(200)
    return (await formFields(response))['oauth_token']!
  }

  /** Signs in on a fresh request token's page, as a browser would; the answer's status and its page. */
  async function signIn(username: string, password: string): Promise<{ status: number; page: string }> {
    const token = await requestToken()
    const form = await (await fetch(`${service.origin}/oauth/authorize?oauth_token=${token}`)).text()
    const formToken = /name="form_token" value="([^"]+)"/.exec(form)?.[1] ?? ''
    const response = await fetch(`${service.origin}/oauth/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ oauth_token: token, form_token: formToken, username, password, decision: 'approve' }),
      redirect: 'manual',
    })
    return { status: response.status, page: await response.text() }
  }

  const wrongGuesses = (account: string, count: number) =>
    Promise.all(Array.from({ length: count }, (_, guess) => signIn(account, `guess ${guess}`)))

  it('refuses even the right password once an account has had its share of wrong ones, saying until when', async () => {
    const started = performance.now()
    const answers = await wrongGuesses(melody.username, GUESSES)
    console.log(`${GUESSES} wrong guesses answered in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    const checked = answers.filter(({ page }) => /username or password is wrong/.test(page))
    expect(checked.length).toBeLessThanOrEqual(MAX_SIGN_IN_ATTEMPTS)
    for (const { status, page } of answers.filter((answer) => !checked.includes(answer))) {
      expect(status).toBe(429)
      expect(page).toMatch(/Too many wrong passwords/)
    }

    const right = await signIn(melody.username, melody.loginPassword)
    expect(right.status).toBe(429)
    expect(right.page).toMatch(/Signing in as melody is paused for [1-9]\d* (?:second|minute)s?/)
    expect(right.page).toMatch(/publishing tools that use the API password keep working/)
  }, 60_000)

  it('never locks the owner out of publishing: WSSE with the API password still works', async () => {
    expect((await signedGet(`${service.origin}/t/atom/weblog`, melody)).status).toBe(200)
  })

  it('pauses a client address that guesses across many accounts, for every account', async () => {
    const accounts: TestAccount['username'][] = Array.from({ length: 30 }, (_, index) => `someone-${index}`)
    await Promise.all(accounts.map((account) => signIn(account, 'a guess')))
    const right = await signIn(ivy.username, ivy.loginPassword)
    expect(right.status).toBe(429)
    expect(right.page).toMatch(/Too many wrong passwords were sent from your address/)
  }, 60_000)
})
