// The person's part of an OAuth sign-in, for tests: what a browser does with the service's authorize page (shows it
// and sends its form), with the answer the test chooses.
import { expect } from 'vitest'

/** Sends the authorize page's form; returns where the service sends the browser next (core's loopback callback). */
export async function answerAuthorizePage(
  authorizeUrl: string,
  decision: 'approve' | 'deny',
  login: { username: string; password: string },
): Promise<string> {
  const page = await fetch(authorizeUrl)
  expect(page.status).toBe(200)
  const html = await page.text()
  const field = (name: string) => unescapeHtml(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!)
  const action = new URL(unescapeHtml(/<form method="post" action="([^"]*)"/.exec(html)![1]!), authorizeUrl)
  const sent = await fetch(action, {
    method: 'POST',
    body: new URLSearchParams({
      oauth_token: field('oauth_token'),
      form_token: field('form_token'),
      username: login.username,
      password: login.password,
      decision,
    }),
    redirect: 'manual',
  })
  expect(sent.status).toBe(303)
  return sent.headers.get('location')!
}

/** Signs in and approves on the authorize page, then follows the redirect to core's callback, as a browser would. */
export async function approveSignIn(authorizeUrl: string, login: { username: string; password: string }): Promise<void> {
  const callback = await fetch(await answerAuthorizePage(authorizeUrl, 'approve', login))
  expect(callback.status).toBe(200)
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_entity, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!)
}
