// The app as it runs in Electron: core on a thread of its own, the test process playing the main thread (the bridge to
// the window, and core's fetch and vault served from here). A post written and published in the window reaches the
// weblog, every request of core's going through this thread's fetch, as Electron's net.request.
import { join } from 'node:path'
import { FileVault, type Fetch } from '../src-main/core'
import { testCipher } from '../src-main/core/testing/core-fixture'
import { startCoreThread } from '../src-main/core-thread'
import { expect, test as base } from './fixtures'
import { saveScreenshot } from './harness/screenshots'
import { fetchWeblogTitles } from './harness/weblog-listing'
import { EditorModel, fetchWeblogPosts } from './models/editor'

/** What core asked of this thread's fetch, as method and URL. */
const requested: string[] = []

const test = base.extend({
  shell: async ({ appDataDir, platform }, use) => {
    const fetch: Fetch = (input, init) => {
      requested.push(`${init?.method ?? 'GET'} ${String(input)}`)
      return globalThis.fetch(input, init)
    }
    const core = await startCoreThread(new URL('../src-main/core-thread/testing/typescript-entry.mjs', import.meta.url), {
      dataDir: appDataDir,
      platform,
      vault: new FileVault(join(appDataDir, 'secrets.bin'), testCipher),
      fetch,
    })
    await use(core)
    await core.close()
  },
})

test('with core on its own thread, a post written in the window is published to the weblog', async ({ app, service }, testInfo) => {
  const editor = new EditorModel(app.page)
  const [weblog] = await fetchWeblogTitles(service.sandbox)
  await app.addAccount(service.sandbox)
  await editor.openDrafts(weblog!)
  await editor.write('Written off the main thread', ['The window stays free while core works on its own thread.'])
  await expect(editor.saveState).toHaveText('Saved locally')

  await editor.publishByKeys()
  await expect(editor.stateBadge).toHaveText('Published')
  await saveScreenshot(app.page, testInfo, 'core-thread-published.png')

  const post = (await fetchWeblogPosts(service.sandbox, weblog!)).find((candidate) => candidate.title === 'Written off the main thread')
  expect(post, 'the post is in the weblog’s feed').toBeDefined()
  expect(requested, 'core sent it through the main thread').toContainEqual(expect.stringMatching(/^POST http:\/\/127\.0\.0\.1:\d+\/t\/atom\/weblog/))
})
