// The built-in sandbox's demo account (--demo): seeded on first start, its credentials written to sandbox.json on
// every start because the port changes. The app reads that file to sign in to the sandbox.
import { randomBytes } from 'node:crypto'
import { chmodSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SANDBOX_FILE, type SandboxFile } from '../../src-protocol'
import type { MediaLibrary } from '../media/library'
import type { ServiceResources } from '../resources'
import type { Store, Weblog } from '../store'
import { seedDemoLists } from './lists'
import { ensureDemoOAuth } from './oauth'
import { ensureDemoAlbum } from './photos'
import { seedDemoPosts } from './posts'
import { ensureDemoSocial } from './social'

/** The demo account's part of sandbox.json: all but the addresses, which change with the port. */
export type SandboxAccount = Omit<SandboxFile, 'atomBase' | 'jsonBase'>

const DEMO_USER = { username: 'melody', displayName: 'Melody Nelson' }
const DEMO_WEBLOGS = [
  { title: 'Valse de Melody', slug: 'valse-de-melody' },
  { title: "L'hôtel particulier", slug: 'hotel-particulier' },
]
const DEMO_APPLICATION = 'Blogdesk'

/** Seeds the demo account unless it exists (and its photo album, whose thumbnails take a moment), and returns its credentials. */
export async function ensureDemoAccount(store: Store, library: MediaLibrary, resources: ServiceResources): Promise<SandboxAccount> {
  // The store keeps login passwords only as hashes, yet sandbox.json shows it on every start: derive it from the
  // data dir's key, so it is stable without being stored anywhere.
  const loginPassword = store.secrets.derive('demo login password')
  await store.transaction(async () => {
    if (await store.users.find(DEMO_USER.username)) return
    const apiPassword = randomBytes(18).toString('base64url')
    const user = await store.users.add({ ...DEMO_USER, loginPassword, apiPassword })
    const weblogs: Weblog[] = []
    for (const weblog of DEMO_WEBLOGS) weblogs.push(await store.weblogs.add({ ownerId: user.id, ...weblog }))
    await seedDemoPosts(store, user.id, weblogs[0]!)
    await seedDemoLists(store, user.id, resources.catalogueFile)
    await store.applications.issueApiKey((await store.applications.add(DEMO_APPLICATION)).id)
  })

  const apiPassword = await store.users.apiPasswordOf(DEMO_USER.username)
  const [apiKey] = await store.applications.apiKeysOf(DEMO_APPLICATION)
  if (apiPassword === null || apiKey === undefined) {
    throw new Error(`The demo account in this data dir has no ${apiPassword === null ? 'user' : 'API key'}`)
  }
  const userId = (await store.users.find(DEMO_USER.username))!.id
  await ensureDemoAlbum(store, library, userId, resources.demoPhotosFolder)
  await ensureDemoSocial(store, userId)
  return { username: DEMO_USER.username, apiPassword, apiKey, loginPassword, ...(await ensureDemoOAuth(store, apiKey, userId)) }
}

/** Writes sandbox.json (owner-only: it holds passwords) for a service reachable at `origin`. */
export function writeSandboxFile(dataDir: string, origin: string, account: SandboxAccount): void {
  const file = join(dataDir, SANDBOX_FILE)
  const partial = `${file}.partial`
  const sandbox: SandboxFile = { atomBase: origin, jsonBase: origin, ...account }
  writeFileSync(partial, `${JSON.stringify(sandbox, null, 2)}\n`, { mode: 0o600 })
  chmodSync(partial, 0o600) // mode only applies when the file is created
  // A reader never sees a half-written file.
  renameSync(partial, file)
}
