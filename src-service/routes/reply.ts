// What a handler answers. Handlers return a Reply instead of writing to the response, so the router alone
// decides how bytes reach the socket and what happens when a handler throws.
import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import { ATOM_MEDIA_TYPE, writeErrorDocument } from '../../src-protocol'

export interface Reply {
  status: number
  headers?: Record<string, string>
  /** A stream (a media file) is piped; give its Content-Length in `headers` when known. */
  body?: string | Buffer | Readable
}

export interface RequestContext {
  request: IncomingMessage
  /** The service's own origin (e.g. http://127.0.0.1:4321); every href it sends starts with it. */
  origin: string
  /** The named segments of the route's pattern, decoded: `/blog_id=:blogId` gives `{ blogId }`. */
  params: Record<string, string>
}

export type Handler = (context: RequestContext) => Reply | Promise<Reply>

/** A refusal a handler throws from any depth; the router answers it as an `<error>` with this status. */
export class HttpError extends Error {
  readonly status: number
  readonly headers: Record<string, string>

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'HttpError'
    this.status = status
    this.headers = headers
  }
}

export function atomReply(status: number, xml: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': `${ATOM_MEDIA_TYPE}; charset=utf-8`, ...headers }, body: xml }
}

/** `<error>message</error>`; the message is for people, so it says what happened and what to do. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'Content-Type': 'text/xml; charset=utf-8', ...headers },
    body: writeErrorDocument(message),
  }
}
