// What a handler answers. Handlers return a Reply instead of writing to the response, so the router alone
// decides how bytes reach the socket and what happens when a handler throws.
import type { IncomingMessage } from 'node:http'
import { ATOM_MEDIA_TYPE, writeErrorDocument } from '../../src-protocol'

export interface Reply {
  status: number
  headers?: Record<string, string>
  body?: string
}

export interface RequestContext {
  request: IncomingMessage
  /** The service's own origin (e.g. http://127.0.0.1:4321); every href it sends starts with it. */
  origin: string
}

export type Handler = (context: RequestContext) => Reply | Promise<Reply>

export function atomReply(xml: string): Reply {
  return { status: 200, headers: { 'Content-Type': `${ATOM_MEDIA_TYPE}; charset=utf-8` }, body: xml }
}

/** `<error>message</error>`; the message is for people, so it says what happened and what to do. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'Content-Type': 'text/xml; charset=utf-8', ...headers },
    body: writeErrorDocument(message),
  }
}
