// Reads the service's root listing directly, as any Atom client would, so tests compare the UI with what the server
// says rather than with titles copied into the test.
import { createWsseHeader, readLinkFeed } from '../../src-protocol'
import type { Sandbox } from '../../src-service/testing/service-fixture'

export async function fetchWeblogTitles(sandbox: Sandbox): Promise<string[]> {
  const rootUrl = `${sandbox.atomBase}/t/atom/weblog`
  const response = await fetch(rootUrl, {
    headers: {
      'X-WSSE': createWsseHeader({ username: sandbox.username, password: sandbox.apiPassword }),
      Authorization: 'WSSE profile="UsernameToken"',
    },
  })
  if (!response.ok) throw new Error(`GET ${rootUrl} answered ${response.status}: ${await response.text()}`)
  return readLinkFeed(await response.text(), rootUrl)
    .filter((link) => link.rel === 'service.post')
    .map((link) => link.title ?? '')
}

/** What the sidebar calls the account once its weblogs are read: its first weblog and the user. */
export async function accountLabelOf(sandbox: Sandbox): Promise<string> {
  const [first] = await fetchWeblogTitles(sandbox)
  return `${first} — ${sandbox.username}`
}
