// Core on its own thread, as the app runs it: a real worker thread opening a real store, publishing to the real
// service, with this test playing the main thread (its fetch, vault, images and platform serve the thread's asks).
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createWsseHeader } from '../../src-protocol'
import type { OutboxItem } from '../../src-shared/contract'
import { CoreError, DataInUseError, FileVault, inProcessImages, type CoreOptions, type Fetch, type ImageWorker, type Vault } from '../core'
import { approveSignIn } from '../core/testing/authorize-page'
import { testCipher } from '../core/testing/core-fixture'
import { createTestPlatform, type TestPlatform } from '../core/testing/test-platform'
import { startCoreThread, type ShellCore } from '.'

const entry = new URL('./testing/typescript-entry.mjs', import.meta.url)

let workDir: string
let platform: TestPlatform
/** What the main thread was asked for, in order: each request core made, each secret kept, each image job. */
let asked: string[]
let options: CoreOptions
const started: ShellCore[] = []

beforeEach(() => {
  workDir = mkdtempSync(join(tmpdir(), 'blogdesk-core-thread-'))
  platform = createTestPlatform(workDir)
  asked = []
  const fetch: Fetch = (input, init) => {
    asked.push(`${init?.method ?? 'GET'} ${String(input)}`)
    return globalThis.fetch(input, init)
  }
  const files = new FileVault(join(workDir, 'secrets.bin'), testCipher)
  const vault: Vault = {
    get: (key) => files.get(key),
    set: (key, secret) => (asked.push(`vault set ${key}`), files.set(key, secret)),
    delete: (key) => files.delete(key),
  }
  const images: ImageWorker = { run: (job) => (asked.push(`image ${job.kind}`), inProcessImages.run(job)) }
  options = { dataDir: join(workDir, 'data'), vault, fetch, images, platform }
})

afterEach(async () => {
  for (const core of started.splice(0)) await core.close()
  await platform.dispose()
  rmSync(workDir, { recursive: true, force: true })
})

async function start(): Promise<ShellCore> {
  const core = await startCoreThread(entry, options)
  started.push(core)
  return core
}

/** Resolves with the first outbox item `core` announces in `state`. */
function announced(core: ShellCore, state: OutboxItem['state']): Promise<OutboxItem> {
  return new Promise((resolve) => {
    const stop = core.onEvent((event, payload) => {
      if (event !== 'outbox:changed' || (payload as OutboxItem).state !== state) return
      stop()
      resolve(payload as OutboxItem)
    })
  })
}

