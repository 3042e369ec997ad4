// Movable Type 7's legacy Atom endpoint, replayed from captures: Blogdesk must work with servers that are not ours.
import { afterEach, describe, expect, it } from 'vitest'
import { openTestCore, type CoreFixture } from '../testing/core-fixture'
import { readCapturedResponse, startReplayPeer, type ReplayPeer } from '../testing/replay-peer'

const recordedOrigin = 'http://127.0.0.1:5080'
const weblogRootPath = '/cgi-bin/mt-atom.cgi/weblog'

describe('adding a Movable Type account', () => {
  let peer: ReplayPeer
  let fixture: CoreFixture
  afterEach(async () => {
    await peer.close()
    await fixture.dispose()
  })

  async function setUp(capture: string, serverClockOffsetMs = 0) {
    peer = await startReplayPeer({ [weblogRootPath]: readCapturedResponse(capture) }, { recordedOrigin, serverClockOffsetMs })
    fixture = await openTestCore()
    return {
      add: (atomBase = `${peer.origin}${weblogRootPath}`) =>
        fixture.core.handlers['accounts:add']({ atomBase, username: 'Melody', apiPassword: 'secret' }),
    }
  }

  it('reads both weblogs of the root listing with every URI the server announced', async () => {
    const { add } = await setUp('mt/ok/01-root-weblogs.txt')
    const account = await add()
    expect(account.label).toBe(`Melody @ ${new URL(peer.origin).host}`)

    const weblogs = await fixture.core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
    expect(weblogs).toEqual([
      {
        title: 'Peer Site #1',
        schedulesPosts: false,
        postUri: `${peer.origin}${weblogRootPath}/blog_id=1`,
        feedUri: `${peer.origin}${weblogRootPath}/blog_id=1`,
        uploadUri: `${peer.origin}${weblogRootPath}/blog_id=1/svc=upload`,
        categoriesUri: `${peer.origin}${weblogRootPath}/blog_id=1/svc=categories`,
        homeUrl: `${peer.origin}/site/`,
      },
      {
        title: 'Peer Blog #2',
        schedulesPosts: false,
        postUri: `${peer.origin}${weblogRootPath}/blog_id=2`,
        feedUri: `${peer.origin}${weblogRootPath}/blog_id=2`,
        uploadUri: `${peer.origin}${weblogRootPath}/blog_id=2/svc=upload`,
        categoriesUri: `${peer.origin}${weblogRootPath}/blog_id=2/svc=categories`,
        homeUrl: `${peer.origin}/site/blog/`,
      },
    ])
  })

  it('signs every request with a fresh WSSE token, as XML::Atom does', async () => {
    const { add } = await setUp('mt/ok/01-root-weblogs.txt')
    const account = await add()
    await fixture.core.handlers['weblogs:list']({ accountId: account.id, refresh: true })
    const tokens = peer.requests.map((request) => String(request.headers['x-wsse']))
    expect(tokens).toHaveLength(2)
    for (const token of tokens) expect(token).toMatch(/^UsernameToken Username="Melody", PasswordDigest="[^"]+", Nonce="[^"]+", Created="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/)
    expect(tokens[0]).not.toBe(tokens[1])
  })

  it('finds the listing from the mt-atom.cgi address alone', async () => {
    const { add } = await setUp('mt/ok/01-root-weblogs.txt')
    await expect(add(`${peer.origin}/cgi-bin/mt-atom.cgi`)).resolves.toMatchObject({ username: 'Melody' })
  })

  it("explains MT's 403 for a wrong password as a sign-in problem, quoting the server, and adds nothing", async () => {
    const { add } = await setUp('mt/err/03-bad-password-digest.txt')
    await expect(add()).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/refused the sign-in: "X-WSSE PasswordDigest is incorrect" Check both; the API password is/),
    })
    expect(await fixture.core.handlers['accounts:list'](null)).toEqual([])
  })

  it('recognises a server whose clock is an hour off and says to fix the clock', async () => {
    const { add } = await setUp('mt/err/07-created-1h-old.txt', -60 * 60 * 1000)
    await expect(add()).rejects.toMatchObject({ code: 'clock-skew', message: expect.stringMatching(/about 60 minutes ahead/) })
  })
})
