// What the contract's handlers work with: core's parts, opened once by openCore and shared by every namespace.
import type { CoreHandlers, Event, Events } from '../../../src-shared/contract'
import type { Accounts } from '../accounts'
import type { Fetch } from '../atom'
import type { FeedPoller } from '../feed'
import type { ImageWorker } from '../media'
import type { Platform } from '../platform'
import type { Caches, Drafts, LocalStore, MediaCopies, WeblogSettings } from '../store'
import type { Reachability, SyncEngine } from '../sync'

export type CoreEventListener = <E extends Event>(event: E, payload: Events[E]) => void

export interface Services {
  store: LocalStore
  accounts: Accounts
  sync: SyncEngine
  feed: FeedPoller
  /** What core knows of each server's reachability, from the outcome of its requests. */
  reachability: Reachability
  drafts: Drafts
  caches: Caches
  media: MediaCopies
  platform: Platform
  fetch: Fetch
  /** Thumbnails and the editor's previews (sharp), in a helper process in the app. */
  images: ImageWorker
  /** What this computer keeps for each weblog (the widest image sent). */
  weblogSettings: WeblogSettings
  /** Sends a contract event to the renderer. */
  emit: CoreEventListener
  /** Runs `cleanup` when core closes: for subscriptions a namespace makes to core's parts. */
  onClose(cleanup: () => void): void
}

/** The handlers of the channels `<namespace>:…`: each namespace's module answers its own. */
export type HandlersOf<Namespace extends string> = Pick<CoreHandlers, Extract<keyof CoreHandlers, `${Namespace}:${string}`>>
