// The preview's look: the weblog's public page read in main (core/preview), kept in the cache per weblog so the
// preview shows the weblog's look offline too, and a neutral reading style, with the reason, when there is none.
import type { WeblogLook, WeblogLookRequest, WeblogStyle } from '../../../src-shared/contract'
import { CoreError } from '../errors'
import { LookFailure, readWeblogLook, type PostOnTheWeblog } from '../preview'
import type { Cached } from '../store'
import { accountsForSync } from '../sync'
import type { HandlersOf, Services } from './services'

/** A look read within this long is shown without asking the weblog again: themes change rarely. */
export const LOOK_FRESH_MS = 24 * 60 * 60 * 1000
/** The newest posts tried against the page: one of them is usually on the frontpage whole. */
const KNOWN_POSTS = 5

export function previewHandlers(services: Services): HandlersOf<'preview'> {
  const { accounts, caches, platform } = services
  const clients = accountsForSync(accounts, services.fetch)

  async function knownPosts(accountId: string, feedUri: string | null): Promise<PostOnTheWeblog[]> {
    if (feedUri === null) return []
    const page = await clients
      .atomClient(accountId)
      .feedPage(feedUri)
      .catch((error: unknown) => {
        if (error instanceof CoreError && error.code !== 'bug') return caches.feedPage(accountId, feedUri)?.value ?? null
        throw error
      })
    return (page?.posts ?? []).slice(0, KNOWN_POSTS)
  }

  async function readLook({ accountId, weblogPostUri }: WeblogLookRequest, cached: Cached<WeblogStyle> | null): Promise<WeblogLook> {
    const fallback = (reason: string): WeblogLook =>
      cached
        ? { style: cached.value, note: `The weblog’s look could not be read again: ${reason}. This is how it looked when last read.`, fetchedAt: cached.fetchedAt }
        : { style: null, note: `Shown in a neutral style: ${reason}.`, fetchedAt: null }
    if (!platform.connectivity.isOnline()) return fallback('this computer is offline')
    let weblogs
    try {
      weblogs = caches.weblogs(accountId)?.value ?? (await accounts.weblogs(accountId))
    } catch (error) {
      if (error instanceof CoreError && error.code !== 'bug') return fallback(lowerFirst(error.message))
      throw error
    }
    const weblog = weblogs.find((candidate) => candidate.postUri === weblogPostUri)
    if (!weblog) return fallback('this weblog is no longer among the account’s weblogs')
    if (weblog.homeUrl === null) return fallback('its server names no public page for it (no alternate link)')
    try {
      const read = await readWeblogLook({
        fetch: services.fetch,
        pageUrl: weblog.homeUrl,
        // The account points to its server and to the weblog's public page; the preview reads nothing elsewhere.
        allowedOrigins: [accounts.summary(accountId).atomBase, weblog.postUri],
        knownPosts: await knownPosts(accountId, weblog.feedUri),
      })
      caches.replaceWeblogLook(accountId, weblogPostUri, read.style)
      const skipped = read.skipped.length
      return {
        style: read.style,
        note: skipped === 0 ? null : `${skipped === 1 ? 'One stylesheet' : `${skipped} stylesheets`} of the weblog could not be read here, so the preview may differ a little.`,
        fetchedAt: caches.weblogLook(accountId, weblogPostUri)!.fetchedAt,
      }
    } catch (error) {
      if (error instanceof LookFailure) return fallback(error.message)
      throw error
    }
  }

  return {
    async 'preview:look'(request) {
      const cached = caches.weblogLook(request.accountId, request.weblogPostUri)
      if (cached && !request.refresh && Date.now() - Date.parse(cached.fetchedAt) < LOOK_FRESH_MS) {
        return { style: cached.value, note: null, fetchedAt: cached.fetchedAt }
      }
      return readLook(request, cached)
    },
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '')
}