describe('core on its own thread', () => {
  it('publishes a draft: its requests go through the main thread, its secrets to the main thread vault, its events come back', async () => {
    const core = await start()
    const account = await core.handlers['accounts:trySandbox'](null)
    const [weblog] = await core.handlers['weblogs:list']({ accountId: account.id, refresh: false })
    const draft = await core.handlers['drafts:create']({ accountId: account.id, weblogPostUri: weblog!.postUri })
    await core.handlers['drafts:save']({ draftId: draft.id, title: 'Written off the main thread', content: '<p>Hello</p>' })
    const done = announced(core, 'done')
    await core.handlers['drafts:publish']({ draftId: draft.id })
    expect((await done).title).toBe('Written off the main thread')

    expect(asked).toContainEqual(`POST ${weblog!.postUri}`)
    expect(asked.filter((entry) => entry.startsWith('vault set'))).not.toHaveLength(0)
    const { username, apiPassword } = platform.sandbox!.sandbox
    const feed = await fetch(weblog!.feedUri!, { headers: { 'X-WSSE': createWsseHeader({ username, password: apiPassword }) } })
    expect(await feed.text()).toContain('Written off the main thread')
  })

  it('signs in with OAuth in a page the main thread shows, and closes it once approved', async () => {
    const core = await start()
    await platform.startSandbox()
    const { sandbox } = platform.sandbox!
    const account = await core.handlers['accounts:add']({ atomBase: sandbox.atomBase, username: sandbox.username, apiPassword: sandbox.apiPassword })
    platform.onAuthorizePage((url) => approveSignIn(url, { username: sandbox.username, password: sandbox.loginPassword }))

    const connected = await core.handlers['accounts:connectJson']({
      accountId: account.id,
      jsonBase: sandbox.jsonBase,
      apiKey: sandbox.apiKey,
      apiSecret: sandbox.apiSecret,
    })
    expect(connected.json).toEqual({ jsonBase: sandbox.jsonBase, username: sandbox.username })
    expect(platform.authorizePages).toEqual([{ url: expect.stringContaining('/oauth/authorize?oauth_token='), closed: true }])
  })

  it('runs image jobs where the main thread says', async () => {
    const core = await start()
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c33' } }).png().toBuffer()
    const image = await core.handlers['media:importBytes']({ name: 'red.png', type: 'image/png', bytes: new Uint8Array(bytes) })
    expect(image).toMatchObject({ width: 40, height: 30 })
    expect(image.previewUrl).toMatch(/^data:image\//)
    expect(asked).toContain('image editor-preview')
  })

  it('gives the main thread the failures core explains as themselves', async () => {
    const core = await start()
    const failure = await core.handlers['drafts:get']({ draftId: 'no-such-draft' }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(CoreError)
    expect(failure).toMatchObject({ code: 'not-found' })

    // A kind of CoreError (the transport's RequestFailure) too, with its words.
    const unreachable = await core.handlers['accounts:add']({ atomBase: 'http://127.0.0.1:9', username: 'ana', apiPassword: 'secret' }).catch(
      (error: unknown) => error,
    )
    expect(unreachable).toBeInstanceOf(CoreError)
    expect(unreachable).toMatchObject({ code: 'offline', message: expect.stringMatching(/^Could not reach 127\.0\.0\.1:9/) })
  })

  it('fails to start, saying why, while another running Blogdesk has the data', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'])
    try {
      mkdirSync(options.dataDir)
      writeFileSync(join(options.dataDir, 'blogdesk.sqlite.pid'), `${other.pid}\n`)
      const refused = await startCoreThread(entry, options).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(DataInUseError)
      expect((refused as Error).message).toContain(`Blogdesk is already running (process ${other.pid})`)
    } finally {
      other.kill()
    }
  })

  it('hears from the main thread when the computer goes offline and comes back', async () => {
    const core = await start()
    platform.setOnline(false)
    await expect.poll(async () => (await core.handlers['app:status'](null)).online, { timeout: 10_000 }).toBe(false)
    platform.setOnline(true)
    await expect.poll(async () => (await core.handlers['app:status'](null)).online, { timeout: 10_000 }).toBe(true)
  })

  it('fails every call, saying what to do, once the thread has died, and still closes', async () => {
    const core = await startCoreThread(new URL('./testing/dying-entry.mjs', import.meta.url), options)
    const during = await core.handlers['outbox:tryNow'](null).catch((error: unknown) => error)
    expect(during).toBeInstanceOf(CoreError)
    expect(during).toMatchObject({ code: 'bug', message: expect.stringMatching(/stopped unexpectedly \(exit code 3\)\. Quit and open Blogdesk again/) })
    await expect(core.handlers['app:status'](null)).rejects.toThrow(/stopped unexpectedly/)
    await core.close()

    // The dead thread's hold on the data does not keep the next start out.
    expect(await (await start()).handlers['app:status'](null)).toMatchObject({ online: true })
  })

  it('closes its store when closed, so the next start finds what was written', async () => {
    const first = await start()
    const account = await first.handlers['accounts:trySandbox'](null)
    const [weblog] = await first.handlers['weblogs:list']({ accountId: account.id, refresh: false })
    const draft = await first.handlers['drafts:create']({ accountId: account.id, weblogPostUri: weblog!.postUri })
    await first.handlers['drafts:save']({ draftId: draft.id, title: 'Kept across a restart' })
    await first.close()
    started.splice(started.indexOf(first), 1)
    await expect(first.handlers['drafts:get']({ draftId: draft.id })).rejects.toThrow(/core has stopped/)

    const second = await start()
    expect((await second.handlers['drafts:get']({ draftId: draft.id })).title).toBe('Kept across a restart')
  })
})
