// Every IPC channel and event, declared once. Adding a channel here makes the compiler demand its request check
// (below), its main-process handler (Handlers) and its preload method (BlogApi).
import {
  boolean,
  bytes,
  httpUrl,
  integer,
  list,
  nothing,
  nullable,
  oneOf,
  optional,
  record,
  text,
  textMap,
  type Check,
  utcDateTime,
} from './checks'
import { IMAGE_WIDTH_LIMITS } from './shapes'
import type {
  AccountRef,
  AccountSummary,
  ActivityEvent,
  AlbumPhoto,
  CollectionContents,
  AppCommand,
  AppStatus,
  CategoriesRequest,
  CategoryListing,
  CollectionListing,
  CollectionRef,
  CollectionsRequest,
  ConflictResolution,
  DraftEdit,
  DraftPosition,
  DraftRef,
  DraftsPage,
  DraftsPageRequest,
  DraftSummary,
  FeedSlice,
  FeedState,
  FileRef,
  FriendRef,
  FriendSummary,
  JsonConnection,
  ListContents,
  LocalImage,
  MediaRef,
  NewAccount,
  NewAlbumPhoto,
  NewFriend,
  NewListEntry,
  OperationRef,
  OutboxItem,
  PasswordChange,
  PastedImage,
  Person,
  PhotoPreview,
  PostDraft,
  PostsPage,
  PostsPageRequest,
  QueuedPhoto,
  RemoteImagesChoice,
  RemotePostRef,
  RestoredDraft,
  RevisionRef,
  RevisionSummary,
  RevisionText,
  SearchRequest,
  SearchResults,
  SeenRef,
  TrashedDraft,
  UploadProgress,
  Weblog,
  WeblogAddress,
  WeblogsRequest,
  WeblogImageSettings,
  WeblogSettingsEdit,
  WeblogLook,
  WeblogLookRequest,
} from './shapes'

export interface Channels {
  'accounts:list': { request: null; result: AccountSummary[] }
  'accounts:add': { request: NewAccount; result: AccountSummary }
  'accounts:remove': { request: AccountRef; result: null }
  /** Checks the new API password with the server, keeps it, and resumes the account's paused publishing. */
  'accounts:updatePassword': { request: PasswordChange; result: AccountSummary }
  /** Checks the API key, then signs in with OAuth in a window; resolves once signed in. */
  'accounts:connectJson': { request: JsonConnection; result: AccountSummary }
  'accounts:cancelSignIn': { request: AccountRef; result: null }
  /** Starts the built-in sandbox service and adds its demo account (Atom and JSON sides). */
  'accounts:trySandbox': { request: null; result: AccountSummary }
  'weblogs:list': { request: WeblogsRequest; result: Weblog[] }

  'app:status': { request: null; result: AppStatus }
  /** Opens an http(s) link in the person's browser. */
  'app:openExternal': { request: { url: string }; result: null }
  /** The window's answer to 'app:quitting': what was typed is saved (or could not be), quitting may go on. */
  'app:readyToQuit': { request: null; result: null }

  'outbox:list': { request: null; result: OutboxItem[] }
  'outbox:retry': { request: OperationRef; result: null }
  'outbox:discard': { request: OperationRef; result: null }
  /** Tries every server that cannot be reached now, and makes everything waiting due: the person's "Try now". */
  'outbox:tryNow': { request: null; result: null }

  'drafts:list': { request: DraftsPageRequest; result: DraftsPage }
  'drafts:create': { request: WeblogAddress; result: PostDraft }
  'drafts:get': { request: DraftRef; result: PostDraft }
  'drafts:save': { request: DraftEdit; result: DraftSummary }
  'drafts:revisions': { request: DraftRef; result: RevisionSummary[] }
  'drafts:restore': { request: RevisionRef; result: RestoredDraft }
  /** Queues the draft for publishing; resolves once the queue is safely on disk. */
  'drafts:publish': { request: DraftRef; result: DraftSummary }
  /** Moves a draft never published to the Trash; queues the deletion of a published post. */
  'drafts:remove': { request: DraftRef; result: null }
  /** The weblog's drafts in the Trash, the most recently trashed first. */
  'drafts:trash': { request: WeblogAddress; result: TrashedDraft[] }
  /** Brings a draft back from the Trash. */
  'drafts:untrash': { request: DraftRef; result: PostDraft }
  /** Deletes a draft in the Trash for good, with its history. */
  'drafts:deleteForever': { request: DraftRef; result: null }
  'drafts:resolveConflict': { request: ConflictResolution; result: PostDraft }
  /** One revision's text, for the History's preview and difference. */
  'drafts:revision': { request: RevisionRef; result: RevisionText }
  /** Deletes for good every draft in the weblog's Trash. */
  'drafts:emptyTrash': { request: WeblogAddress; result: null }

  /** The account's drafts and cached posts matching the words, best first, the matches marked. */
  'search:query': { request: SearchRequest; result: SearchResults }

