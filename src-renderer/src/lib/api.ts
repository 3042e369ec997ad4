// The single place that reads window.blog. Every call resolves to its value or throws an ApiError, so stores
// handle failures with try/catch and can still tell offline from a refused password from a bug by `code`.
import {
  channels,
  events,
  type BlogApi,
  type Channel,
  type Envelope,
  type RequestOf,
} from '../../../src-shared/contract'
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
        ? (...args: unknown[]) =>
            unwrap(() => takeAskedAhead(`${space}:${name}`, args[0]) ?? (member(...args) as Promise<Envelope<unknown>>))
        : member
    }
  }
  return api as Api
}

export const api: Api = buildApi(window.blog)

/** Answers asked for before the code that uses them ran, by channel and request; each is taken once. */
const askedAhead = new Map<string, Promise<Envelope<unknown>>>()
let followingEvents = false

/**
 * Sends a call now whose answer the first identical call through `api` takes instead of asking again: for the
 * window's first screen, asked for before the window's code is loaded (see firstReads.ts). Until taken, any event
 * from the main process drops every answer asked ahead: the stores follow events only once their code runs, so an
 * answer older than an event they missed is asked for again.
 */
export function askAhead<C extends Channel>(channel: C, request: RequestOf<C>): void {
  type Call = (request: unknown) => Promise<Envelope<unknown>>
  const blog = window.blog as unknown as Record<string, Record<string, Call>>
  const [space, method] = channel.split(':') as [string, string]
  const answer = blog[space]![method]!(request)
  // One never taken must not be reported as an unhandled failure: the call that takes it handles its failure.
  answer.catch(() => undefined)
  askedAhead.set(aheadKey(channel, request), answer)
  if (!followingEvents) dropAskedAheadOnEvents(blog)
}

function dropAskedAheadOnEvents(blog: Record<string, Record<string, unknown>>): void {
  followingEvents = true
  const stops = events.map((event) => {
    const [space, name] = event.split(':') as [string, string]
    const listenerName = `on${name.charAt(0).toUpperCase()}${name.slice(1)}`
    const subscribe = blog[space]![listenerName] as (listener: () => void) => () => void
    return subscribe(() => {
      askedAhead.clear()
      for (const stop of stops) stop()
    })
  })
}

function takeAskedAhead(channel: string, request: unknown): Promise<Envelope<unknown>> | undefined {
  const key = aheadKey(channel, request)
  const answer = askedAhead.get(key)
  askedAhead.delete(key)
  return answer
}

function aheadKey(channel: string, request: unknown): string {
  return `${channel}\n${JSON.stringify(request ?? null)}`
}
