// The single place that reads window.blog. Every call resolves to its value or throws an ApiError, so stores
// handle failures with try/catch and can still tell offline from a refused password from a bug by `code`.
import { channels, type BlogApi, type Envelope } from '../../../src-shared/contract'
import { ApiError } from './apiError'

// Stores take the calls and what they fail with from one place.
export { ApiError, toApiError } from './apiError'

declare global {
  interface Window {
    /** Set by the preload (contextBridge); absent when the page is opened outside Blogdesk. */
    readonly blog?: BlogApi
  }
}

type Unwrapped<F> = F extends (...args: infer A) => Promise<Envelope<infer R>> ? (...args: A) => Promise<R> : F

/** window.blog with each channel's envelope unwrapped; event subscriptions pass through unchanged. */
export type Api = { [N in keyof BlogApi]: { [M in keyof BlogApi[N]]: Unwrapped<BlogApi[N][M]> } }

async function unwrap(call: () => Promise<Envelope<unknown>>): Promise<unknown> {
  let envelope: Envelope<unknown>
  try {
    envelope = await call()
  } catch (error) {
    throw new ApiError(
      'bug',
      `Blogdesk lost contact with its main process (${error instanceof Error ? error.message : String(error)}). Restart Blogdesk; your data is safe.`,
    )
  }
  if (envelope.ok) return envelope.value
  throw new ApiError(envelope.error.code, envelope.error.message)
}

function buildApi(blog: BlogApi | undefined): Api {
  if (!blog) throw new Error('window.blog is missing: this page only works inside Blogdesk, loaded with its preload.')
  const channelNames = new Set<string>(channels)
  const api: Record<string, Record<string, unknown>> = {}
  for (const [space, members] of Object.entries(blog as Record<string, Record<string, (...args: unknown[]) => unknown>>)) {
    const namespace: Record<string, unknown> = (api[space] = {})
    for (const [name, member] of Object.entries(members)) {
      namespace[name] = channelNames.has(`${space}:${name}`)
        ? (...args: unknown[]) => unwrap(() => member(...args) as Promise<Envelope<unknown>>)
        : member
    }
  }
  return api as Api
}

export const api: Api = buildApi(window.blog)