  'media:importFile': { request: FileRef; result: LocalImage }
  'media:importBytes': { request: PastedImage; result: LocalImage }
  'media:preview': { request: MediaRef; result: LocalImage }

  'posts:page': { request: PostsPageRequest; result: PostsPage }
  /** Opens a published post in the editor: its local draft, made from the server's copy if there is none. */
  'posts:edit': { request: RemotePostRef; result: PostDraft }
  'posts:delete': { request: RemotePostRef; result: null }

  'categories:list': { request: CategoriesRequest; result: CategoryListing }

  'albums:list': { request: CollectionsRequest; result: CollectionListing }
  'albums:photos': { request: CollectionRef; result: CollectionContents<AlbumPhoto> }
  'photos:preview': { request: FileRef; result: PhotoPreview }
  'photos:add': { request: NewAlbumPhoto; result: OutboxItem }

  'lists:list': { request: CollectionsRequest; result: CollectionListing }
  'lists:items': { request: CollectionRef; result: ListContents }
  'photos:queued': { request: CollectionRef; result: QueuedPhoto[] }
  'lists:add': { request: NewListEntry; result: OutboxItem }

  'friends:list': { request: AccountRef; result: FriendSummary[] }
  'friends:add': { request: NewFriend; result: FriendSummary }
  'friends:remove': { request: FriendRef; result: null }
  /** Whether images in the friend's events may load from their servers (off for a new friend). */
  'friends:setRemoteImages': { request: RemoteImagesChoice; result: FriendSummary }
  /** The people the account's own user added as neighbours. */
  'friends:neighbours': { request: AccountRef; result: Person[] }

  /** The friend's feed as cached, without waiting for the service. */
  'feed:open': { request: FriendRef; result: FeedState }
  'feed:events': { request: FeedSlice; result: ActivityEvent[] }
  'feed:refresh': { request: FriendRef; result: FeedState }
  'feed:older': { request: FriendRef; result: FeedState }
  'feed:markSeen': { request: SeenRef; result: FriendSummary }

  /** What this computer keeps for the weblog: the widest its posts' images are sent at. */
  'weblogs:settings': { request: WeblogAddress; result: WeblogImageSettings }
  'weblogs:saveSettings': { request: WeblogSettingsEdit; result: WeblogImageSettings }
  /** The weblog's own look (its stylesheets and the frame around a post), read by main and cached for offline use. */
  'preview:look': { request: WeblogLookRequest; result: WeblogLook }
}

export interface Events {
  'accounts:changed': AccountSummary[]
  'app:statusChanged': AppStatus
  'app:command': AppCommand
  /** Blogdesk is quitting: save what was typed, then answer with 'app:readyToQuit'. */
  'app:quitting': null
  /** One operation's new state. */
  'outbox:changed': OutboxItem
  'outbox:progress': UploadProgress
  'drafts:changed': DraftSummary
  'friends:updated': FriendSummary
}

export type Channel = keyof Channels
/** The channels the Electron shell answers itself, not core: they are about the app's windows and its quitting. */
export type ShellChannel = 'app:readyToQuit'
export type Event = keyof Events
export type RequestOf<C extends Channel> = Channels[C]['request']
export type ResultOf<C extends Channel> = Channels[C]['result']

/** A pasted image may be as large as a photo the service takes. */
const MAX_PASTED_IMAGE_BYTES = 20 * 1024 * 1024
const MAX_POST_HTML = 5 * 1024 * 1024

const id = text({ maxLength: 64 })
const uri = text({ maxLength: 2048 })
const path = text({ maxLength: 4096 })
const title = text({ maxLength: 1024, allowEmpty: true })
const html = text({ maxLength: MAX_POST_HTML, allowEmpty: true })
const categories = list(text({ maxLength: 255 }), { maxItems: 200 })
const accountRef = record<AccountRef>({ accountId: id })
const weblogAddress = record<WeblogAddress>({ accountId: id, weblogPostUri: uri })
const draftRef = record<DraftRef>({ draftId: id })
const operationRef = record<OperationRef>({ operationId: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) })
const remotePostRef = record<RemotePostRef>({ accountId: id, weblogPostUri: uri, editUri: uri })
const collectionsRequest = record<CollectionsRequest>({ accountId: id, refresh: boolean })
const collectionRef = record<CollectionRef>({ accountId: id, collectionUri: uri })
const fileRef = record<FileRef>({ path })
const friendRef = record<FriendRef>({ friendId: id })

