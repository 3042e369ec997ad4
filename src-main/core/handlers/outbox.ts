// The outbox namespace: what is waiting to be sent or needs the person, and their Retry and Discard; each
// operation's new state and an upload's progress reach the renderer as events.
import type { HandlersOf, Services } from './services'
import { outboxItemOf } from './outbox-items'

export function outboxHandlers(services: Services): HandlersOf<'outbox'> {
  const { sync, drafts, emit, onClose } = services
  onClose(
    sync.on('changed', ({ operation }) => {
      if (operation) emit('outbox:changed', outboxItemOf(operation, drafts))
    }),
  )
  onClose(sync.on('progress', (progress) => emit('outbox:progress', progress)))

  return {
    'outbox:list': async () => sync.operations().map((operation) => outboxItemOf(operation, drafts)),

    'outbox:retry': async ({ operationId }) => {
      sync.retry(operationId)
      return null
    },

    'outbox:discard': async ({ operationId }) => {
      sync.discard(operationId)
      return null
    },

    'outbox:tryNow': async () => {
      sync.sendNow()
      return null
    },
  }
}
