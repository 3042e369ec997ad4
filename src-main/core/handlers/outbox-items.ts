// Core's outbox operations as the renderer's status panel shows them: what each is about in words, where its result
// lives, and when it is tried next. Shared by every handler that answers with an OutboxItem.
import type { OutboxItem } from '../../../src-shared/contract'
import type { Drafts } from '../store'
import { heldMessage, heldUntil, type Operation } from '../sync'

export function outboxItemOf(operation: Operation, drafts: Drafts): OutboxItem {
  return {
    id: operation.id,
    accountId: operation.accountId,
    kind: operation.kind,
    state: operation.state,
    title: titleOf(operation, drafts),
    queueKey: operation.queueKey,
    draftId: operation.draftId,
    attempts: operation.attempts,
    lastError: operation.lastError ?? (heldUntil(operation) > Date.now() ? heldMessage(heldUntil(operation)) : null),
    nextAttemptAt: operation.state === 'queued' && operation.nextAttemptAt > 0 ? new Date(operation.nextAttemptAt).toISOString() : null,
    enqueuedAt: operation.enqueuedAt,
    resultUrl: resultUrlOf(operation),
  }
}

function titleOf(operation: Operation, drafts: Drafts): string {
  switch (operation.kind) {
    case 'post.create':
    case 'post.update':
      return operation.payload.post.title.trim() || 'Untitled'
    case 'post.delete': {
      const draft = operation.draftId === null ? null : drafts.get(operation.draftId)
      return draft?.title.trim() || 'Untitled'
    }
    case 'upload':
      return operation.payload.name
    case 'photo':
      return operation.payload.title
    case 'list-item': {
      // Once sent, the server's own title ("Artist - Song"); before, the field the person typed that names it.
      const { fields } = operation.payload.item
      return operation.result?.title || fields['title'] || fields['name'] || fields['url'] || 'A list item'
    }
  }
}

function resultUrlOf(operation: Operation): string | null {
  if (operation.result === null) return null
  switch (operation.kind) {
    case 'post.create':
    case 'post.update':
      return operation.result.permalink
    case 'upload':
      return operation.result.url
    case 'photo':
      return operation.result.url
    case 'post.delete':
    case 'list-item':
      return null
  }
}