export const requestChecks: { [C in Channel]: Check<RequestOf<C>> } = {
  'accounts:list': nothing,
  'accounts:add': record<NewAccount>({
    atomBase: httpUrl,
    username: text({ maxLength: 255 }),
    apiPassword: text({ maxLength: 1024 }),
  }),
  'accounts:remove': accountRef,
  'accounts:updatePassword': record<PasswordChange>({ accountId: id, apiPassword: text({ maxLength: 1024 }) }),
  'accounts:connectJson': record<JsonConnection>({
    accountId: id,
    jsonBase: httpUrl,
    apiKey: text({ maxLength: 255 }),
    apiSecret: text({ maxLength: 1024 }),
  }),
  'accounts:cancelSignIn': accountRef,
  'accounts:trySandbox': nothing,
  'weblogs:list': record<WeblogsRequest>({ accountId: id, refresh: boolean }),

  'app:status': nothing,
  'app:openExternal': record<{ url: string }>({ url: httpUrl }),
  'app:readyToQuit': nothing,

  'outbox:list': nothing,
  'outbox:retry': operationRef,
  'outbox:discard': operationRef,
  'outbox:tryNow': nothing,

  'drafts:list': record<DraftsPageRequest>({
    accountId: id,
    weblogPostUri: uri,
    after: nullable(record<DraftPosition>({ updatedAt: text({ maxLength: 64 }), id })),
  }),
  'drafts:create': weblogAddress,
  'drafts:get': draftRef,
  'drafts:save': record<DraftEdit>({
    draftId: id,
    title: optional(title),
    content: optional(html),
    categories: optional(categories),
    summary: optional(text({ maxLength: 10_000, allowEmpty: true })),
    issued: optional(nullable(utcDateTime)),
  }),
  'drafts:revisions': draftRef,
  'drafts:restore': record<RevisionRef>({ draftId: id, revisionId: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) }),
  'drafts:publish': draftRef,
  'drafts:remove': draftRef,
  'drafts:trash': weblogAddress,
  'drafts:untrash': draftRef,
  'drafts:deleteForever': draftRef,
  'drafts:resolveConflict': record<ConflictResolution>({
    draftId: id,
    choice: oneOf(['mine', 'theirs', 'merged']),
    merged: nullable(record<{ title: string; content: string; categories: string[] }>({ title, content: html, categories })),
  }),
  'drafts:revision': record<RevisionRef>({ draftId: id, revisionId: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) }),
  'drafts:emptyTrash': weblogAddress,

  'search:query': record<SearchRequest>({ accountId: id, query: text({ maxLength: 1000, allowEmpty: true }) }),

  'media:importFile': fileRef,
  'media:importBytes': record<PastedImage>({
    name: text({ maxLength: 255 }),
    type: text({ maxLength: 100 }),
    bytes: bytes({ maxBytes: MAX_PASTED_IMAGE_BYTES }),
  }),
  'media:preview': record<MediaRef>({ hash: text({ maxLength: 64 }) }),

  'posts:page': record<PostsPageRequest>({ accountId: id, weblogPostUri: uri, pageUri: nullable(uri) }),
  'posts:edit': remotePostRef,
  'posts:delete': remotePostRef,

  'categories:list': record<CategoriesRequest>({ accountId: id, weblogPostUri: uri, refresh: boolean }),

  'albums:list': collectionsRequest,
  'albums:photos': collectionRef,
  'photos:preview': fileRef,
  'photos:add': record<NewAlbumPhoto>({
    accountId: id,
    collectionUri: uri,
    path,
    title: text({ maxLength: 255 }),
    caption: nullable(text({ maxLength: 4096, allowEmpty: true })),
    stripGps: boolean,
  }),

  'lists:list': collectionsRequest,
  'lists:items': collectionRef,
  'photos:queued': collectionRef,
  'lists:add': record<NewListEntry>({
    accountId: id,
    collectionUri: uri,
    listType: oneOf(['music', 'book', 'person', 'link']),
    fields: textMap({ maxEntries: 16, maxLength: 2048 }),
    rating: nullable(integer({ min: 1, max: 5 })),
    notes: nullable(text({ maxLength: 8192, allowEmpty: true })),
  }),

  'friends:list': accountRef,
  'friends:add': record<NewFriend>({ accountId: id, username: text({ maxLength: 255 }) }),
  'friends:remove': friendRef,
  'friends:setRemoteImages': record<RemoteImagesChoice>({ friendId: id, load: boolean }),
  'friends:neighbours': accountRef,

  'feed:open': friendRef,
  'feed:events': record<FeedSlice>({
    friendId: id,
    offset: integer({ min: 0, max: 10_000_000 }),
    limit: integer({ min: 1, max: 500 }),
  }),
  'feed:refresh': friendRef,
  'feed:older': friendRef,
  'feed:markSeen': record<SeenRef>({ friendId: id, upTo: optional(text({ maxLength: 512 })) }),

  'weblogs:settings': weblogAddress,
  'weblogs:saveSettings': record<WeblogSettingsEdit>({ accountId: id, weblogPostUri: uri, maxImageWidth: integer(IMAGE_WIDTH_LIMITS) }),
  'preview:look': record<WeblogLookRequest>({ accountId: id, weblogPostUri: uri, refresh: boolean }),
}

export const eventNames: { [E in Event]: true } = {
  'accounts:changed': true,
  'app:statusChanged': true,
  'app:command': true,
  'app:quitting': true,
  'outbox:changed': true,
  'outbox:progress': true,
  'drafts:changed': true,
  'friends:updated': true,
}

export const channels = Object.keys(requestChecks) as Channel[]
export const events = Object.keys(eventNames) as Event[]
