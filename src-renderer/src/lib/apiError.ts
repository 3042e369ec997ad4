// What a call to the main process can fail with, apart from the call itself (api.ts): components hold and show these
// failures, while only stores and small feature modules make the calls.
import type { FailureCode } from '../../../src-shared/contract'

export class ApiError extends Error {
  readonly code: FailureCode

  constructor(code: FailureCode, message: string) {
    super(message)
    this.name = 'ApiError'
    this.code = code
  }
}

/** Anything a call can throw, as an ApiError; errors from outside the API count as defects in Blogdesk. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const detail = error instanceof Error ? error.message : String(error)
  return new ApiError('bug', `Blogdesk hit an internal error (${detail}). Your data is safe; please report this.`)
}
