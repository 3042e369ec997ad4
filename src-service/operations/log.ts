// Structured logs (`--log json`): one JSON line on stdout for each request answered and for the service's start, stop
// and errors, for a log collector to read. Lines carry no credentials, headers, bodies or query strings (where OAuth
// tokens travel). Without a log (`--log none`, the default, which tests and the app's sandbox use) stdout carries only
// the `listening on` line and errors go to stderr as text, as they always have.
import { AsyncLocalStorage } from 'node:async_hooks'

export const LOG_FORMATS = ['none', 'json'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

export type LogLevel = 'info' | 'warn' | 'error'

export class JsonLog {
  readonly #write: (line: string) => void

  /** `write` receives each line, newline included; stdout by default. */
  constructor(write: (line: string) => void = (line) => process.stdout.write(line)) {
    this.#write = write
  }

  write(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
    this.#write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`)
  }
}

interface RequestContext {
  log: JsonLog | null
  requestId: string
}

/** The request being answered, so that an error reported deep inside a handler names it. */
const currentRequest = new AsyncLocalStorage<RequestContext>()

export function runInRequest<T>(context: RequestContext, work: () => T): T {
  return currentRequest.run(context, work)
}

/**
 * Reports a failure the service did not expect (a bug, or a database gone): a JSON line naming the request when the
 * service logs JSON, else `message` and the error on stderr.
 */
export function reportError(message: string, error: unknown): void {
  const context = currentRequest.getStore()
  if (!context?.log) {
    console.error(message, error)
    return
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  context.log.write('error', 'error', { requestId: context.requestId, message, error: detail })
}
