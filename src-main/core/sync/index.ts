export { accountsForSync, type AccountsForSync } from './accounts'
export { DEFAULT_RETRY_POLICY, retryDelay, systemClock, type Clock, type RetryPolicy } from './clock'
export {
  DEFAULT_CONCURRENCY,
  SyncEngine,
  type NewListItem,
  type NewPhoto,
  type NewUpload,
  type PausedAccount,
  type SyncChange,
  type SyncEngineOptions,
  type SyncEvents,
  type SyncProgress,
} from './engine'
export { LOCAL_MEDIA_SCHEME, localMediaIn, localMediaReference, withPublicMedia } from './inline-media'
export type {
  Operation,
  OperationKind,
  OperationPayloads,
  OperationResults,
  OperationState,
  OutboxCounts,
  PostSnapshot,
  PublishedPost,
} from './operations'
export { PROBE_SCHEDULE_MS, Reachability, originOf, type ServerReach } from './reachability'
export { RECONCILE_MAX_PAGES } from './reconcile'
export { heldMessage, heldUntil } from './scheduling'
export { contentHash, sameText } from './versions'
