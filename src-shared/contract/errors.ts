// How failures cross IPC: as data the renderer can branch on, never as a thrown Error (which Electron flattens).

export type FailureCode =
  /** No network, or the server did not answer: try again later. */
  | 'offline'
  /** The server refused the credentials. */
  | 'auth'
  /** The server says our clock and its clock disagree. */
  | 'clock-skew'
  /** The server answered, but refused the request (4xx) or is not what we expected. */
  | 'rejected'
  /** The renderer sent arguments that do not fit the contract. */
  | 'invalid-argument'
  /** The thing asked for does not exist (here). */
  | 'not-found'
  /** A defect in Blogdesk. */
  | 'bug'

export interface Failure {
  code: FailureCode
  /** Words for a person: what happened and what to do next. */
  message: string
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: Failure }
