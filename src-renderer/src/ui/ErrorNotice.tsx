import type { Failure, FailureCode } from '../../../src-shared/contract'
import { Alert, type AlertTone } from './Alert'
import { Button } from './Button'

interface Appearance {
  title: string
  tone: AlertTone
  /** True when the same request may succeed later without the person changing anything they typed. */
  retryable: boolean
}

// The main process writes the message (what happened, what to do); here each kind of failure only gets a heading,
// a tone, and whether trying again can help.
const appearances: { [C in FailureCode]: Appearance } = {
  offline: { title: 'Server unreachable', tone: 'warning', retryable: true },
  auth: { title: 'Sign-in refused', tone: 'error', retryable: false },
  'clock-skew': { title: 'Clock out of step', tone: 'warning', retryable: true },
  rejected: { title: 'The server refused', tone: 'error', retryable: false },
  'invalid-argument': { title: 'Check the details', tone: 'error', retryable: false },
  'not-found': { title: 'Not found', tone: 'error', retryable: false },
  bug: { title: 'Something went wrong in Blogdesk', tone: 'error', retryable: true },
}

export function isRetryable(code: FailureCode): boolean {
  return appearances[code].retryable
}

export interface ErrorNoticeProps {
  error: Failure
  /** Shows a Retry button that calls this. */
  onRetry?: () => void
  className?: string
}

export function ErrorNotice({ error, onRetry, className }: ErrorNoticeProps) {
  const { title, tone } = appearances[error.code]
  return (
    <Alert
      tone={tone}
      title={title}
      className={className}
      actions={
        onRetry && (
          <Button variant="secondary" onClick={onRetry}>
            Retry
          </Button>
        )
      }
    >
      <p>{error.message}</p>
    </Alert>
  )
}
