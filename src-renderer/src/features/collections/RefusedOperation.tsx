import type { OutboxItem } from '../../../../src-shared/contract'
import { Alert, Button } from '../../ui'

interface RefusedOperationProps {
  item: OutboxItem
  /** What did not happen: "Not uploaded", "Not added". */
  title: string
  /** Said when the server gave no reason. */
  fallback: string
  onRetry(): void
  onDiscard(): void
}

/** A photo or list item the server refused, with its reason in words, and Retry or Discard. */
export function RefusedOperation({ item, title, fallback, onRetry, onDiscard }: RefusedOperationProps) {
  return (
    <Alert
      tone="error"
      title={title}
      actions={
        <>
          <Button onClick={onRetry}>Retry</Button>
          <Button variant="quiet" onClick={onDiscard}>
            Discard
          </Button>
        </>
      }
    >
      <p>{item.lastError ?? fallback}</p>
    </Alert>
  )
}
