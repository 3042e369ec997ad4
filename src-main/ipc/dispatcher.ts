// Core's handlers behind the contract's dispatcher, in the app (ipc/index.ts) and in the e2e harness alike: the one
// place where a CoreError becomes the Failure the renderer is shown. Nothing here needs Electron.
import { createDispatcher, type Dispatcher, type Failure, type FailureCode, type Handlers } from '../../src-shared/contract'
import { CoreError, type CoreErrorCode } from '../core'

/** The contract's code for each of core's, spelled out: a new kind of failure in core must be given one here. */
const FAILURE_CODES: { [C in CoreErrorCode]: FailureCode } = {
  offline: 'offline',
  auth: 'auth',
  'clock-skew': 'clock-skew',
  rejected: 'rejected',
  'invalid-argument': 'invalid-argument',
  'not-found': 'not-found',
  bug: 'bug',
}

/** What the renderer is told of a failure core explains; null for anything else, which is a defect. */
export function failureOf(error: unknown): Failure | null {
  return error instanceof CoreError ? { code: FAILURE_CODES[error.code], message: error.message } : null
}

export function dispatcherFor(handlers: Handlers, reportBug?: (error: unknown) => void): Dispatcher {
  return createDispatcher(handlers, { failureOf, reportBug })
}
