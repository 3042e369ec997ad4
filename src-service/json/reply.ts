// JSON answers: `application/json`, and errors as {"error": {"status", "message"}} (docs/PROTOCOL.md, "JSON
// interface").
import type { Reply } from '../routes/reply'
import type { ErrorJson } from './shapes'

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return jsonDocumentReply(status, JSON.stringify(value), headers)
}

/** A document already serialised (a cached one). */
export function jsonDocumentReply(status: number, document: string, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...headers },
    body: document,
  }
}

/** The message is for people: it says what happened and what to do next. */
export function jsonError(status: number, message: string, headers: Record<string, string> = {}): Reply {
  const error: ErrorJson = { error: { status, message } }
  return jsonReply(status, error, headers)
}
