// Core's own failures, sorted by what a person can do about them. Core knows nothing of IPC: src-main/ipc turns a
// CoreError into the contract's Failure, and anything else a handler throws counts there as an unexplained defect.

export type CoreErrorCode =
  /** No network, or the server did not answer: try again later. */
  | 'offline'
  /** The server refused the credentials. */
  | 'auth'
  /** The server says our clock and its clock disagree. */
  | 'clock-skew'
  /** The server answered, but refused the request (4xx) or is not what we expected; or core refuses the change. */
  | 'rejected'
  /** What core was asked to do does not make sense: a bad address, an empty name, a file that is not an image. */
  | 'invalid-argument'
  /** The thing asked for does not exist (here). */
  | 'not-found'
  /** Something in Blogdesk itself broke (the built-in sandbox would not start): the person can only report it. */
  | 'bug'

/** A failure a person can act on; its message says, in words, what happened and what to do next. */
export class CoreError extends Error {
  readonly code: CoreErrorCode

  constructor(code: CoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'CoreError'
    this.code = code
  }
}
