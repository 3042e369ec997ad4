// Both ends of the bridge, built from the channel table: `buildBlogApi` makes window.blog on the renderer side,
// `createDispatcher` answers its calls on the main side. The e2e harness uses these very functions.
import { ContractViolation } from './checks'
import {
  channels,
  events,
  requestChecks,
  type Channel,
  type Event,
  type Events,
  type RequestOf,
  type ResultOf,
  type ShellChannel,
} from './channels'
import type { Envelope, Failure } from './errors'

type NamespaceOf<K> = K extends `${infer N}:${string}` ? N : never
type MethodOf<K> = K extends `${string}:${infer M}` ? M : never
type ListenerName<E> = `on${Capitalize<MethodOf<E>>}`

type Call<C extends Channel> = RequestOf<C> extends null
  ? () => Promise<Envelope<ResultOf<C>>>
  : (request: RequestOf<C>) => Promise<Envelope<ResultOf<C>>>

/**
 * `window.blog`: one namespace per channel prefix, one method per channel, one `on<Event>` per event; and
 * `files.pathOf`, the path of a dropped or picked file, which only the preload can read (Electron's webUtils).
 */
export type BlogApi = ChannelApi & { files: { pathOf(file: File): string } }

type ChannelApi = {
  [N in NamespaceOf<Channel | Event>]: {
    [C in Channel as NamespaceOf<C> extends N ? MethodOf<C> : never]: Call<C>
  } & {
    [E in Event as NamespaceOf<E> extends N ? ListenerName<E> : never]: (
      listener: (payload: Events[E]) => void,
    ) => () => void
  }
}

/** What carries calls and events between the processes: ipcRenderer in the preload, a Playwright binding in e2e. */
export interface Transport {
  invoke(channel: Channel, request: unknown): Promise<Envelope<unknown>>
  /** Calls `listener` with each payload of `event`; returns the unsubscribe function. */
  subscribe(event: Event, listener: (payload: unknown) => void): () => void
  /** The path on disk of a File from a drop or an <input type=file>; empty when it has none (made in the page). */
  pathOf(file: File): string
}

export function buildBlogApi(transport: Transport): BlogApi {
  const api: Record<string, Record<string, unknown>> = {}
  const namespace = (name: string) => (api[name] ??= {})
  for (const channel of channels) {
    const [space, method] = channel.split(':') as [string, string]
    namespace(space)[method] = (request?: unknown) => transport.invoke(channel, request ?? null)
  }
  for (const event of events) {
    const [space, name] = event.split(':') as [string, string]
    const listenerName = `on${name.charAt(0).toUpperCase()}${name.slice(1)}`
    namespace(space)[listenerName] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`${listenerName} needs a function`)
      return transport.subscribe(event, (payload) => listener(payload))
    }
  }
  namespace('files').pathOf = (file: unknown) => {
    if (!(file instanceof File)) throw new TypeError('pathOf needs a File from a drop or a file input')
    return transport.pathOf(file)
  }
  return Object.freeze(api) as unknown as BlogApi
}

export type Handlers = { [C in Channel]: (request: RequestOf<C>) => Promise<ResultOf<C>> }
/** What core answers: every channel but the shell's own. */
export type CoreHandlers = Omit<Handlers, ShellChannel>
/** What the Electron shell answers itself. */
export type ShellHandlers = Pick<Handlers, ShellChannel>

export type Dispatcher = (channel: string, request: unknown) => Promise<Envelope<unknown>>

export interface DispatcherOptions {
  /** The Failure a person is shown for what a handler threw; null when it is a defect in Blogdesk. */
  failureOf(error: unknown): Failure | null
  /** Where defects go; the console (as it is when the defect happens) unless given. */
  reportBug?(error: unknown): void
}

/** Checks each request against the contract, runs its handler, and turns every outcome into an Envelope. */
export function createDispatcher(handlers: Handlers, { failureOf, reportBug = (error) => console.error(error) }: DispatcherOptions): Dispatcher {
  return async (channel, request) => {
    try {
      if (!Object.hasOwn(requestChecks, channel)) throw new ContractViolation(`"${channel}"`, 'is not a channel')
      const known = channel as Channel
      const checked = requestChecks[known](request, 'request')
      const handler = handlers[known] as (request: unknown) => Promise<unknown>
      return { ok: true, value: await handler(checked) }
    } catch (error) {
      if (error instanceof ContractViolation) return { ok: false, error: { code: 'invalid-argument', message: error.message } }
      const failure = failureOf(error)
      if (failure) return { ok: false, error: failure }
      reportBug(error)
      return {
        ok: false,
        error: {
          code: 'bug',
          message: `Blogdesk hit an internal error (${describe(error)}). Your data is safe; please report this.`,
        },
      }
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

