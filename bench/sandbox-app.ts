// The post editor's benches (typing, opening, preview) start alike: Blogdesk's service in a process of its own, the
// built app's bench over a core holding the sandbox's account, and drafts of its first weblog saved through core.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Weblog, WeblogAddress } from '../src-shared/contract'
import { startServiceProcess } from '../src-service/testing/service-process'
import { openBrowserBench, type BrowserBench } from './browser'

export interface SandboxAppBench {
  bench: BrowserBench
  weblog: Weblog
  address: WeblogAddress
  /** A draft of the weblog with this title and HTML, as the editor saves one. */
  seedDraft(title: string, content: string): Promise<void>
  close(): Promise<void>
}

/** `name` names the temporary folder (blogdesk-bench-<name>-…). */
export async function openSandboxAppBench(name: string): Promise<SandboxAppBench> {
  const workDir = await mkdtemp(join(tmpdir(), `blogdesk-bench-${name}-`))
  const service = await startServiceProcess(join(workDir, 'service'))
  let bench: BrowserBench | undefined
  const close = async () => {
    await bench?.close()
    await service.stop()
    await rm(workDir, { recursive: true, force: true })
  }
  try {
    bench = await openBrowserBench()
    const { core } = bench
    const account = await core.accounts.add(service.sandbox)
    const [weblog] = await core.accounts.weblogs(account.id)
    if (!weblog) throw new Error('The sandbox lists no weblog.')
    const address = { accountId: account.id, weblogPostUri: weblog.postUri }
    return {
      bench,
      weblog,
      address,
      async seedDraft(title, content) {
        const draft = await core.handlers['drafts:create'](address)
        await core.handlers['drafts:save']({ draftId: draft.id, title, content })
      },
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
